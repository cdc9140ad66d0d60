#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""rdma-core's own rdma_server and rdma_client (Debian rdmacm-utils), unmodified, over softdoca's
librdmacm and libibverbs (LD_LIBRARY_PATH): the server listens, the client connects, sends its
message, the server answers it, both disconnect; both must print "end 0".

  run_rdma_server_client.py LIBDIR ADDR PORT

Skipped (77) when rdma_server / rdma_client are not installed. The client is started again
while the server is not listening yet (it fails at once then, with a REJ); all bounded by 60 s.
"""
import os
import shutil
import subprocess
import sys
import time


def main():
    libdir, addr, port = sys.argv[1], sys.argv[2], sys.argv[3]
    server_bin, client_bin = shutil.which("rdma_server"), shutil.which("rdma_client")
    if server_bin is None or client_bin is None:
        print("rdma_server / rdma_client not installed (rdmacm-utils): skipped")
        return 77
    env = dict(os.environ, LD_LIBRARY_PATH=libdir)
    end = time.monotonic() + 60
    server = subprocess.Popen([server_bin, "-s", addr, "-p", port], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    client_out = ""
    ok_client = False
    while time.monotonic() < end and not ok_client:
        try:
            r = subprocess.run([client_bin, "-s", addr, "-p", port], env=env, capture_output=True, text=True,
                               timeout=max(1, end - time.monotonic()))
        except subprocess.TimeoutExpired:
            client_out += "client timed out\n"
            break
        client_out += r.stdout + r.stderr
        ok_client = r.returncode == 0 and "rdma_client: end 0" in r.stdout
        if not ok_client:
            time.sleep(0.2)  # the server may not listen yet: try again (bounded by `end`)
    try:
        server_out, _ = server.communicate(timeout=max(1, end - time.monotonic()))
    except subprocess.TimeoutExpired:
        server.kill()
        server_out, _ = server.communicate()
        server_out += "\nserver killed: it did not end\n"
    print("--- rdma_client ---\n" + client_out + "--- rdma_server ---\n" + server_out)
    if not ok_client or server.returncode != 0 or "rdma_server: end 0" not in server_out:
        print("FAIL")
        return 1
    print("ok: rdma_server and rdma_client ended with 0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
