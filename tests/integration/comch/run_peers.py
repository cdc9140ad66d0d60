#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run several DOCA processes together (a server and its clients) and check each one.

  run_peers.py SPEC...

Each SPEC is a JSON object describing one process, started in the order given:
  cmd      argv (required)
  name     label for the report (default: proc<i>)
  env      extra environment {"NAME": "value"}
  ready    text this process prints on stdout once the next one may start (the server's
           "ready" line): we wait for it instead of sleeping
  kill_on  text on this process's stdout after which it is killed with SIGKILL (a peer
           dying mid-stream); or [name, text] to wait for that text from another process
An argument @REPEAT:<n>:<c>@ is replaced by the character c repeated n times.
  exit     expected exit status (default 0); "killed" for a process we kill
  stdout / stderr / absent   lists of texts that must (not) appear
A crash, a sanitizer report or a hang (no exit within the timeout) fails the run.
"""
import json
import os
import re
import selectors
import signal
import subprocess
import sys
import time

TIMEOUT_SEC = 50
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
                   "ThreadSanitizer", "UndefinedBehaviorSanitizer")


def expand(arg):
    m = re.fullmatch(r"@REPEAT:(\d+):(.)@", arg)
    return m.group(2) * int(m.group(1)) if m else arg


class Proc:
    def __init__(self, i, spec):
        self.spec = spec
        self.name = spec.get("name", "proc%d" % i)
        env = dict(os.environ)
        # meson test puts every flavour's library directory on LD_LIBRARY_PATH; the host and
        # DPU programs must each find their own flavour through their RUNPATH instead.
        env.pop("LD_LIBRARY_PATH", None)
        env.update(spec.get("env", {}))
        self.p = subprocess.Popen([expand(a) for a in spec["cmd"]], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, env=env)
        self.out = {"stdout": b"", "stderr": b""}
        self.killed = False
        self.open = 2

    def text(self, stream):
        return self.out[stream].decode(errors="replace")


def pump(sel, procs, until, deadline):
    """Reads output until until() holds or every stream is closed; kills on kill_on."""
    while not until():
        if time.monotonic() > deadline:
            return False
        if not sel.get_map():
            return until()
        for key, _ in sel.select(timeout=0.1):
            proc, stream = key.data
            chunk = os.read(key.fd, 65536)
            if not chunk:
                sel.unregister(key.fileobj)
                continue
            proc.out[stream] += chunk
            for victim in procs:
                kill_on = victim.spec.get("kill_on")
                if not kill_on or victim.killed:
                    continue
                if isinstance(kill_on, str):
                    whom, text = [victim], kill_on
                else:
                    whom, text = [p for p in procs if p.name == kill_on[0]], kill_on[1]
                if any(text in w.text("stdout") for w in whom):
                    victim.p.send_signal(signal.SIGKILL)
                    victim.killed = True
    return True


def main():
    specs = [json.loads(a) for a in sys.argv[1:]]
    run_dir = os.environ.get("SOFTDOCA_RUN_DIR")
    if run_dir:
        os.makedirs(run_dir, mode=0o700, exist_ok=True)
    deadline = time.monotonic() + TIMEOUT_SEC
    sel = selectors.DefaultSelector()
    procs = []
    problems = []
    for i, spec in enumerate(specs):
        proc = Proc(i, spec)
        procs.append(proc)
        print("$ [%s] %s" % (proc.name, " ".join(a if len(a) < 80 else a[:20] + "..." for a in spec["cmd"])),
              flush=True)
        sel.register(proc.p.stdout, selectors.EVENT_READ, (proc, "stdout"))
        sel.register(proc.p.stderr, selectors.EVENT_READ, (proc, "stderr"))
        ready = spec.get("ready")
        if ready and not pump(sel, procs, lambda: ready in proc.text("stdout") or proc.p.poll() is not None,
                              deadline):
            problems.append("%s never printed %r" % (proc.name, ready))
    # Every process closes its output when it exits; then reap it.
    pump(sel, procs, lambda: not sel.get_map(), deadline)
    for proc in procs:
        try:
            proc.p.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.p.kill()
            proc.p.wait()
            problems.append("%s hung: no exit within %d s" % (proc.name, TIMEOUT_SEC))
    pump(sel, procs, lambda: not sel.get_map(), time.monotonic() + 2)

    for proc in procs:
        spec, rc = proc.spec, proc.p.returncode
        print("--- [%s] exit %d ---\n--- stdout ---\n%s--- stderr ---\n%s" %
              (proc.name, rc, proc.text("stdout"), proc.text("stderr")))
        want = spec.get("exit", 0)
        if want == "killed":
            if not proc.killed:
                problems.append("%s was never killed (no %r)" % (proc.name, spec.get("kill_on")))
        elif rc < 0:
            problems.append("%s crashed with signal %d" % (proc.name, -rc))
        elif rc != want:
            problems.append("%s exit status %d, expected %d" % (proc.name, rc, want))
        for mark in SANITIZER_MARKS:
            if mark in proc.text("stderr"):
                problems.append("%s: sanitizer report (%r)" % (proc.name, mark))
        for stream in ("stdout", "stderr"):
            for text in spec.get(stream, []):
                if text not in proc.text(stream):
                    problems.append("%s: %s lacks %r" % (proc.name, stream, text))
        for text in spec.get("absent", []):
            if text in proc.text("stdout") or text in proc.text("stderr"):
                problems.append("%s: output has %r" % (proc.name, text))
    for problem in problems:
        print("FAIL: " + problem)
    if not problems:
        print("PASS")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
