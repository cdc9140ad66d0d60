#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run one DOCA sample as a real process and check what a user would see.

  run_sample.py [--expect success|failure|nonzero] [--stdout TEXT]... [--stderr TEXT]...
                [--output TEXT]... [--absent TEXT]... -- BINARY [ARG]...

success: exit 0 and "Sample finished successfully" on stdout.
failure: exit 1 and "Sample finished with errors" on stdout.
nonzero: any exit status other than 0 (e.g. argp refusing a flag before the sample runs).
--stdout/--stderr: text that must appear on that stream; --output: on either stream;
--absent: text that must appear on neither.
An argument @REPEAT:<n>:<c>@ is replaced by the character c repeated n times.
A crash, a hang, or a sanitizer report always fails the test. SOFTDOCA_RUN_DIR, if set, is
created first, so each test has its own soft-card run directory.
"""
import argparse
import os
import re
import subprocess
import sys

TIMEOUT_SEC = 50  # below meson's timeout, so a hang is reported here with its output
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
                   "ThreadSanitizer", "UndefinedBehaviorSanitizer")


def expand(arg):
    m = re.fullmatch(r"@REPEAT:(\d+):(.)@", arg)
    return m.group(2) * int(m.group(1)) if m else arg


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--expect", choices=("success", "failure", "nonzero"), default="success")
    parser.add_argument("--stdout", action="append", default=[])
    parser.add_argument("--stderr", action="append", default=[])
    parser.add_argument("--output", action="append", default=[])
    parser.add_argument("--absent", action="append", default=[])
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    command = [expand(a) for a in command]
    if not command:
        parser.error("no program to run")

    run_dir = os.environ.get("SOFTDOCA_RUN_DIR")
    if run_dir:
        os.makedirs(run_dir, mode=0o700, exist_ok=True)

    shown = " ".join(a if len(a) < 80 else a[:20] + "...(%d chars)" % len(a) for a in command)
    print("$ " + shown, flush=True)
    try:
        proc = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              errors="replace", timeout=TIMEOUT_SEC)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        err = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        print("--- stdout ---\n" + out + "\n--- stderr ---\n" + err)
        print("FAIL: %s hung: no exit within %d s" % (command[0], TIMEOUT_SEC))
        return 1

    print("--- stdout ---\n" + proc.stdout + "--- stderr ---\n" + proc.stderr + "--- exit %d ---" % proc.returncode)

    problems = []
    if proc.returncode < 0:
        problems.append("crashed with signal %d" % -proc.returncode)
    for mark in SANITIZER_MARKS:
        if mark in proc.stderr:
            problems.append("sanitizer report on stderr (%r)" % mark)

    if args.expect == "success":
        if proc.returncode != 0:
            problems.append("exit status %d, expected 0" % proc.returncode)
        args.stdout.insert(0, "Sample finished successfully")
    elif args.expect == "failure":
        if proc.returncode != 1:
            problems.append("exit status %d, expected 1" % proc.returncode)
        args.stdout.insert(0, "Sample finished with errors")
    elif proc.returncode == 0:
        problems.append("exit status 0, expected a failure")

    for text in args.stdout:
        if text not in proc.stdout:
            problems.append("stdout lacks %r" % text)
    for text in args.stderr:
        if text not in proc.stderr:
            problems.append("stderr lacks %r" % text)
    for text in args.output:
        if text not in proc.stdout and text not in proc.stderr:
            problems.append("output lacks %r" % text)
    for text in args.absent:
        if text in proc.stdout or text in proc.stderr:
            problems.append("output has %r" % text)

    for problem in problems:
        print("FAIL: " + problem)
    if not problems:
        print("PASS")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
