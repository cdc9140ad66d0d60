#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Two hosts on one machine: RDMA sample pairs across two network namespaces joined by a veth.

  run_netns.py echo
  run_netns.py send_receive|send_receive_cm|write|read --a BIN --b BIN [--text TEXT]
  run_netns.py roce_lossy --a test_rdma_roce
  run_netns.py sta_roce --a softdoca-nvmf-initiator --b softdoca-sta-target

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
  sta_roce          softdoca-sta-target (--b, a BlueField-3 with wire = rocev2) and
                    softdoca-nvmf-initiator (--a, rocev2) across the veth, verified I/O
  roce_lossy        cards with wire = rocev2: RoCEv2 datagrams (UDP 4791) across a veth whose both
                    ends run netem (loss 5%, duplicate 2%, reorder); tests/unit/rdma/test_rdma_roce's
                    two sides ("a" and "b", their descriptors over a pipe pair), every byte checked,
                    and each side's RC statistics line (SOFTDOCA_ROCE_STATS) must show retransmits

Out of band follows DOCA's documented steps: both sides start and write their descriptor files
(-ld, -m), the test "copies them to the other host" (each side has its own directory), then
presses Enter on the receiver/responder, then on the sender/requester; a responder's second
Enter comes once the requester is done. RDMA-CM: the receiver listens (-cm -lp), the sender
connects with -sa <b's veth address>. The expected lines and the checks (exit 0, "Sample finished
successfully", result lines, no sanitizer report) are tests/integration/rdma/run_rdma_pair.py's.
Also checked: the veth's tx/rx byte counters (/sys/class/net/<veth>/statistics, read inside the
namespace) grew by at least the payload, which proves the bytes crossed the veth.
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


class NoNetem(Exception):
    pass


def run(*cmd, check=True):
    return subprocess.run(list(cmd), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          check=check, timeout=STEP_TIMEOUT)


