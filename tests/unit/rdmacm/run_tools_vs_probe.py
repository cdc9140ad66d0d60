#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""rdma-core's own rdma_server / rdma_client / rping (Debian rdmacm-utils), unmodified, on
softdoca's librdmacm and libibverbs (LD_LIBRARY_PATH) on a rocev2 card, against roce_probe
(tests/interop), the Linux-faithful RDMA-CM peer whose REQ, REP, RTU, DREQ and RC packets were
checked against Linux rdma_cm over rdma_rxe (docs/interop.md). So the IB CM messages must carry
the tools' own QPs (QPN, starting PSN), as Linux's do, with no QEMU guest:

  1. our rdma_server <- the probe as its client
  2. the probe --listen <- our rdma_client
  3. our rping -s -V <- the probe as rping's client (it READs and WRITEs our MR by its R_Key)
  4. the probe --listen --rping <- our rping -c -V (we READ and WRITE the probe's memory)

  run_tools_vs_probe.py LIBDIR PROBE ADDR PROBE_ADDR PORT

ADDR is the rocev2 card's address (SOFTDOCA_CONFIG), PROBE_ADDR another loopback address.
Skipped (77) without rdmacm-utils. Every step is bounded (60 s).
"""
import os
import shutil
import subprocess
import sys
import time


def run_pair(name, server_cmd, client_cmd, env_server, env_client, ready_file=None):
    """Starts the server, then runs the client (again while the server does not listen yet)."""
    end = time.monotonic() + 60
    if ready_file and os.path.exists(ready_file):
        os.unlink(ready_file)
    server = subprocess.Popen(server_cmd, env=env_server, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if ready_file:  # the probe creates it once its socket is bound (bounded wait)
        while not os.path.exists(ready_file) and time.monotonic() < end and server.poll() is None:
            time.sleep(0.05)
    out, ok, tries = "", False, 0
    while time.monotonic() < end and not ok:
        tries += 1
        try:
            r = subprocess.run(client_cmd, env=env_client, capture_output=True, text=True,
                               timeout=max(1, end - time.monotonic()))
        except subprocess.TimeoutExpired:
            out += "client timed out\n"
            break
        out += r.stdout[-2000:] + r.stderr[-2000:]
        ok = r.returncode == 0
        if not ok and server.poll() is not None:
            break  # the server is gone (it serves one client): retrying would only time out
        if not ok:
            time.sleep(0.2)  # the server may not listen yet: try again (bounded by `end`)
    try:
        sout, _ = server.communicate(timeout=max(1, end - time.monotonic()))
    except subprocess.TimeoutExpired:
        server.kill()
        sout, _ = server.communicate()
        sout += "\nserver killed: it did not end\n"
    good = ok and server.returncode == 0
    print(f"--- {name}: client tries {tries}, client {'ok' if ok else 'FAILED'}, server rc {server.returncode}")
    if not good:
        print("client:\n" + out[-3000:] + "\nserver:\n" + sout[-3000:])
    return good


def main():
    libdir, probe, addr, paddr, port = sys.argv[1:6]
    tools = {t: shutil.which(t) for t in ("rdma_server", "rdma_client", "rping")}
    if None in tools.values():
        print("rdma_server / rdma_client / rping not installed (rdmacm-utils): skipped")
        return 77
    ours = dict(os.environ, LD_LIBRARY_PATH=libdir)
    # In a sanitizer build the tools load ASan with our libraries, yet their malloc stays glibc's
    # (first in their symbol scope), so LeakSanitizer has nothing to check in them.
    if "ASAN_OPTIONS" in ours:
        ours["ASAN_OPTIONS"] += ":detect_leaks=0"
    plain = dict(os.environ)
    ready = os.path.join(os.environ.get("SOFTDOCA_RUN_DIR", "/tmp"), f"probe-ready.{os.getpid()}")
    pa = ["--server", addr, "--local", paddr, "--port", port, "--timeout", "30"]
    rping = ["-p", port, "-C", "5", "-S", "5000", "-V"]
    results = [
        run_pair("softdoca rdma_server <- probe", [tools["rdma_server"], "-s", addr, "-p", port], [probe] + pa,
                 ours, plain),
        run_pair("probe --listen <- softdoca rdma_client", [probe, "--listen", "--ready-file", ready] + pa,
                 [tools["rdma_client"], "-s", paddr, "-p", port], plain, ours, ready),
        run_pair("softdoca rping -s <- probe --rping", [tools["rping"], "-s", "-a", addr] + rping,
                 [probe, "--rping", "5", "--size", "5000"] + pa, ours, plain),
        run_pair("probe --listen --rping <- softdoca rping -c",
                 [probe, "--listen", "--rping", "5", "--size", "5000", "--ready-file", ready] + pa,
                 [tools["rping"], "-c", "-a", paddr] + rping, plain, ours, ready),
    ]
    if not all(results):
        print("FAIL")
        return 1
    print("ok: rdma-core's tools on softdoca and the probe talked RDMA-CM and RoCEv2 both ways")
    return 0


if __name__ == "__main__":
    sys.exit(main())
