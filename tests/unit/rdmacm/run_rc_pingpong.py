#!/usr/bin/env python3
"""rdma-core's ibv_rc_pingpong (Debian ibverbs-utils), unmodified, over softdoca's libibverbs
(LD_LIBRARY_PATH) on two cards with `wire = rocev2`: the two sides exchange LID, QPN, PSN and GID
over their own TCP connection, connect their QPs with ibv_modify_qp alone (RTR, RTS) and
ping-pong over RoCEv2. Both must exit 0 and print their "N iters in ... usec/iter" line.

  run_rc_pingpong.py LIBDIR ADDR PORT SERVER_DEV CLIENT_DEV [ibv_rc_pingpong options...]

Skipped (77) when ibv_rc_pingpong is not installed. The client is started again while the
server does not listen yet (it fails at once then); everything is bounded, 40 s in all.
"""
import os
import re
import shutil
import subprocess
import sys
import time

from tool_env import tool_env

DONE = re.compile(r"^\d+ iters in [\d.]+ seconds = [\d.]+ usec/iter$", re.M)


def main():
    libdir, addr, port, sdev, cdev = sys.argv[1:6]
    opts = sys.argv[6:]
    path = shutil.which("ibv_rc_pingpong")
    if path is None:
        print("ibv_rc_pingpong not installed (ibverbs-utils): skipped")
        return 77
    env = tool_env(libdir)
    end = time.monotonic() + 40
    common = ["-g", "0", "-p", port] + opts
    server = subprocess.Popen([path, "-d", sdev] + common, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    client_out, ok = "", False
    while time.monotonic() < end and server.poll() is None:
        try:
            r = subprocess.run([path, "-d", cdev] + common + [addr], env=env, capture_output=True, text=True,
                               timeout=max(1, end - time.monotonic()))
        except subprocess.TimeoutExpired:
            client_out += "client timed out\n"
            break
        client_out += r.stdout + r.stderr
        if r.returncode == 0:
            ok = DONE.search(r.stdout) is not None
            break
        if "Couldn't connect" not in r.stdout + r.stderr:
            break  # it connected and failed
        time.sleep(0.1)  # the server does not listen yet: again (bounded by `end`)
    try:
        server_out, _ = server.communicate(timeout=max(1, end - time.monotonic()))
    except subprocess.TimeoutExpired:
        server.kill()
        server_out = server.communicate()[0] + "\nserver killed: it did not end\n"
    print("--- client ---\n%s--- server ---\n%s" % (client_out, server_out))
    if not ok or server.returncode != 0 or DONE.search(server_out) is None:
        print("FAIL")
        return 1
    print("ok: ibv_rc_pingpong %s: %s / %s" % (" ".join(common), DONE.search(client_out).group(0),
                                              DONE.search(server_out).group(0)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