class Net:
    """Two namespaces and a veth pair; torn down by close() whatever happened.

    bridged: instead of one veth pair, each side's veth leads into a third namespace (sd-m-<pid>)
    where a userspace bridge (BRIDGE) forwards frames between the two, impairing RoCEv2 ones:
    for kernels without sch_netem.
    """

    def __init__(self, bridged=False):
        pid = os.getpid()
        self.ns = ("sd-a-%d" % pid, "sd-b-%d" % pid)
        self.veth = ("sda%d" % pid, "sdb%d" % pid)  # at most 15 characters
        self.bridged = bridged
        self.mid = ("sdma%d" % pid, "sdmb%d" % pid)  # bridged: the veths' other ends, in sd-m-<pid>
        self.ns_m = "sd-m-%d" % pid
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
        if self.bridged:
            run("ip", "netns", "add", self.ns_m)
            self.created.append(self.ns_m)
            for i in (0, 1):
                run("ip", "link", "add", self.veth[i], "type", "veth", "peer", "name", self.mid[i])
                run("ip", "link", "set", self.mid[i], "netns", self.ns_m)
                run("ip", "-n", self.ns_m, "link", "set", self.mid[i], "up")
        else:
            run("ip", "link", "add", self.veth[0], "type", "veth", "peer", "name", self.veth[1])
        for i in (0, 1):
            run("ip", "link", "set", self.veth[i], "netns", self.ns[i])
            # no IPv6 on the veth: its own chatter (router solicitations, MLD) would count in the
            # byte counters the scenarios check (a few hundred bytes in the first seconds)
            run("ip", "netns", "exec", self.ns[i], "sh", "-c",
                "echo 1 > /proc/sys/net/ipv6/conf/%s/disable_ipv6" % self.veth[i], check=False)
            run("ip", "-n", self.ns[i], "addr", "add", self.ip[i] + "/24", "dev", self.veth[i])
            run("ip", "-n", self.ns[i], "link", "set", "lo", "up")
            run("ip", "-n", self.ns[i], "link", "set", self.veth[i], "up")
        if self.bridged:
            self.bridge = subprocess.Popen(["ip", "netns", "exec", self.ns_m, sys.executable, "-c", BRIDGE,
                                            self.mid[0], self.mid[1], "0.05", "0.02", "0.25", str(os.getpid())],
                                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if self.bridge.stdout.readline().strip() != "bridging":
                raise RuntimeError("the bridge did not start")
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

    def bridge_stop(self):
        """Stops the bridge; its counters line."""
        self.bridge.terminate()
        try:
            out = self.bridge.communicate(timeout=STEP_TIMEOUT)[0]
        except subprocess.TimeoutExpired:
            self.bridge.kill()
            out = self.bridge.communicate()[0]
        return out.strip()

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


def side_env(work, net, i, wire="stream", profile="connectx-7"):
    """Side i's environment: its own run directory and a card with the namespace's address."""
    conf = os.path.join(work, "side%d.conf" % i)
    with open(conf, "w") as f:
        f.write("# written by tests/integration/netns/run_netns.py\n"
                "[card nic-%d]\nprofile = %s\nwire = %s\nhost.pci = c1:00.0\nhost.ibdev = %s\n"
                "host.ipv4 = %s\n" % (i, profile, wire, DEVICE, net.ip[i]))
    env = dict(os.environ)
    env["SOFTDOCA_CONFIG"] = conf
    env["SOFTDOCA_RUN_DIR"] = os.path.join(work, "run%d" % i)
    env.pop("SOFTDOCA_RDMA_TRANSPORT", None)  # the namespaces alone must make it TCP
    env.pop("LD_LIBRARY_PATH", None)  # meson lists both flavours; each sample's rpath finds its own
    os.makedirs(env["SOFTDOCA_RUN_DIR"], mode=0o700, exist_ok=True)
    return env


# A userspace Ethernet bridge between two interfaces (Net(bridged=True)): RoCEv2 frames (UDP to
# 4791) are dropped, duplicated and reordered at the given rates; the rest passes. UDP checksums
# are cleared (0: none, allowed over IPv4): a frame read before the sender's veth offload filled
# its checksum would otherwise be dropped by the receiver. The ICRC does not cover it.
# A sender's UDP GSO send (UDP_SEGMENT) reaches a packet socket as one large frame: the bridge
# reads the GSO size (PACKET_VNET_HDR) and cuts it into the datagrams a NIC would put on the
# wire, IPv4 IDs counting up from the first's, as Linux's software segmentation does.
BRIDGE = r"""
import random, select, signal, socket, struct, sys, time
names, loss, dup, reorder = sys.argv[1:3], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
rnd = random.Random(int(sys.argv[6]))
socks = []
for n in names:
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.setsockopt(263, 15, 1)  # SOL_PACKET, PACKET_VNET_HDR: frames come with their GSO size
    s.bind((n, 0))
    socks.append(s)


def ip_csum(h):
    c = sum(struct.unpack("!%dH" % (len(h) // 2), h))
    c = (c >> 16) + (c & 0xffff)
    return ~(c + (c >> 16)) & 0xffff


def segments(v, f):
    # virtio_net_hdr: flags, gso_type (5: UDP_L4), hdr_len, gso_size, csum_start, csum_offset
    gso_type, gso_size = v[1] & 0x7f, struct.unpack("<H", v[4:6])[0]
    if gso_type != 5 or len(f) < 42 or f[12:14] != b"\x08\x00":
        return [f]
    ihl = (f[14] & 15) * 4
    hdr, data = f[:14 + ihl + 8], f[14 + ihl + 8:]
    ident = struct.unpack("!H", f[18:20])[0]
    out = []
    for k, o in enumerate(range(0, len(data), gso_size)):
        d = data[o:o + gso_size]
        ip = bytearray(hdr[14:14 + ihl])
        ip[2:4] = struct.pack("!H", ihl + 8 + len(d))
        ip[4:6] = struct.pack("!H", (ident + k) & 0xffff)
        ip[10:12] = b"\0\0"
        ip[10:12] = struct.pack("!H", ip_csum(bytes(ip)))
        udp = bytearray(hdr[14 + ihl:])
        udp[4:6] = struct.pack("!H", 8 + len(d))
        out.append(hdr[:14] + bytes(ip) + bytes(udp) + d)
    return out


st = dict(fwd=0, lost=0, dup=0, reordered=0)
held = [None, None]
stop = []
signal.signal(signal.SIGTERM, lambda *_: stop.append(1))


def roce(f):
    return len(f) >= 42 and f[12:14] == b"\x08\x00" and f[23] == 17 and \
        f[14 + (f[14] & 15) * 4 + 2:14 + (f[14] & 15) * 4 + 4] == b"\x12\xb7"


def fix(f):
    if len(f) >= 42 and f[12:14] == b"\x08\x00" and f[23] == 17:
        o = 14 + (f[14] & 15) * 4 + 6
        f = f[:o] + b"\0\0" + f[o + 2:]
    return f


def send(out, f):
    out.send(b"\0" * 10 + f)  # a virtio_net_hdr saying: no GSO, no checksum to fill


def forward(i, out, f):
    if roce(f):
        if rnd.random() < loss:
            st["lost"] += 1
            return
        if held[i] is None and rnd.random() < reorder:
            held[i] = (f, time.time() + 0.003)
            st["reordered"] += 1
            return
        if rnd.random() < dup:
            send(out, f)
            st["dup"] += 1
    send(out, f)
    st["fwd"] += 1
    if held[i] is not None:  # after a later frame: out of order
        send(out, held[i][0])
        held[i] = None


print("bridging", flush=True)
while not stop:
    try:
        ready = select.select(socks, [], [], 0.003 if held != [None, None] else 0.2)[0]
    except InterruptedError:
        continue
    for s in ready:
        i = socks.index(s)
        out = socks[1 - i]
        f, addr = s.recvfrom(65535 + 10)
        if addr[2] == socket.PACKET_OUTGOING:
            continue
        for f in segments(f[:10], f[10:]):
            forward(i, out, fix(f))
    for i in (0, 1):
        if held[i] is not None and held[i][1] <= time.time():
            send(socks[1 - i], held[i][0])
            held[i] = None
print("bridge: forwarded %(fwd)d, RoCEv2 frames lost %(lost)d, duplicated %(dup)d, reordered %(reordered)d" % st,
      flush=True)
"""

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


def scenario_pair(net, work, args):
    """Sender / requester in namespace a, receiver / responder in namespace b.

    The pair logic (expected lines, the checks) is tests/integration/rdma/run_rdma_pair.py's;
    here each sample runs under `ip netns exec` with its side's card and run directory.
    """
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "rdma"))
    import run_rdma_pair as rp  # noqa: E402

    pair_name = {"send_receive": "send", "send_receive_cm": "send", "write": "write", "read": "read",
                 "write_one_host": "write"}[args.scenario]
    pair, text, cm = rp.PAIRS[pair_name], args.text, args.scenario.endswith("_cm")
    env_a, env_b = side_env(work, net, 0), side_env(work, net, 1)
    ns_b = net.ns[1]
    if args.scenario == "write_one_host":
        # both in namespace a on its card, whose address is configured there, over TCP: the
        # pair must reach each other at that address (the listener is bound to it), not on the veth
        env_a["SOFTDOCA_RDMA_TRANSPORT"] = "tcp"
        env_b, ns_b = env_a, net.ns[0]

    def command(side, binary, ns):
        d = os.path.join(work, side)
        os.makedirs(d, exist_ok=True)
        paths = {k: os.path.join(d, k + ".txt") for k in ("ld", "re", "m")}
        cmd = ["ip", "netns", "exec", ns, binary, "-d", DEVICE, "-ld", paths["ld"], "-re", paths["re"],
               "-m", paths["m"]]
        if pair["text_side"] == side:
            cmd += [pair["text_flag"], text]
        return cmd, paths

    # "first" = the side DOCA starts first (receiver / responder): namespace b
    cmd_first, pf = command("first", args.b, ns_b)
    cmd_second, ps = command("second", args.a, net.ns[0])
    first_lines = [line.format(text=text, nc=1) for line in pair["first"]] + rp.STATE_LINES
    second_lines = [line.format(text=text, nc=1) for line in pair["second"]] + rp.STATE_LINES
    problems, procs = [], []
    if cm:
        first = rp.Proc("first (server, %s)" % net.ns[1], cmd_first + ["-cm", "-lp", CM_PORT], env_b)
        procs.append(first)
        if not first.wait_line("[Server] started connection successfully"):
            problems.append("the server never printed '[Server] started connection successfully'")
        else:
            second = rp.Proc("second (client, %s)" % net.ns[0],
                             cmd_second + ["-cm", "-lp", CM_PORT, "-sa", net.ip[1]], env_a)
            procs.append(second)
            second.finish()
            if pair["final_enter"]:
                first.wait_line("Wait till the requester has finished")
                first.enter()
        first.finish()
        first_lines.append("Using RDMA_CM to setup RDMA connection")
        second_lines.append("Using RDMA_CM to setup RDMA connection")
    else:
        first = rp.Proc("first (%s)" % ns_b, cmd_first, env_b)
        second = rp.Proc("second (%s)" % net.ns[0], cmd_second, env_a)
        procs += [first, second]
        if not first.wait_line("Please copy"):
            problems.append("first side never printed 'Please copy'")
        elif not second.wait_line("Please copy"):
            problems.append("second side never printed 'Please copy'")
        else:
            # "copy the files to the other host"
            shutil.copyfile(pf["ld"], ps["re"])
            shutil.copyfile(ps["ld"], pf["re"])
            if pair["resource"]:
                shutil.copyfile(pf["m"], ps["m"])
            first.enter()
            second.enter()
        second.finish()
        if pair["final_enter"]:
            if not first.wait_line("Wait till the requester has finished"):
                problems.append("first side never waited for the requester to finish")
            first.enter()
        first.finish()
    for p in procs:
        if p.proc.returncode is None:
            p.finish()
    if len(procs) == 2 and not problems:
        problems += procs[0].check("success", first_lines) + procs[1].check("success", second_lines)
    if problems:
        for p in procs:
            p.report()
        for problem in problems:
            print("FAIL: " + problem)
        return None
    return len(text), []


