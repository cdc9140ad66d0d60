#!/usr/bin/env python3
"""rdma-core's ibv_devinfo (Debian ibverbs-utils), unmodified, on softdoca's libibverbs
(LD_LIBRARY_PATH): it binds ibv_query_gid_type in rdma-core's private version node as well.
With -v on a rocev2 card it must exit 0 and show the device, an Ethernet port that is active,
and the card's one GID, its IPv4-mapped address, as RoCE v2.

  run_ibv_devinfo.py LIBDIR DEVICE IPV4

Skipped (77) when ibv_devinfo is not installed.
"""
import os
import re
import shutil
import subprocess
import sys

from tool_env import tool_env


def main():
    libdir, dev, ip = sys.argv[1:4]
    path = shutil.which("ibv_devinfo")
    if path is None:
        print("ibv_devinfo not installed (ibverbs-utils): skipped")
        return 77
    env = tool_env(libdir)
    r = subprocess.run([path, "-v", "-d", dev], env=env, capture_output=True, text=True, timeout=30)
    out = r.stdout + r.stderr
    print(out)
    want = [r"^hca_id:\s+%s$" % re.escape(dev), r"^\s+state:\s+PORT_ACTIVE \(4\)$", r"^\s+link_layer:\s+Ethernet$",
            r"^\s+GID\[\s*0\]:\s+::ffff:%s, RoCE v2$" % re.escape(ip), r"^\s+max_qp_rd_atom:\s+16$"]
    missing = [w for w in want if re.search(w, out, re.M) is None]
    if r.returncode != 0 or missing:
        print("FAIL: exit %d, missing %s" % (r.returncode, missing))
        return 1
    print("ok: ibv_devinfo -v -d %s" % dev)
    return 0


if __name__ == "__main__":
    sys.exit(main())
