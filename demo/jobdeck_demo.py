#!/usr/bin/env python3
"""The Local profile's demo PySpark driver (no Spark needed: it only prints what a driver would see).

Prints the run id (ONEHOUSE_JOB_RUN_ID), the Hudi configurations the run was given
($HUDI_CONF_DIR/hudi-defaults.conf) and its arguments, then a progress line every --interval seconds
for --seconds seconds. Arguments, each as `--name value` or `--name=value` (a run's argument overrides
change them):
  --task NAME       what the progress lines call the work (default: daily_report)
  --seconds S       how long the work takes (default 20)
  --interval S      seconds between progress lines (default 2)
  --fail-after S    fail on purpose after S seconds: an error on stderr and exit status 2
Other arguments are printed and otherwise ignored.
"""
import os
import sys
import time


def options(args):
    found = {}
    i = 0
    while i < len(args):
        arg = args[i]
        if arg.startswith("--") and "=" in arg:
            name, value = arg.split("=", 1)
            found[name] = value
        elif arg.startswith("--") and i + 1 < len(args) and not args[i + 1].startswith("--"):
            found[arg] = args[i + 1]
            i += 1
        i += 1
    return found


def number(opts, name, default):
    try:
        return max(0.0, float(opts.get(name, default)))
    except ValueError:
        print("warning: %s=%s is not a number, using %s" % (name, opts[name], default), flush=True)
        return float(default)


def print_hudi_configs():
    conf_dir = os.environ.get("HUDI_CONF_DIR")
    if not conf_dir:
        print("HUDI_CONF_DIR is not set", flush=True)
        return
    path = os.path.join(conf_dir, "hudi-defaults.conf")
    try:
        with open(path, encoding="utf-8") as conf:
            lines = [line for line in conf.read().splitlines() if line.strip()]
    except OSError as error:
        print("cannot read %s: %s" % (path, error), flush=True)
        return
    print("Hudi configs (%s): %d" % (path, len(lines)))
    for line in lines:
        print("  " + line)


def main():
    args = sys.argv[1:]
    opts = options(args)
    task = opts.get("--task", "daily_report")
    seconds = number(opts, "--seconds", 20)
    interval = max(0.1, number(opts, "--interval", 2))
    fail_after = number(opts, "--fail-after", -1) if "--fail-after" in opts else None

    print("Jobdeck demo driver (Python %d.%d): %s" % (sys.version_info[0], sys.version_info[1], task))
    print("run id: " + os.environ.get("ONEHOUSE_JOB_RUN_ID", "<not set>"))
    print_hudi_configs()
    print("arguments: " + " ".join(args))
    sys.stdout.flush()

    start = time.monotonic()
    end = start + seconds
    rows = 0
    while True:
        now = time.monotonic()
        elapsed = now - start
        if fail_after is not None and elapsed >= fail_after:
            print("%s: ERROR reading input partition date=%s: part-00007.parquet is corrupt "
                  "(this demo job fails on purpose after %g s)" % (task, opts.get("--date", "?"), fail_after),
                  file=sys.stderr, flush=True)
            sys.exit(2)
        if now >= end:
            break
        time.sleep(min(interval, end - now, (fail_after - elapsed) if fail_after is not None else interval))
        elapsed = min(time.monotonic() - start, seconds)
        rows = int(elapsed * 25000)
        percent = 100 if seconds == 0 else int(100 * elapsed / seconds)
        print("%s: %3d%% (%.1f of %g s), %d rows processed" % (task, percent, elapsed, seconds, rows), flush=True)
    print("%s: done in %g s, %d rows written" % (task, seconds, rows), flush=True)


main()
