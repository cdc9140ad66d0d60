#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run one pair of DOCA RDMA samples as real processes, the way DOCA documents it, and check both.

  run_rdma_pair.py --pair NAME --first BIN --second BIN [--mode oob|cm] [--transport RC|DC]
                   [--scenario ok|garbage_conn|garbage_mmap] [--text TEXT] [--nc N] [--clients N]
                   [--cm-server first|second] [--port P] [--cm-addr ADDR] [--cm-addr-type TYPE]
                   [--device IBDEV] [--second-device IBDEV]
                   [--second-config CONF --second-fails TEXT]

"first" is the side DOCA starts first (receiver / responder), "second" the other one
(sender / requester). Both use IB device mlx5_0 of the built-in soft card (--device; the second
side may use another one, --second-device) and share SOFTDOCA_RUN_DIR; every descriptor path is
private to this run.

Out of band (--mode oob), for each connection round:
  1. wait until both sides printed their "Please copy" line (in DC the first side only prints
     "You can now copy": it does not read the second side's descriptor);
  2. copy first's -ld file to second's -re path, second's -ld to first's -re (RC), and first's
     -m file to second's -m path (pairs with a remote resource);
  3. press Enter on the first side (RC), then on the second side.
RDMA-CM (--mode cm): start the server, wait for "[Server] started connection successfully",
then start the client(s) with -sa (no files, no Enter for the connection).
Responders that wait for the requester to finish get their last Enter once it exited.

Checks: exit status 0 and "Sample finished successfully" on both sides, each sample's result
lines, every descriptor file deleted at the end, no crash, no hang (deadlines everywhere, no
sleeps), no sanitizer report. Scenarios garbage_conn / garbage_mmap give the second side a
connection / resource descriptor of random bytes: it must fail cleanly (exit 1, "Sample finished
with errors"), and the first side must still end when told to.

--second-config gives the second side its own device configuration (a card with faults.*, the
built-in card's name): its work fails on purpose, and it must fail cleanly, printing TEXT
(--second-fails) and "Sample finished with errors", with a teardown in which nothing failed to
stop or be destroyed (the task's error callback releases what the teardown destroys). The first
side ends as its code says.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from run_sample import SANITIZER_MARKS  # noqa: E402

TIMEOUT_SEC = 50  # for the whole run, below meson's timeout: a hang is reported here with its output
DEADLINE = time.monotonic() + TIMEOUT_SEC


def time_left():
    return max(DEADLINE - time.monotonic(), 1.0)
DEFAULT_TEXT = "Hi DOCA RDMA!"
IMM = 0xABCD

# What each pair is: the flag that carries the text and which side has it, the line after which
# the first side is ready for the second side's Enter, whether the first side exports a resource
# (-m) and waits for a last Enter, and the lines each side must print ({text} = the text).
PAIRS = {
    "send": dict(text_side="second", text_flag="-s", resource=False, final_enter=False,
                 first=['Got from sender: "{text}"', "RDMA receive task was done Successfully",
                        "RDMA receive task successfully submitted"],
                 second=['Submitting RDMA send task that sends "{text}" to receiver',
                         "RDMA send task was done successfully"]),
    "send_immediate": dict(text_side="second", text_flag="-s", resource=False, final_enter=False,
                           first=['Got from sender: "{text}" with immediate: %d' % IMM,
                                  "RDMA receive task was done Successfully"],
                           second=['Submitting RDMA send with immediate task that sends "{text}" with '
                                   'immediate value %d to receiver' % IMM,
                                   "RDMA send with immediate task was done successfully"]),
    "read": dict(text_side="first", text_flag="-r", resource=True, final_enter=True,
                 first=["Wait till the requester has finished reading and press enter"],
                 second=["Submitting RDMA read task", "RDMA read task was done Successfully",
                         'Read from responder: "{text}"']),
    "write": dict(text_side="second", text_flag="-w", resource=True, final_enter=True,
                  first=["Wait till the requester has finished writing and press enter",
                         'Requester has written: "{text}"'],
                  second=['Submitting RDMA write task that writes "{text}" to the responder',
                          "RDMA write task was done Successfully", 'Written to responder "{text}"']),
    "write_immediate": dict(text_side="second", text_flag="-w", resource=True, final_enter=False,
                            first=["Submitting RDMA receive task", "RDMA receive task was done Successfully",
                                   'Requester has written: "{text}" with immediate data: %d' % IMM],
                            second=['Submitting RDMA write with immediate task that writes "{text}" with '
                                    'immediate value %d to responder' % IMM,
                                    "RDMA write task with immediate was done Successfully",
                                    'Written to responder "{text}" with immediate value %d' % IMM]),
    "sync_event": dict(text_side=None, text_flag=None, resource=True, final_enter=False,
                       first=["Waiting for sync event to be signaled from remote", "Signaling sync event",
                              "Waiting for sync event to be notified for completion"],
                       second=["Signaling remote sync event",
                               "RDMA remote net sync event notify set was done successfully",
                               "RDMA remote net sync event get was done successfully",
                               "Received sync event value 0xD0CB", "Notifying remote sync event for completion",
                               "Remote sync event has been notified for completion successfully"]),
    "multi_conn": dict(text_side="second", text_flag="-s", resource=False, final_enter=False,
                       first=["All RDMA receive tasks have been successfully submitted",
                              "RDMA receive task was done successfully",
                              'Got from sender: "{text}", sender\'s rdma_connection address ['],
                       second=["All [{nc}] RDMA connections have been establshed",
                               'Submitting RDMA send task [0] that sends "{text}" to receiver, '
                               "sender's rdma_connection address [",
                               "RDMA send task was done successfully"]),
}
STATE_LINES = ["RDMA context is running", "RDMA context has been stopped"]


class Proc:
    """A sample in the background, stdin a pipe; its output is collected as it comes."""

    def __init__(self, name, command, env):
        print("$ " + " ".join(command), flush=True)
        self.name = name
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env)
        self.out, self.err = [], []
        self.cond = threading.Condition()
        self.eof = False
        self.threads = [threading.Thread(target=self._read, args=(self.proc.stdout, self.out)),
                        threading.Thread(target=self._read, args=(self.proc.stderr, self.err))]
        for t in self.threads:
            t.start()

    def _read(self, stream, lines):
        for raw in stream:
            with self.cond:
                lines.append(raw.decode(errors="replace"))
                self.cond.notify_all()
        with self.cond:
            if stream is self.proc.stdout:
                self.eof = True
            self.cond.notify_all()

    def stdout(self):
        with self.cond:
            return "".join(self.out)

    def wait_line(self, text, count=1):
        """Until stdout holds text count times; False if the sample ended or time ran out first."""
        deadline = DEADLINE
        with self.cond:
            while "".join(self.out).count(text) < count:
                left = deadline - time.monotonic()
                if self.eof or left <= 0:
                    return False
                self.cond.wait(left)
        return True

    def enter(self):
        try:
            self.proc.stdin.write(b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def finish(self):
        try:
            self.proc.stdin.close()
        except (BrokenPipeError, ValueError):
            pass
        try:
            self.proc.wait(timeout=time_left())
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            self.rc = None
        else:
            self.rc = self.proc.returncode
        for t in self.threads:
            t.join()
        return self.rc

    def report(self):
        print("--- %s stdout ---\n%s--- %s stderr ---\n%s--- %s exit %s ---" %
              (self.name, "".join(self.out), self.name, "".join(self.err), self.name, self.rc), flush=True)

    def check(self, expect, lines):
        out, err = "".join(self.out), "".join(self.err)
        problems = []
        if self.rc is None:
            problems.append("%s hung: killed %d s after the run started" % (self.name, TIMEOUT_SEC))
        elif self.rc < 0:
            problems.append("%s crashed with signal %d" % (self.name, -self.rc))
        elif expect == "success" and self.rc != 0:
            problems.append("%s exit status %d, expected 0" % (self.name, self.rc))
        elif expect == "failure" and self.rc != 1:
            problems.append("%s exit status %d, expected 1" % (self.name, self.rc))
        final = {"success": ["Sample finished successfully"], "failure": ["Sample finished with errors"],
                 "any": []}[expect]
        for text in final + lines:
            if text not in out:
                problems.append("%s stdout lacks %r" % (self.name, text))
        for mark in SANITIZER_MARKS:
            if mark in err:
                problems.append("sanitizer report from %s (%r)" % (self.name, mark))
        return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pair", required=True, choices=sorted(PAIRS))
    parser.add_argument("--first", required=True)
    parser.add_argument("--second", required=True)
    parser.add_argument("--mode", choices=("oob", "cm"), default="oob")
    parser.add_argument("--transport", choices=("RC", "DC"), default="RC")
    parser.add_argument("--scenario", choices=("ok", "garbage_conn", "garbage_mmap", "stale_descriptor"), default="ok")
    parser.add_argument("--text", default=None)
    parser.add_argument("--nc", type=int, default=1)
    parser.add_argument("--clients", type=int, default=1)
    parser.add_argument("--cm-server", choices=("first", "second"), default="first")
    parser.add_argument("--cm-addr", default="127.0.0.1")
    parser.add_argument("--cm-addr-type", default=None, help="-sat of the client(s)")
    parser.add_argument("--port", type=int, default=13579)
    parser.add_argument("--device", default="mlx5_0")
    parser.add_argument("--second-device", default=None, help="the second side's device (default: --device)")
    parser.add_argument("--second-config", default=None, help="the second side's SOFTDOCA_CONFIG (faults)")
    parser.add_argument("--second-fails", default=None, help="a line the failing second side prints")
    args = parser.parse_args()
    pair = PAIRS[args.pair]
    text = args.text if args.text is not None else DEFAULT_TEXT

    env = dict(os.environ)
    # meson lists both flavours' library directories here; each sample finds its own flavour
    # through its rpath, which LD_LIBRARY_PATH would override.
    env.pop("LD_LIBRARY_PATH", None)
    run_dir = env.get("SOFTDOCA_RUN_DIR")
    if run_dir:
        os.makedirs(run_dir, mode=0o700, exist_ok=True)
    env_of = {"first": env, "second": dict(env)}
    if args.second_config:
        env_of["second"]["SOFTDOCA_CONFIG"] = args.second_config
    problems = []
    procs = []

    tmp = tempfile.mkdtemp(prefix="softdoca-rdma-%s-" % args.pair)
    try:
        def paths(side):
            return {k: os.path.join(tmp, "%s_%s.txt" % (side, k)) for k in ("ld", "re", "m")}

        def command(side, binary, index=0):
            p = paths(side if index == 0 else "%s%d" % (side, index))
            device = args.second_device if side == "second" and args.second_device else args.device
            cmd = [binary, "-d", device, "-ld", p["ld"], "-re", p["re"], "-m", p["m"]]
            if args.transport != "RC":
                cmd += ["-tt", args.transport]
            if pair["text_side"] == side and args.text is not None:
                cmd += [pair["text_flag"], text]
            if args.pair == "multi_conn" and (args.mode == "oob" or
                                             (side == "first") == (args.cm_server == "first")):
                cmd += ["-nc", str(args.nc)]
            return cmd

        # An RDMA-CM client makes one connection whatever -nc says: more clients make more
        nc = {side: args.nc if args.mode == "oob" or args.cm_server == side else 1
              for side in ("first", "second")}
        first_lines = [line.format(text=text, nc=nc["first"]) for line in pair["first"]] + STATE_LINES
        second_lines = [line.format(text=text, nc=nc["second"]) for line in pair["second"]] + STATE_LINES
        expect_second = "success"
        expect_first = "success"

        if args.scenario == "stale_descriptor":
            # A descriptor left from an earlier run: the sample refuses to overwrite it
            pa = paths("first")
            with open(pa["ld"], "wb") as f:
                f.write(b"stale")
            first = Proc("first", command("first", args.first), env)
            procs = [first]
            first.finish()
            expect_first, first_lines = "failure", []
            if "File %s already exists. Please delete it prior to running the sample" % pa["ld"] not in \
                    "".join(first.err):
                problems.append("first side did not refuse the existing file %s" % pa["ld"])
        elif args.mode == "oob":
            pa, pb = paths("first"), paths("second")
            first = Proc("first", command("first", args.first), env)
            second = Proc("second", command("second", args.second), env)
            procs = [first, second]
            dc = args.transport == "DC"
            for rnd in range(args.nc):
                first_wait = "You can now copy" if dc else "Please copy"
                if not first.wait_line(first_wait, rnd + 1):
                    problems.append("first side never printed %r (round %d)" % (first_wait, rnd))
                    break
                if not second.wait_line("Please copy", rnd + 1):
                    problems.append("second side never printed 'Please copy' (round %d)" % rnd)
                    break
                # "copy the files to the peer"
                shutil.copyfile(pa["ld"], pb["re"])
                if not dc:
                    shutil.copyfile(pb["ld"], pa["re"])
                if pair["resource"] and rnd == 0:
                    shutil.copyfile(pa["m"], pb["m"])
                garbage = {"garbage_conn": pb["re"], "garbage_mmap": pb["m"]}.get(args.scenario)
                if garbage:
                    size = os.path.getsize(garbage)
                    with open(garbage, "wb") as f:
                        f.write(bytes(random.Random(size).getrandbits(8) for _ in range(size)))
                if not dc:
                    first.enter()
                second.enter()
            if args.scenario != "ok":
                expect_second, expect_first = "failure", "any"
                second_lines, first_lines = [], []
            second.finish()
            if pair["final_enter"]:
                if args.scenario == "ok" and not first.wait_line("Wait till the requester has finished"):
                    problems.append("first side never waited for the requester to finish")
                first.enter()
            first.finish()
            leftovers = [p for p in list(pa.values()) + list(pb.values()) if os.path.exists(p)]
            if leftovers:
                problems.append("descriptor files left behind: %s" % ", ".join(leftovers))
        else:
            server_side = args.cm_server
            client_side = "second" if server_side == "first" else "first"
            binaries = {"first": args.first, "second": args.second}
            server_cmd = command(server_side, binaries[server_side]) + ["-cm", "-lp", str(args.port)]
            server = Proc(server_side + " (server)", server_cmd, env_of[server_side])
            procs = [server]
            clients = []
            if not server.wait_line("[Server] started connection successfully"):
                problems.append("the server never printed '[Server] started connection successfully'")
            else:
                for i in range(args.clients):
                    cmd = command(client_side, binaries[client_side], i) + [
                        "-cm", "-lp", str(args.port), "-sa", args.cm_addr]
                    if args.cm_addr_type:
                        cmd += ["-sat", args.cm_addr_type]
                    clients.append(Proc("%s (client %d)" % (client_side, i), cmd, env_of[client_side]))
                procs += clients
            by_side = {server_side: [server], client_side: clients}
            for p in by_side["second"]:
                p.finish()
            if pair["final_enter"]:
                for p in by_side["first"]:
                    p.wait_line("Wait till the requester has finished")
                    p.enter()
            for p in by_side["first"]:
                p.finish()
            if args.pair == "multi_conn":
                # the server side prints one line per client
                many = 'Got from sender: "%s"' % text if server_side == "first" else \
                    "RDMA send task was done successfully"
                if server.stdout().count(many) != args.clients:
                    problems.append("server printed %r %d times, expected %d" %
                                    (many, server.stdout().count(many), args.clients))
            cm_lines = ["Using RDMA_CM to setup RDMA connection"]
            first_lines += cm_lines
            second_lines += cm_lines
            if not clients:
                by_side[client_side] = []
            if args.second_fails:
                expect_second, expect_first = "failure", "any"
                second_lines, first_lines = [], []
                for p in by_side["second"]:
                    both = p.stdout() + "".join(p.err)  # (DOCA's error lines go to stderr)
                    if args.second_fails not in both:
                        problems.append("%s did not print %r" % (p.name, args.second_fails))
                    for bad in ("Failed to destroy", "Failed to stop", "still in use"):
                        if bad in both:
                            problems.append("%s: its teardown failed (%r)" % (p.name, bad))

        for p in procs:
            if p.proc.returncode is None:
                p.finish()
            p.report()
        for p in procs:
            side = "first" if p.name.startswith("first") else "second"
            if side == "first":
                problems += p.check(expect_first, first_lines)
            else:
                problems += p.check(expect_second, second_lines)
    finally:
        for p in procs:
            if p.proc.poll() is None:
                p.proc.kill()
                p.proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)

    for problem in problems:
        print("FAIL: " + problem)
    if not problems:
        print("PASS")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
