#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Two hosts on one machine: RDMA sample pairs across two network namespaces joined by a veth.

  run_netns.py echo
  run_netns.py send_receive|send_receive_cm|write|read --a BIN --b BIN [--text TEXT]

Creates namespaces sd-a-<pid> and sd-b-<pid>, a veth pair between them with 10.X.Y.1/24 (a) and
10.X.Y.2/24 (b), both ends and both loopbacks up. Each side runs with its own SOFTDOCA_RUN_DIR
and a SOFTDOCA_CONFIG whose one card (a ConnectX-7) carries the namespace's veth address as its
IPv4 (and so its RoCE GID ::ffff:10.X.Y.n): the soft NIC can only reach the other side over
TCP across the veth (abstract unix sockets do not cross network namespaces).

  echo              a plain Python TCP echo across the veth (checks the plumbing itself)
  send_receive      doca_rdma_send (a) -> doca_rdma_receive (b), descriptors out of band
  send_receive_cm   the same pair with RDMA-CM: receiver listens, sender -cm -sa 10.X.Y.2
  write             doca_rdma_write_requester (a) -> doca_rdma_write_responder (b), out of band
  read              doca_rdma_read_requester (a) <- doca_rdma_read_responder (b), out of band

Out of band follows DOCA's documented steps: both sides start and write their descriptor files
(-ld, -m), the test "copies them to the other host" (each side has its own directory), then
presses Enter on the receiver/responder, then on the sender/requester; a responder's second
Enter comes once the requester is done. Checked: both exit 0 with their result lines, no
sanitizer report, and the veth's tx/rx byte counters (/sys/class/net/<veth>/statistics, read
inside the namespace) grew by at least the payload, which proves the bytes crossed the veth.
Everything (processes, namespaces, veth, files) is removed at the end, also on failure.
Exit 77 (skipped) when namespaces cannot be created (not root / no CAP_NET_ADMIN, no `ip`).
"""
import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from run_sample import SANITIZER_MARKS  # noqa: E402

SKIP = 77
STEP_TIMEOUT = 20  # seconds for any one wait
DEVICE = "mlx5_0"
CM_PORT = "13579"


class Skip(Exception):
    pass


def run(*cmd, check=True):
    return subprocess.run(list(cmd), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          check=check, timeout=STEP_TIMEOUT)


class Net:
    """Two namespaces and a veth pair; torn down by close() whatever happened."""

    def __init__(self):
        pid = os.getpid()
        self.ns = ("sd-a-%d" % pid, "sd-b-%d" % pid)
        self.veth = ("sda%d" % pid, "sdb%d" % pid)  # at most 15 characters
        x, y = 200 + (pid >> 8) % 50, pid & 0xff
        self.ip = ("10.%d.%d.1" % (x, y), "10.%d.%d.2" % (x, y))
        self.created = []

    def open(self):
        if shutil.which("ip") is None:
            raise Skip("the `ip` command (iproute2) is not installed")
        r = run("ip", "netns", "add", self.ns[0], check=False)
        if r.returncode != 0:
            raise Skip("cannot create a network namespace (needs root or CAP_NET_ADMIN): " + r.stderr.strip())
        self.created.append(self.ns[0])
        run("ip", "netns", "add", self.ns[1])
        self.created.append(self.ns[1])
        run("ip", "link", "add", self.veth[0], "type", "veth", "peer", "name", self.veth[1])
        for i in (0, 1):
            run("ip", "link", "set", self.veth[i], "netns", self.ns[i])
            run("ip", "-n", self.ns[i], "addr", "add", self.ip[i] + "/24", "dev", self.veth[i])
            run("ip", "-n", self.ns[i], "link", "set", "lo", "up")
            run("ip", "-n", self.ns[i], "link", "set", self.veth[i], "up")
        # wait for the link to carry traffic (veth is up at once, but be patient with slow kernels)
        deadline = time.time() + STEP_TIMEOUT
        while shutil.which("ping") and run("ip", "netns", "exec", self.ns[0], "ping", "-c", "1", "-W", "1",
                                           self.ip[1], check=False).returncode != 0:
            if time.time() > deadline:
                raise RuntimeError("no ping across the veth")
            time.sleep(0.1)

    def counters(self, i):
        """(tx_bytes, rx_bytes) of side i's veth, read in its namespace."""
        r = run("ip", "netns", "exec", self.ns[i], "cat",
                "/sys/class/net/%s/statistics/tx_bytes" % self.veth[i],
                "/sys/class/net/%s/statistics/rx_bytes" % self.veth[i])
        tx, rx = r.stdout.split()
        return int(tx), int(rx)

    def close(self):
        for ns in self.created:
            # processes still in the namespace are ours (started by this test): end them by pid
            r = run("ip", "netns", "pids", ns, check=False)
            for p in r.stdout.split():
                try:
                    os.kill(int(p), 9)
                except (ProcessLookupError, ValueError):
                    pass
        for ns in reversed(self.created):
            run("ip", "netns", "del", ns, check=False)  # takes the veth pair with it
        self.created = []


