"""The environment in which rdma-core's unmodified tools run on softdoca's libraries (imported by
the run_*.py scripts beside it)."""
import os
import re
import subprocess


def tool_env(libdir):
    """os.environ with LD_LIBRARY_PATH at softdoca's libibverbs / librdmacm (libdir). A sanitized
    build's libraries in a program that is not: the runtimes must load first (LD_PRELOAD), and
    leak checking is off, since the tools never free their device lists, contexts or buffers
    (every leak report would be theirs); addressing and UB checks stay on."""
    env = dict(os.environ, LD_LIBRARY_PATH=libdir)
    ldd = subprocess.run(["ldd", os.path.join(libdir, "libibverbs.so.1")], capture_output=True, text=True).stdout
    runtimes = re.findall(r"(\S*/lib(?:asan|ubsan)\.so\S*)", ldd)
    if runtimes:
        env["LD_PRELOAD"] = " ".join(runtimes)
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    return env
