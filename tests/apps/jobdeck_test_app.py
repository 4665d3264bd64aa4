#!/usr/bin/env python3
"""Stand-in for a PySpark driver in the run tests.

Prints what the service gave it (the run id, the Spark configs PySpark would get from
PYSPARK_SUBMIT_ARGS, the run's hudi-defaults.conf, its arguments), then
behaves according to its own arguments, each as `--name value` or `--name=value`:
  --lines N      print N numbered lines ("line <i>"), one every --interval-ms (default 0)
  --sleep S      sleep S seconds (fractions allowed) before ending
  --exit-code C  end with exit code C (default 0)
  --ignore-term  ignore SIGTERM (to test that a cancel ends in KILL)
  --print-environment  print each variable of its environment as "env: NAME=value", sorted
Unknown arguments are ignored, so job arguments and overrides can be anything.
"""
import os
import shlex
import signal
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


def main():
    args = sys.argv[1:]
    print("run-id: " + os.environ.get("ONEHOUSE_JOB_RUN_ID", "<unset>"))
    print("pid: %d" % os.getpid())
    submit_args = shlex.split(os.environ.get("PYSPARK_SUBMIT_ARGS", ""))
    for i, word in enumerate(submit_args[:-1]):
        if word == "--conf":
            print("spark-conf: " + submit_args[i + 1])
    conf_dir = os.environ.get("HUDI_CONF_DIR", "")
    try:
        with open(os.path.join(conf_dir, "hudi-defaults.conf")) as conf:
            for line in conf.read().splitlines():
                print("hudi-conf: " + line)
    except OSError as error:
        print("hudi-conf-error: " + str(error))
    for arg in args:
        print("arg: " + arg)
    if "--print-environment" in args:
        for name in sorted(os.environ):
            print("env: %s=%s" % (name, os.environ[name]))
    sys.stdout.flush()
    opts = options(args)
    if "--ignore-term" in args:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    interval = float(opts.get("--interval-ms", "0")) / 1000.0
    for i in range(int(opts.get("--lines", "0"))):
        print("line %d" % (i + 1), flush=True)
        time.sleep(interval)
    time.sleep(float(opts.get("--sleep", "0")))
    print("done", flush=True)
    sys.exit(int(opts.get("--exit-code", "0")))


main()
