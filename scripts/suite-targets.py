#!/usr/bin/env python3
"""Prints the build outputs that the tests of the given meson suites depend on, one per line,
relative to the build directory: `ninja -C DIR $(scripts/suite-targets.py DIR rdma)` builds only
what `meson test -C DIR --no-rebuild --suite rdma` runs (its executables, their libraries, and
what each test names in its `depends:`), not the whole tree."""
import json
import os
import subprocess
import sys


def introspect(build, what):
    return json.loads(subprocess.check_output(["meson", "introspect", build, what]))


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: suite-targets.py BUILD_DIR SUITE...")
    build, suites = os.path.abspath(sys.argv[1]), set(sys.argv[2:])
    by_id = {t["id"]: t for t in introspect(build, "--targets")}
    want = set()
    for test in introspect(build, "--tests"):
        # meson names a suite "project:suite"
        if suites & {s.split(":", 1)[-1] for s in test["suite"]}:
            want.update(test.get("depends", []))
    if not want:
        sys.exit(f"suite-targets.py: no test of suites {sorted(suites)} in {build}")
    for target_id in sorted(want):
        for f in by_id[target_id]["filename"]:
            print(os.path.relpath(f, build))


main()
