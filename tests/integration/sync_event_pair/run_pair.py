#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run the sync_event_remote_pci (DPU) / sync_event_local_pci (host) pair and check both.

  run_pair.py --host BIN --dpu BIN [--host-first] [-- FLAG...]

1. start doca_sync_event_remote_pci (DPU flavour) and wait for its "Listening to host";
2. run doca_sync_event_local_pci (host flavour): it connects over Comch and sends the exported
   event; each side then waits for the other's signal;
3. both must end successfully with their lines, and leave no shared value file behind.

FLAGs (--async, --atomic, ...) go to both samples. --host-first starts the host first (its
Comch client waits until the server exists). Both share SOFTDOCA_RUN_DIR (the same soft card).
A crash, a hang or a sanitizer report fails the run.
"""
import argparse
import os
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from run_sample import SANITIZER_MARKS  # noqa: E402

TIMEOUT_SEC = 40
READY_LINE = "Listening to host"
DPU_LINES = [READY_LINE, "Received blob from host", "Waiting for sync event to be signaled from host",
             "Signaling sync event for host", "Done", "Sample finished successfully"]
HOST_LINES = ["Connecting to DPU", "Connection to DPU has been established", "Sending exported DOCA Sync Event to DPU",
              "Exported DOCA Sync Event has been sent to DPU successfully", "Signaling sync event for DPU",
              "Waiting for sync event to be signaled from DPU", "Done", "Sample finished successfully"]


class Proc:
    """A sample in the background; its output is collected as it comes."""

    def __init__(self, name, command, env, watch=None):
        print("$ " + " ".join(command), flush=True)
        self.name = name
        self.proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env)
        self.out, self.err = [], []
        self.seen = threading.Event()
        self.threads = [threading.Thread(target=self._read, args=(self.proc.stdout, self.out, watch)),
                        threading.Thread(target=self._read, args=(self.proc.stderr, self.err, None))]
        for t in self.threads:
            t.start()

    def _read(self, stream, lines, watch):
        for raw in stream:
            line = raw.decode(errors="replace")
            lines.append(line)
            if watch is not None and watch in line:
                self.seen.set()
        if watch is not None:
            self.seen.set()  # ended without the line: do not wait forever

    def finish(self):
        try:
            self.proc.wait(timeout=TIMEOUT_SEC)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None
        for t in self.threads:
            t.join()
        return self.proc.returncode

    def check(self, rc, lines):
        out, err = "".join(self.out), "".join(self.err)
        print("--- %s stdout ---\n%s--- %s stderr ---\n%s--- %s exit %s ---" %
              (self.name, out, self.name, err, self.name, rc))
        problems = []
        if rc is None:
            problems.append("%s sample hung" % self.name)
        elif rc != 0:
            problems.append("%s exit status %s, expected 0" % (self.name, rc))
        for text in lines:
            if text not in out:
                problems.append("%s stdout lacks %r" % (self.name, text))
        for mark in SANITIZER_MARKS:
            if mark in err:
                problems.append("sanitizer report from the %s sample (%r)" % (self.name, mark))
        return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--dpu", required=True)
    parser.add_argument("--host-first", action="store_true")
    parser.add_argument("flags", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    flags = args.flags[1:] if args.flags[:1] == ["--"] else args.flags

    env = dict(os.environ)
    # meson lists both flavours' library directories here; each sample finds its own flavour
    # through its rpath, which LD_LIBRARY_PATH would override.
    env.pop("LD_LIBRARY_PATH", None)
    run_dir = env.get("SOFTDOCA_RUN_DIR")
    if run_dir:
        os.makedirs(run_dir, mode=0o700, exist_ok=True)
    problems = []

    value_dir = os.path.join(run_dir, "sync_event") if run_dir else None
    before = set(os.listdir(value_dir)) if value_dir and os.path.isdir(value_dir) else set()
    dpu_cmd = [args.dpu, "-d", "03:00.0", "-r", "b1:00.0"] + flags
    host_cmd = [args.host, "-d", "b1:00.0"] + flags
    if args.host_first:
        host = Proc("host", host_cmd, env)
        dpu = Proc("DPU", dpu_cmd, env, READY_LINE)
    else:
        dpu = Proc("DPU", dpu_cmd, env, READY_LINE)
        if not dpu.seen.wait(TIMEOUT_SEC) or READY_LINE not in "".join(dpu.out):
            problems.append("DPU never printed %r" % READY_LINE)
        host = Proc("host", host_cmd, env)
    host_rc = host.finish()
    dpu_rc = dpu.finish()
    problems += dpu.check(dpu_rc, DPU_LINES)
    problems += host.check(host_rc, HOST_LINES)

    # The exporter removed its value file when it destroyed the event (older files are not ours).
    after = set(os.listdir(value_dir)) if value_dir and os.path.isdir(value_dir) else set()
    leftovers = sorted(after - before)
    if leftovers:
        problems.append("shared value files left in the run directory: %s" % ", ".join(leftovers))

    for problem in problems:
        print("FAIL: " + problem)
    if not problems:
        print("PASS")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
