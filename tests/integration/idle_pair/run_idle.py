#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Idle cost: a started, connected and idle host/DPU pair uses under 1% of a core.

  run_idle.py SCENARIO --host BIN [--dpu BIN] [--window SEC] [--limit FRACTION]

Scenarios (BIN: the host-flavour and DPU-flavour build of the peer, or the samples):
  comch        comch_peer server --idle (DPU) and client --idle (host): connected, 10 messages
               echoed, then both asleep on their PE's notification handle
  sync_event   se_idle_peer export (host) / import (DPU): wait tasks pending on both sides, PEs
               asleep in epoll
  sync_event_blocking   the same with a blocking doca_sync_event_wait_gt on the DPU side
  dma_host     doca_dma_copy_host (host) waiting for Enter, its exported memory served (no DPU
               side: nothing touches the memory)
  rdma         rdma_idle_peer receiver and sender (both --host, two processes on one host):
               connected out of band (the runner relays each side's "desc HEX" line to the
               other's stdin), 10 messages sent and received, then both asleep on their PE's
               notification handle with 4 receives still posted; the soft NIC's same-host path
               (a shared-memory ring per connection, doorbells)
  rdma_tcp     the same over TCP (SOFTDOCA_RDMA_TRANSPORT=tcp)
  rdma_cm      the same connected by RDMA-CM (listen / connect_to_addr on 127.0.0.1, a free port)
  dpa          dpa_idle_peer (--host): a started DPA context after an 8-thread kernel launch (its
               EUs exist), with two DPA threads pinned to EUs 3 and 4 waiting for a
               notification: EUs asleep, no timer

Each process is started once the previous one said it is ready; once every process has said
so (their lines, not a sleep, are the synchronisation), the CPU time of each (utime + stime of
all its threads, /proc/<pid>/stat) is read at the start and the end of a WINDOW-second
measurement window and must stay under LIMIT of the window. Then the test ends them (stdin
closes, or Enter) and checks that each exits 0 with its lines. Everything is bounded by
timeouts; a crash or a sanitizer report fails the run.
"""
import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from run_sample import SANITIZER_MARKS  # noqa: E402

TIMEOUT_SEC = 30
TICKS = os.sysconf("SC_CLK_TCK")


class Proc:
    """A process with a pipe on stdin; its output is collected as it comes."""

    def __init__(self, name, cmd, env):
        print("$ [%s] %s" % (name, " ".join(cmd)), flush=True)
        self.name = name
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  env=env)
        self.out, self.err = [], []
        self.cond = threading.Condition()
        self.threads = [threading.Thread(target=self._read, args=(self.p.stdout, self.out)),
                        threading.Thread(target=self._read, args=(self.p.stderr, self.err))]
        self.closed = 0
        for t in self.threads:
            t.start()

    def _read(self, stream, lines):
        for raw in stream:
            with self.cond:
                lines.append(raw.decode(errors="replace"))
                self.cond.notify_all()
        with self.cond:
            self.closed += 1
            self.cond.notify_all()

    def stdout(self):
        with self.cond:
            return "".join(self.out)

    def wait_for(self, text, timeout=TIMEOUT_SEC):
        """True once text is on stdout; False if the process ends or the timeout passes first."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while text not in "".join(self.out):
                left = deadline - time.monotonic()
                if left <= 0 or self.closed == 2:
                    return False
                self.cond.wait(left)
            return True

    def line(self, prefix):
        """The first stdout line that starts with prefix (None if none)."""
        with self.cond:
            for line in "".join(self.out).splitlines():
                if line.startswith(prefix):
                    return line
        return None

    def send(self, data):
        """Writes data to stdin, which stays open."""
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def cpu_sec(self):
        """utime + stime of every thread of the process, live or ended."""
        with open("/proc/%d/stat" % self.p.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def end(self, data=b""):
        """Writes data (if any), closes stdin and waits for the exit; None if it hung."""
        try:
            if data:
                self.p.stdin.write(data)
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        try:
            rc = self.p.wait(timeout=TIMEOUT_SEC)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = self.p.wait()
            rc = None
        for t in self.threads:
            t.join()
        return rc


def free_port():
    """A TCP port nobody listens on right now (the RDMA-CM server binds it on [::])."""
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
        s.bind(("::", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=("comch", "sync_event", "sync_event_blocking", "dma_host", "rdma", "rdma_tcp",
                                             "rdma_cm", "dpa"))
    parser.add_argument("--host", required=True)
    parser.add_argument("--dpu", default=None)
    parser.add_argument("--window", type=float, default=2.0)
    parser.add_argument("--limit", type=float, default=0.01)
    args = parser.parse_args()

    env = dict(os.environ)
    # meson lists every flavour's library directory here; each program finds its own flavour
    # through its rpath, which LD_LIBRARY_PATH would override.
    env.pop("LD_LIBRARY_PATH", None)
    run_dir = env.get("SOFTDOCA_RUN_DIR")
    if run_dir:
        os.makedirs(run_dir, mode=0o700, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="softdoca-idle-")
    problems = []

    # Per scenario: the processes in start order as (name, cmd, ready line), then how each is
    # ended and the lines it must print. Processes end in reverse start order unless said.
    # relay: (from, to, prefix): once all are started, from's line starting with prefix, the
    # prefix cut, goes to to's stdin as one line.
    relay = []
    if args.scenario == "comch":
        procs = [("server", [args.dpu, "server", "--idle", "--clients", "1"], "server ready"),
                 ("client", [args.host, "client", "--idle", "--messages", "10"], "idle")]
        ready_too = [("server", "connected 1")]
        end_order = ["client", "server"]
        lines = {"client": ["client done: 10 echoes"],
                 "server": ["disconnected 1", "server done: clients=1 disconnected=1 messages=10"]}
        enter = {}
    elif args.scenario.startswith("sync_event"):
        desc = os.path.join(tmp, "sync_event.desc")
        extra = ["--blocking"] if args.scenario == "sync_event_blocking" else []
        procs = [("exporter", [args.host, "export", desc] + extra, "exported"),
                 ("importer", [args.dpu, "import", desc] + extra, "waiting")]
        ready_too = []
        # closing the exporter's stdin makes it signal; the importer wakes and answers
        end_order = ["exporter", "importer"]
        lines = {"exporter": ["signaling the DPU", "woken by the DPU", "done"],
                 "importer": ["woken by the host", "done"]}
        enter = {}
    elif args.scenario.startswith("rdma"):
        if args.scenario == "rdma_tcp":
            env["SOFTDOCA_RDMA_TRANSPORT"] = "tcp"
        else:
            env.pop("SOFTDOCA_RDMA_TRANSPORT", None)  # the soft NIC's choice: the same-host ring
        if args.scenario == "rdma_cm":
            port = str(free_port())
            procs = [("receiver", [args.host, "receiver", "cm", port], "listening"),
                     ("sender", [args.host, "sender", "cm", port], "connected")]
        else:
            procs = [("receiver", [args.host, "receiver", "oob"], "desc "),
                     ("sender", [args.host, "sender", "oob"], "desc ")]
            relay = [("receiver", "sender", "desc "), ("sender", "receiver", "desc ")]
        ready_too = [("receiver", "idle"), ("sender", "idle")]
        # the receiver first: its stop flushes its posted receives; the sender, idle, takes the
        # disconnection calmly
        end_order = ["receiver", "sender"]
        lines = {"receiver": ["connected", "received 10", "idle", "done"],
                 "sender": ["connected", "sent 10", "idle", "done"]}
        enter = {}
    elif args.scenario == "dpa":
        procs = [("dpa", [args.host], "idle")]
        ready_too = []
        end_order = ["dpa"]
        lines = {"dpa": ["launched 8", "idle", "done"]}
        enter = {}
    else:
        procs = [("host", [args.host, "-p", "b1:00.0", "-d", os.path.join(tmp, "export_desc.txt"),
                           "-b", os.path.join(tmp, "buffer_info.txt")],
                  "Wait till the DPU has finished and press enter")]
        ready_too = []
        end_order = ["host"]
        lines = {"host": ["Sample finished successfully"]}
        enter = {"host": b"\n"}

    started = {}
    for name, cmd, ready in procs:
        started[name] = Proc(name, cmd, env)
        if not started[name].wait_for(ready):
            problems.append("%s never printed %r" % (name, ready))
            break
    for src, dst, prefix in relay:
        if not problems:
            line = started[src].line(prefix)
            try:
                started[dst].send((line[len(prefix):] + "\n").encode())
            except (BrokenPipeError, TypeError) as e:
                problems.append("cannot relay %s's %r line to %s: %s" % (src, prefix, dst, e))
    for name, text in ready_too:
        if not problems and not started[name].wait_for(text):
            problems.append("%s never printed %r" % (name, text))

    if not problems:
        before = {n: p.cpu_sec() for n, p in started.items()}
        t0 = time.monotonic()
        time.sleep(args.window)  # the measurement window (everyone is ready already)
        wall = time.monotonic() - t0
        for name, p in started.items():
            if p.p.poll() is not None:
                problems.append("%s ended during the idle window" % name)
                continue
            used = p.cpu_sec() - before[name]
            print("idle cost: %s used %.3f s of CPU over %.2f s (%.2f%% of a core)" %
                  (name, used, wall, 100 * used / wall), flush=True)
            if used >= args.limit * wall:
                problems.append("%s used %.2f%% of a core while idle (limit %.2f%%)" %
                                (name, 100 * used / wall, 100 * args.limit))

    for name in end_order:
        if name not in started:
            continue
        p = started[name]
        rc = p.end(enter.get(name, b""))
        out, err = p.stdout(), "".join(p.err)
        print("--- [%s] exit %s ---\n--- stdout ---\n%s--- stderr ---\n%s" % (name, rc, out, err))
        if rc is None:
            problems.append("%s hung: no exit within %d s" % (name, TIMEOUT_SEC))
        elif rc != 0:
            problems.append("%s exit status %d, expected 0" % (name, rc))
        for text in lines.get(name, []):
            if text not in out:
                problems.append("%s: stdout lacks %r" % (name, text))
        for mark in SANITIZER_MARKS:
            if mark in err:
                problems.append("%s: sanitizer report (%r)" % (name, mark))
        if "FAIL" in out:
            problems.append("%s reported a failure" % name)

    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)
    for problem in problems:
        print("FAIL: " + problem)
    if not problems:
        print("PASS")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
