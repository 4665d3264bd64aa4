#!/usr/bin/env python3
"""Where a build's time went, from ninja's log: compile and link time summed per part of the tree.

  packaging/build-times.py BUILD_DIR [ROWS]

Each line: a part (core, service, tests/service, ...), what kind of step (compile, link, moc and
other generated steps), how many steps and their summed time. Summed times exceed the wall time
when steps ran side by side (ninja -j N).
"""
import collections
import os
import sys


def part_of(output):
    path = output.replace("CMakeFiles/", "")
    for prefix in ("tests/", "bench/"):
        if path.startswith(prefix):
            return "/".join(path.split("/")[:2])
    return path.split("/")[0] if "/" in path else "(top)"


def kind_of(output):
    name = os.path.basename(output)
    if output.endswith(".o"):
        return "compile"
    if output.endswith((".gch", ".pch")):  # g++, clang++
        return "precompiled header"
    if name.endswith((".a", ".so")) or ("." not in name and name != "timestamp"):  # libraries, executables
        return "link"
    return "moc, generated"


def main(build_dir, rows):
    log = os.path.join(build_dir, ".ninja_log")
    latest = {}
    with open(log) as lines:
        for line in lines:
            if line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 5:
                start, end, _, output, command = fields
                if os.path.isabs(output):
                    output = os.path.relpath(output, build_dir)
                latest[output] = (int(start), int(end), command)  # the last build of each output counts
    # A step with several outputs (moc's timestamp and sources) is logged once per output: count it once.
    steps = {}
    for output, (start, end, command) in sorted(latest.items()):
        steps.setdefault((start, end, command), output)
    latest = {output: (start, end) for (start, end, _), output in steps.items()}
    totals = collections.defaultdict(lambda: [0, 0])
    for output, (start, end) in latest.items():
        entry = totals[(part_of(output), kind_of(output))]
        entry[0] += 1
        entry[1] += end - start
    ranked = sorted(totals.items(), key=lambda item: -item[1][1])
    for (part, kind), (count, ms) in ranked[:rows]:
        print("  %-22s %-19s %4d steps %7.1f s" % (part, kind, count, ms / 1000.0))
    total = sum(ms for _, ms in totals.values())
    print("  %-42s %4d steps %7.1f s" % ("all", len(latest), total / 1000.0))


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 20)