ROCE_BIG = 1 << 20  # test_rdma_roce's large write and read


def scenario_roce(net, work, args):
    """test_rdma_roce a (namespace a) and b (namespace b) over RoCEv2 across a lossy veth.

    netem on both veth ends; where the kernel has no sch_netem, main() built a bridged Net whose
    userspace bridge impairs the same way.
    """
    for i in (0, 1):
        if net.bridged:
            break
        r = run("ip", "netns", "exec", net.ns[i], "tc", "qdisc", "add", "dev", net.veth[i], "root", "netem",
                "loss", "5%", "duplicate", "2%", "delay", "1ms", "reorder", "25%", "50%", check=False)
        if r.returncode != 0:
            raise NoNetem(r.stderr.strip())
    envs = [side_env(work, net, i, wire="rocev2") for i in (0, 1)]
    for env in envs:
        env["SOFTDOCA_ROCE_STATS"] = "1"
        env["ROCE_TEST_BIG"] = str(ROCE_BIG)
    envs[0]["ROCE_TEST_PEER_IP"] = net.ip[1]  # a's RDMA-CM request to a port b does not listen on
    a2b, b2a = os.pipe(), os.pipe()  # the descriptors "copied to the other host"
    procs = []
    for i, side, stdin, stdout in ((1, "b", a2b[0], b2a[1]), (0, "a", b2a[0], a2b[1])):
        procs.append(subprocess.Popen(["ip", "netns", "exec", net.ns[i], args.a, side, DEVICE], env=envs[i],
                                      stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, text=True))
    for fd in a2b + b2a:
        os.close(fd)
    outs = []
    for p in procs:
        try:
            outs.append(p.communicate(timeout=150)[1])
        except subprocess.TimeoutExpired:
            p.kill()
            outs.append(p.communicate()[1] + "\n(killed after 150 s)")
    stats = [line for out in outs for line in out.splitlines() if "stats:" in line]
    for line in stats:
        print(line)
    stats = [line for line in stats if "retransmits " in line]  # the RC lines (not the CM's)
    retrans = sum(int(line.split("retransmits ")[1].split()[0]) for line in stats)
    problems = []
    if any(p.returncode != 0 for p in procs):
        problems.append("a side failed (b exit %s, a exit %s)" % (procs[0].returncode, procs[1].returncode))
    if any(m in out for out in outs for m in SANITIZER_MARKS):
        problems.append("a sanitizer reported")
    if len(stats) < 2:
        problems.append("fewer than two RC statistics lines")
    elif retrans == 0:
        problems.append("no retransmits under 5% loss: were the packets on the lossy veth?")
    # a 1500-byte veth: path MTU 1024, as rxe's iboe_get_mtu (4096 would not cross it)
    mtus = sorted({line.split("path_mtu ")[1].split()[0] for line in stats if "path_mtu " in line})
    if mtus != ["1024"]:
        problems.append("the QPs' path MTUs are %s, not 1024 (a 1500-byte veth)" % (mtus or "not reported"))
    if problems:
        for name, out in zip(("b", "a"), outs):
            print("---- side %s ----\n%s" % (name, out))
        for problem in problems:
            print("FAIL: " + problem)
        return None
    if net.bridged:
        print(net.bridge_stop())
    print("retransmitted packets, both sides: %d (impairment: %s)"
          % (retrans, "userspace bridge, no sch_netem in this kernel" if net.bridged else "tc netem"))
    return ROCE_BIG, []


