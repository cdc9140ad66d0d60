#!/usr/bin/env python3
"""perftest's ib_send_bw / ib_write_bw / ib_read_bw (Debian perftest), unmodified, over softdoca's
librdmacm, libibverbs and provider shims (LD_LIBRARY_PATH): with RDMA-CM (-R), the server and
the client each run the test and print its row; both must exit 0 with a bandwidth above zero.

  run_perftest.py LIBDIR ADDR PORT TOOL [perftest options...]

Skipped (77) when the tool is not installed. The client is started again while the server is
not listening yet (it fails at once then, with a REJ); everything is bounded by 60 s.
"""
import os
import pty
import re
import shutil
import subprocess
import sys
import threading
import time

# "#bytes #iterations BW peak[MB/sec] BW average[MB/sec] MsgRate[Mpps]"
ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$", re.M)


def average(out):
    rows = ROW.findall(out)
    return float(rows[-1][3]) if rows else 0.0


def main():
    libdir, addr, port, tool = sys.argv[1:5]
    opts = sys.argv[5:]
    path = shutil.which(tool)
    if path is None:
        print(tool + " not installed (perftest): skipped")
        return 77
    env = dict(os.environ, LD_LIBRARY_PATH=libdir)
    # a sanitized build's libraries in a program that is not: the runtimes must load first
    ldd = subprocess.run(["ldd", os.path.join(libdir, "libibverbs.so.1")], capture_output=True, text=True).stdout
    runtimes = re.findall(r"(\S*/lib(?:asan|ubsan)\.so\S*)", ldd)
    if runtimes:
        env["LD_PRELOAD"] = " ".join(runtimes)
        # perftest itself never frees its device list, context or buffers: leak checking would
        # report only those (every stack passes through it); addressing and UB checks stay on
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    end = time.monotonic() + 60
    common = ["-R", "-p", port, "-F"] + opts
    # on a terminal, so that its lines come as it prints them (to a pipe it buffers them all)
    master, slave = pty.openpty()
    server = subprocess.Popen([path] + common, env=env, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    os.close(slave)
    # the client starts once the server says it waits (it listens right after), so that a slow
    # start (a sanitized build) does not cost the client's attempts their CM time-outs
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
        except subprocess.TimeoutExpired:
            client_out += "client timed out\n"
            break
        client_out += r.stdout + r.stderr
        ok_client = r.returncode == 0 and average(r.stdout) > 0
        if not ok_client and server.poll() is not None:
            break  # the server ended: no point in trying again
        if not ok_client:
            time.sleep(0.2)  # the server may not listen yet: try again (bounded by `end`)
    try:
        server.wait(timeout=max(1, end - time.monotonic()))
        reader.join(10)
        server_out = "".join(server_lines)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
        reader.join(10)
        server_out = "".join(server_lines) + "\nserver killed: it did not end\n"
    print("--- client ---\n" + client_out + "--- server ---\n" + server_out)
    if not ok_client or server.returncode != 0 or average(server_out) <= 0:
        print("FAIL")
        return 1
    print("ok: %s -R, client %.2f MB/s, server %.2f MB/s" % (tool, average(client_out), average(server_out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