class Proc:
    """A process in a namespace; stdout and stderr collected as they come, lines awaited."""

    def __init__(self, name, ns, argv, env, stdin=True):
        self.name = name
        self.proc = subprocess.Popen(["ip", "netns", "exec", ns] + argv, env=env,
                                     stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines = []
        self.cond = threading.Condition()
        self.ended = 0
        self.threads = [threading.Thread(target=self._read, args=(s,), daemon=True)
                        for s in (self.proc.stdout, self.proc.stderr)]
        for t in self.threads:
            t.start()

    def _read(self, stream):
        for raw in stream:
            with self.cond:
                self.lines.append(raw.decode(errors="replace"))
                self.cond.notify_all()
        with self.cond:
            self.ended += 1
            self.cond.notify_all()

    def wait_line(self, text, timeout=STEP_TIMEOUT):
        """Waits until a line contains `text` (case-insensitive); False if it ended or timed out."""
        deadline = time.time() + timeout
        with self.cond:
            seen = 0
            while True:
                for line in self.lines[seen:]:
                    if text.lower() in line.lower():
                        return True
                seen = len(self.lines)
                left = deadline - time.time()
                if self.ended == 2 or left <= 0:
                    return False
                self.cond.wait(left)

    def enter(self):
        try:
            self.proc.stdin.write(b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def finish(self, timeout=STEP_TIMEOUT):
        if self.proc.stdin:
            try:
                self.proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None
        for t in self.threads:
            t.join(5)
        return self.proc.returncode

    def output(self):
        return "".join(self.lines)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def side_env(work, net, i):
    """Side i's environment: its own run directory and a card with the namespace's address."""
    conf = os.path.join(work, "side%d.conf" % i)
    with open(conf, "w") as f:
        f.write("# written by tests/integration/netns/run_netns.py\n"
                "[card nic-%d]\nprofile = connectx-7\nhost.pci = c1:00.0\nhost.ibdev = %s\nhost.ipv4 = %s\n"
                % (i, DEVICE, net.ip[i]))
    env = dict(os.environ)
    env["SOFTDOCA_CONFIG"] = conf
    env["SOFTDOCA_RUN_DIR"] = os.path.join(work, "run%d" % i)
    env.pop("SOFTDOCA_RDMA_TRANSPORT", None)  # the namespaces alone must make it TCP
    os.makedirs(env["SOFTDOCA_RUN_DIR"], exist_ok=True)
    return env


ECHO_SERVER = r"""
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], int(sys.argv[2]))); s.listen(1)
print("listening", flush=True)
c, _ = s.accept()
while True:
    d = c.recv(65536)
    if not d:
        break
    c.sendall(d)
c.close()
"""

ECHO_CLIENT = r"""
import socket, sys
n = int(sys.argv[3]); payload = bytes(range(256)) * (n // 256)
c = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=10)
c.sendall(payload); c.shutdown(socket.SHUT_WR)
got = b""
while True:
    d = c.recv(65536)
    if not d:
        break
    got += d
print("echoed %d bytes %s" % (len(got), "ok" if got == payload else "MISMATCH"), flush=True)
"""


def scenario_echo(net, work, args):
    """A plain TCP echo from a to b across the veth: the plumbing works."""
    size = 1 << 20
    env = dict(os.environ)
    server = Proc("echo server", net.ns[1], [sys.executable, "-c", ECHO_SERVER, net.ip[1], "7777"], env,
                  stdin=False)
    procs = [server]
    if not server.wait_line("listening"):
        return fail("echo server did not listen", procs)
    client = Proc("echo client", net.ns[0], [sys.executable, "-c", ECHO_CLIENT, net.ip[1], "7777", str(size)],
                  env, stdin=False)
    procs.append(client)
    rc_c, rc_s = client.finish(), server.finish()
    if rc_c != 0 or rc_s != 0 or "ok" not in client.output():
        return fail("echo failed (client %s, server %s)" % (rc_c, rc_s), procs)
    return size, procs


def fail(why, procs):
    print("FAIL: " + why)
    for p in procs:
        print("---- %s (exit %s) ----\n%s" % (p.name, p.proc.poll(), p.output()))
    return None


def copy(src, dst):
    if not os.path.exists(src):
        raise RuntimeError("descriptor file %s was not written" % src)
    shutil.copyfile(src, dst)


def oob_paths(work, i):
    d = os.path.join(work, "host%d" % i)
    os.makedirs(d, exist_ok=True)
    return {"ld": os.path.join(d, "local_desc"), "re": os.path.join(d, "remote_desc"),
            "m": os.path.join(d, "resource_desc")}


def oob_args(p):
    return ["-d", DEVICE, "-ld", p["ld"], "-re", p["re"], "-m", p["m"]]


def scenario_pair(net, work, args):
    """A (sender/requester) in namespace a, B (receiver/responder) in namespace b."""
    kind, text = args.scenario, args.text
    env = (side_env(work, net, 0), side_env(work, net, 1))
    pa, pb = oob_paths(work, 0), oob_paths(work, 1)
    procs = []
    if kind == "send_receive_cm":
        b = Proc("doca_rdma_receive (server, b)", net.ns[1], [args.b, "-d", DEVICE, "-cm", "-lp", CM_PORT], env[1])
        procs.append(b)
        if not b.wait_line("start_listen_to_port"):
            return fail("the receiver did not listen", procs)
        time.sleep(0.2)  # the line comes just before the call
        a = Proc("doca_rdma_send (client, a)", net.ns[0],
                 [args.a, "-d", DEVICE, "-cm", "-lp", CM_PORT, "-sa", net.ip[1], "-s", text], env[0])
        procs.append(a)
        rc_a, rc_b = a.finish(), b.finish()
        expect_a, expect_b = "RDMA send task was done successfully", 'Got from sender: "%s"' % text
    else:
        flags_a = {"send_receive": ["-s", text], "write": ["-w", text], "read": []}[kind]
        flags_b = {"send_receive": [], "write": [], "read": ["-r", text]}[kind]
        names = {"send_receive": ("doca_rdma_send", "doca_rdma_receive"),
                 "write": ("doca_rdma_write_requester", "doca_rdma_write_responder"),
                 "read": ("doca_rdma_read_requester", "doca_rdma_read_responder")}[kind]
        b = Proc(names[1] + " (b)", net.ns[1], [args.b] + oob_args(pb) + flags_b, env[1])
        procs.append(b)
        a = Proc(names[0] + " (a)", net.ns[0], [args.a] + oob_args(pa) + flags_a, env[0])
        procs.append(a)
        for p in (a, b):
            if not p.wait_line("press enter"):
                return fail("%s did not ask for Enter" % p.name, procs)
        # "copy the files to the other host"
        copy(pa["ld"], pb["re"])
        copy(pb["ld"], pa["re"])
        if kind in ("write", "read"):
            copy(pb["m"], pa["m"])
        b.enter()  # receiver / responder first, as the samples say
        time.sleep(0.2)
        a.enter()
        rc_a = a.finish()
        if kind in ("write", "read"):
            b.enter()  # "Wait till the requester has finished ... and press enter"
        rc_b = b.finish()
        expect_a = {"send_receive": "RDMA send task was done successfully",
                    "write": "RDMA write task was done Successfully",
                    "read": 'Read from responder: "%s"' % text}[kind]
        expect_b = {"send_receive": 'Got from sender: "%s"' % text,
                    "write": 'Requester has written: "%s"' % text,
                    "read": "Wait till the requester has finished reading"}[kind]
    if rc_a != 0 or rc_b != 0:
        return fail("exit status a=%s b=%s" % (rc_a, rc_b), procs)
    for p, line in ((a, expect_a), (b, expect_b)):
        if line not in p.output():
            return fail("%s: no line %r" % (p.name, line), procs)
    for p in procs:
        for mark in SANITIZER_MARKS:
            if mark in p.output():
                return fail("%s: sanitizer report" % p.name, procs)
    return len(text), procs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", choices=["echo", "send_receive", "send_receive_cm", "write", "read"])
    ap.add_argument("--a", help="sender / requester binary (namespace a)")
    ap.add_argument("--b", help="receiver / responder binary (namespace b)")
    ap.add_argument("--text", default="softdoca crossed the veth: " + "x" * 64)
    args = ap.parse_args()
    if args.scenario != "echo" and not (args.a and args.b):
        ap.error("--a and --b are needed")

    net = Net()
    work = tempfile.mkdtemp(prefix="softdoca-netns-")
    procs = []
    try:
        try:
            net.open()
        except Skip as e:
            print("SKIP: " + str(e))
            return SKIP
        before = (net.counters(0), net.counters(1))
        result = (scenario_echo if args.scenario == "echo" else scenario_pair)(net, work, args)
        if result is None:
            return 1
        payload, procs = result
        after = (net.counters(0), net.counters(1))
        a_tx, a_rx = after[0][0] - before[0][0], after[0][1] - before[0][1]
        b_tx, b_rx = after[1][0] - before[1][0], after[1][1] - before[1][1]
        print("veth %s: tx %d rx %d bytes; %s: tx %d rx %d bytes; payload %d bytes"
              % (net.veth[0], a_tx, a_rx, net.veth[1], b_tx, b_rx, payload))
        # a sends the payload to b (send, write, echo) or b sends it to a (read, echo's answer)
        toward_b = args.scenario != "read"
        moved = (a_tx, b_rx) if toward_b else (b_tx, a_rx)
        if min(moved) < payload:
            print("FAIL: fewer bytes crossed the veth than the payload: the TCP transport was not used")
            for p in procs:
                print("---- %s ----\n%s" % (p.name, p.output()))
            return 1
        print("PASS: %s across namespaces %s / %s (%s <-> %s)" % (args.scenario, net.ns[0], net.ns[1],
                                                                     net.ip[0], net.ip[1]))
        return 0
    finally:
        for p in procs:
            p.kill()
        net.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
