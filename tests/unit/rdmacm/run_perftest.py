#!/usr/bin/env python3
"""perftest's tools (ib_send_bw, ib_write_bw, ib_send_lat, ...; Debian perftest), unmodified, over
softdoca's librdmacm, libibverbs and provider shims (LD_LIBRARY_PATH): with RDMA-CM (-R), the
server and the client each run the test and print its row; both must exit 0 with a figure above
zero (bandwidth, or typical latency).

  run_perftest.py LIBDIR ADDR PORT TOOL [perftest options...] [--oob]

--oob: without -R, as perftest runs by default: the two sides exchange GID, QPN, PSN and rkey
over their own TCP connection and connect the QPs with ibv_modify_qp (a rocev2 card).

--memory-polled: the tool waits for its peer's WRITE by spinning on its buffer, away from its CQ
(ib_write_lat): the RoCEv2 ports' counters (SOFTDOCA_ROCE_STATS) must show that the soft NIC
noticed, a hand-back of the port that found the WRITE waiting (waited_backs), after which the
service thread reads the port while the owner polls (ROCE_LOUD_MS, lib/softhw/rnic/roce_path.c).

Skipped (77) when the tool is not installed. The client is started again while the server is
not listening yet (it fails at once then, with a REJ); the pair again when perftest's own race
(below) rejects its client; every step is bounded, 60 s in all.
"""
import os
import pty
import re
import shutil
import subprocess
import sys
import threading
import time

from tool_env import tool_env

# a result row: "#bytes #iterations" then figures; _bw: BW peak, BW average[MB/sec], MsgRate;
# _lat: t_min, t_max, t_typical[usec], ...
ROW = re.compile(r"^\s*\d+\s+\d+((?:\s+(?:-?[\d.]+|-?nan|-?inf))+)\s*$", re.M)  # (a deviation may be -nan)
COLUMN = {"bw": 1, "lat": 2}  # BW average, t_typical


def figure(out, tool):
    rows = ROW.findall(out)
    if not rows:
        return 0.0
    cols = rows[-1].split()
    col = COLUMN[tool.rsplit("_", 1)[1]]
    return float(cols[col]) if len(cols) > col else 0.0


def measured(out, tool):
    """A result row with a figure above zero; perftest prints zeros when its own clock calibration
    fails on a loaded machine ("Correlation coefficient r^2: ... < 0.9"), a row that still counts."""
    return figure(out, tool) > 0 or (ROW.search(out) is not None and "Correlation coefficient" in out)


def main():
    libdir, addr, port, tool = sys.argv[1:5]
    opts = sys.argv[5:]
    path = shutil.which(tool)
    if path is None:
        print(tool + " not installed (perftest): skipped")
        return 77
    env = tool_env(libdir)
    cm = ["-R"]
    if "--oob" in opts:
        cm, opts = [], [o for o in opts if o != "--oob"]
    memory_polled = "--memory-polled" in opts
    if memory_polled:
        opts = [o for o in opts if o != "--memory-polled"]
        env["SOFTDOCA_ROCE_STATS"] = "1"
    common = cm + ["-p", port, "-F"] + opts
    for attempt in (1, 2, 3):
        ok, client_out, server_out = run_pair(path, common, addr, env, tool, 20)
        print("--- attempt %d: client ---\n%s--- server ---\n%s" % (attempt, client_out, server_out))
        # perftest's own race: after the two sides' handshake, its client may send the data QP's
        # REQ before the server listens for it (REJ 8; our client-side resolve steps take no
        # time, Linux's take a few wake-ups), and it then retries with ids it already destroyed,
        # which fails or hangs. Each attempt is a new pair: twice more at most.
        if ok or "RDMA_CM_EVENT_REJECTED" not in client_out:
            break
        print("perftest's client was rejected before its server listened (its race): once more")
    if not ok:
        print("FAIL")
        return 1
    if memory_polled:
        backs = sum(int(n) for n in re.findall(r"RoCEv2 port \S+ counters: .* waited_backs (\d+)", client_out + server_out))
        print("waited_backs (both sides): %d" % backs)
        if backs == 0:
            print("FAIL: no hand-back of the port found the peer's WRITE waiting")
            return 1
    unit = "MB/s" if tool.endswith("_bw") else "us typical"
    print("ok: %s %s, client %.2f %s, server %.2f %s" % (tool, " ".join(cm + opts), figure(client_out, tool), unit,
                                                         figure(server_out, tool), unit))
    return 0


def run_pair(path, common, addr, env, tool, secs):
    """The server, then the client once it waits; both bounded by secs. (ok, client, server)."""
    end = time.monotonic() + secs
    # on a terminal, so that its lines come as it prints them (to a pipe it buffers them all)
    master, slave = pty.openpty()
    server = subprocess.Popen([path] + common, env=env, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    os.close(slave)
    # the client starts once the server says it waits, so that a slow start (a sanitized
    # build) does not cost the client's attempts their CM time-outs
    server_lines, waiting = [], threading.Event()

    def read_server():
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the server ended
                break
            if not chunk:
                break
            server_lines.append(chunk.decode(errors="replace"))
            if "Waiting for client" in "".join(server_lines):
                waiting.set()
        waiting.set()

    reader = threading.Thread(target=read_server, daemon=True)
    reader.start()
    waiting.wait(max(1, end - time.monotonic()))
    client_out, ok_client = "", False
    while time.monotonic() < end and not ok_client:
        try:
            r = subprocess.run([path] + common + [addr], env=env, capture_output=True, text=True,
                               timeout=max(1, end - time.monotonic()))
        except subprocess.TimeoutExpired as e:
            client_out += (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            client_out += "client timed out\n"
            break
        client_out += r.stdout + r.stderr
        ok_client = r.returncode == 0 and measured(r.stdout, tool)
        if not ok_client and (server.poll() is not None or "RDMA_CM_EVENT_REJECTED" in client_out):
            break  # the server ended, or the race above: the caller decides
        if not ok_client:
            time.sleep(0.2)  # the server may not listen yet: try again (bounded by `end`)
    try:
        server.wait(timeout=max(1, end - time.monotonic()) if ok_client else 1)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
        server_lines.append("\nserver killed: it did not end\n")
    reader.join(10)
    os.close(master)
    server_out = "".join(server_lines)
    # (the server of a one-sided test prints the client's figures: zeros when the client's clock
    # calibration failed, which measured() already accepted on the client's side)
    server_ok = measured(server_out, tool) or (ROW.search(server_out) is not None and "Correlation coefficient" in client_out)
    return ok_client and server.returncode == 0 and server_ok, client_out, server_out


if __name__ == "__main__":
    sys.exit(main())