STA_NQN = "nqn.2026-12.io.softdoca:netns"


def scenario_sta(net, work, args):
    """softdoca-sta-target (--b) in namespace b on a BlueField-3 with wire = rocev2, and
    softdoca-nvmf-initiator (--a) in namespace a on a ConnectX-7 with wire = rocev2: NVMe-oF RDMA
    as RoCEv2 across the veth (path MTU 1024, as to a Linux host), 64 KiB random reads and writes
    at queue depth 16, every read of a written chunk verified; the target stops cleanly."""
    env_a = side_env(work, net, 0, wire="rocev2")
    env_b = side_env(work, net, 1, wire="rocev2", profile="bf3")
    for env in (env_a, env_b):
        env["SOFTDOCA_ROCE_STATS"] = "1"
    io_size = 65536
    target = Proc("softdoca-sta-target (%s)" % net.ns[1], net.ns[1],
                  [args.b, "--addr", net.ip[1], "--port", "4420", "--nqn", STA_NQN, "--backing-file",
                   os.path.join(work, "disk.img"), "--size", str(64 << 20), "--block-size", "4096"], env_b, stdin=False)
    procs = [target]
    if not target.wait_line("listening on"):
        return fail("the target never printed 'listening on'", procs)
    ini = Proc("softdoca-nvmf-initiator (%s)" % net.ns[0], net.ns[0],
               [args.a, "--addr", net.ip[1], "--port", "4420", "--nqn", STA_NQN, "--qd", "16", "--io-size",
                str(io_size), "--read-pct", "50", "--time", "3", "--verify"], env_a, stdin=False)
    procs.append(ini)
    rc = ini.finish(timeout=90)
    target.proc.terminate()
    rc_t = target.finish()
    out = ini.output()
    print(out.strip())
    for line in target.output().splitlines():
        if "stats:" in line:  # the target's counters and each RoCEv2 QP's
            print("target: " + line.strip())
    problems = []
    if rc != 0 or " IOPS (" not in out or " 0 mismatches" not in out:
        problems.append("the initiator failed (exit %s) or found a mismatch" % rc)
    if rc_t != 0:
        problems.append("the target did not stop cleanly (exit %s)" % rc_t)
    if any(m in p.output() for p in procs for m in SANITIZER_MARKS):
        problems.append("a sanitizer reported")
    if problems:
        for problem in problems:
            print("FAIL: " + problem)
        return fail("see above", procs)
    writes = int(out.split(" reads, ")[1].split(" writes")[0])
    return writes * io_size, []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", choices=["echo", "send_receive", "send_receive_cm", "write", "read", "roce_lossy",
                                         "sta_roce", "write_one_host"])
    ap.add_argument("--a", help="sender / requester binary (namespace a)")
    ap.add_argument("--b", help="receiver / responder binary (namespace b)")
    ap.add_argument("--text", default="softdoca crossed the veth: " + "x" * 64)
    args = ap.parse_args()
    if args.scenario not in ("echo", "roce_lossy") and not (args.a and args.b):
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
        scenario = {"echo": scenario_echo, "roce_lossy": scenario_roce,
                    "sta_roce": scenario_sta}.get(args.scenario, scenario_pair)
        try:
            result = scenario(net, work, args)
        except NoNetem as e:
            print("tc netem is not available (%s): a userspace bridge impairs the frames instead" % e)
            net.close()
            net = Net(bridged=True)
            net.open()
            before = (net.counters(0), net.counters(1))
            result = scenario(net, work, args)
        if result is None:
            return 1  # the scenario printed what failed
        payload, procs = result
        after = (net.counters(0), net.counters(1))
        a_tx, a_rx = after[0][0] - before[0][0], after[0][1] - before[0][1]
        b_tx, b_rx = after[1][0] - before[1][0], after[1][1] - before[1][1]
        print("veth %s: tx %d rx %d bytes; %s: tx %d rx %d bytes; payload %d bytes"
              % (net.veth[0], a_tx, a_rx, net.veth[1], b_tx, b_rx, payload))
        if args.scenario == "write_one_host":
            if a_tx >= payload:
                print("FAIL: the pair on one host sent the payload out on the veth")
                return 1
            print("PASS: write between two processes of namespace %s over TCP to its own address %s"
                  % (net.ns[0], net.ip[0]))
            return 0
        # a sends the payload to b (send, write, echo) or b sends it to a (read, echo's answer)
        toward_b = args.scenario != "read"
        moved = (a_tx, b_rx) if toward_b else (b_tx, a_rx)
        if min(moved) < payload:
            print("FAIL: fewer bytes crossed the veth than the payload: the soft NIC did not use the veth")
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
