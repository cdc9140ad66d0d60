#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run the dma_copy_host / dma_copy_dpu pair the way DOCA documents it, and check both.

  run_pair.py --host BIN --dpu BIN [--scenario NAME] [--text TEXT] [--dpu-arg ARG]...

1. start doca_dma_copy_host (host flavour) with stdin a pipe, wait for its
   "Wait till the DPU has finished and press enter";
2. "copy the files to the DPU": both samples share a temporary directory here;
3. run doca_dma_copy_dpu (DPU flavour) to its end;
4. press Enter on the host and wait for it to end.

Both share SOFTDOCA_RUN_DIR (the same soft card). Scenarios:
  ok            both succeed; the DPU prints the host's text
  corrupt       a byte of the descriptor file is flipped: the DPU fails cleanly
  foreign       the DPU runs on another soft card instance (its own run directory): fails
  host_killed   the host is killed before the DPU runs: the DPU fails cleanly
  bad_address   the buffer file names memory outside the export: the DPU fails cleanly
Every process must end on its own (timeouts), with no crash and no sanitizer report.
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from run_sample import SANITIZER_MARKS, expand  # noqa: E402

TIMEOUT_SEC = 40
WAIT_LINE = "Wait till the DPU has finished and press enter"


class Host:
    """The host sample in the background; its output is collected as it comes."""

    def __init__(self, command, env):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env)
        self.out, self.err = [], []
        self.waiting = threading.Event()
        self.threads = [threading.Thread(target=self._read, args=(self.proc.stdout, self.out, True)),
                        threading.Thread(target=self._read, args=(self.proc.stderr, self.err, False))]
        for t in self.threads:
            t.start()

    def _read(self, stream, lines, watch):
        for raw in stream:
            line = raw.decode(errors="replace")
            lines.append(line)
            if watch and WAIT_LINE in line:
                self.waiting.set()
        self.waiting.set()  # ended without the line: do not wait forever

    def finish(self, press_enter=True):
        if press_enter:
            try:
                self.proc.stdin.write(b"\n")
                self.proc.stdin.flush()
            except BrokenPipeError:
                pass
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.proc.wait(timeout=TIMEOUT_SEC)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None
        for t in self.threads:
            t.join()
        return self.proc.returncode

    def stdout(self):
        return "".join(self.out)

    def stderr(self):
        return "".join(self.err)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--dpu", required=True)
    parser.add_argument("--scenario", default="ok",
                        choices=("ok", "corrupt", "foreign", "host_killed", "bad_address"))
    parser.add_argument("--text", default=None)
    parser.add_argument("--dpu-arg", action="append", default=[])
    args = parser.parse_args()
    if args.text is not None:
        args.text = expand(args.text)

    env = dict(os.environ)
    # meson puts both flavours' library directories here; each sample finds its own flavour
    # through its rpath, which LD_LIBRARY_PATH would override.
    env.pop("LD_LIBRARY_PATH", None)
    run_dir = env.get("SOFTDOCA_RUN_DIR")
    if run_dir:
        os.makedirs(run_dir, mode=0o700, exist_ok=True)
    problems = []

    with tempfile.TemporaryDirectory(prefix="softdoca-dma-pair-") as tmp:
        desc, buf = os.path.join(tmp, "export_desc.txt"), os.path.join(tmp, "buffer_info.txt")
        host_cmd = [args.host, "-p", "b1:00.0", "-d", desc, "-b", buf]
        if args.text is not None:
            host_cmd += ["-t", args.text]
        print("$ " + " ".join(host_cmd), flush=True)
        host = Host(host_cmd, env)
        if not host.waiting.wait(TIMEOUT_SEC) or WAIT_LINE not in host.stdout():
            problems.append("host never printed %r" % WAIT_LINE)

        host_killed = False
        if not problems:
            if args.scenario == "corrupt":
                with open(desc, "r+b") as f:
                    data = bytearray(f.read())
                    data[len(data) // 2] ^= 0x40
                    f.seek(0)
                    f.write(data)
            elif args.scenario == "host_killed":
                host.proc.send_signal(signal.SIGKILL)
                host.proc.wait(timeout=TIMEOUT_SEC)
                host_killed = True
            elif args.scenario == "bad_address":
                with open(buf) as f:
                    addr, length = (int(v) for v in f.read().split())
                with open(buf, "w") as f:
                    f.write("%d\n%d" % (addr + 4096, length))

            dpu_env = dict(env)
            if args.scenario == "foreign":
                dpu_env["SOFTDOCA_RUN_DIR"] = (run_dir or tmp) + "-other-instance"
                os.makedirs(dpu_env["SOFTDOCA_RUN_DIR"], mode=0o700, exist_ok=True)
            dpu_cmd = [args.dpu, "-p", "03:00.0", "-d", desc, "-b", buf] + args.dpu_arg
            print("$ " + " ".join(dpu_cmd), flush=True)
            try:
                dpu = subprocess.run(dpu_cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                     errors="replace", env=dpu_env, timeout=TIMEOUT_SEC)
                dpu_out, dpu_err, dpu_rc = dpu.stdout, dpu.stderr, dpu.returncode
            except subprocess.TimeoutExpired:
                dpu_out, dpu_err, dpu_rc = "", "", None
                problems.append("DPU sample hung")
            print("--- DPU stdout ---\n" + dpu_out + "--- DPU stderr ---\n" + dpu_err +
                  "--- DPU exit %s ---" % dpu_rc)

            if args.scenario == "ok":
                expect_dpu = ["Remote DMA copy was done Successfully",
                              "Memory content: %s" % (args.text if args.text is not None
                                                      else "This is a sample piece of text"),
                              "Host sample can be closed, DMA copy ended",
                              "Sample finished successfully"]
                if dpu_rc != 0:
                    problems.append("DPU exit status %s, expected 0" % dpu_rc)
            else:
                expect_dpu = ["Sample finished with errors"]
                if dpu_rc != 1:
                    problems.append("DPU exit status %s, expected 1" % dpu_rc)
                if "Remote DMA copy was done Successfully" in dpu_out:
                    problems.append("DPU claims a copy it cannot have made")
                # the DOCA error and the SDK line that says why
                reason = {"corrupt": "checksum mismatch", "foreign": "instance",
                          "host_killed": "not running", "bad_address": "Unable to acquire DOCA buffer"}
                if reason[args.scenario] not in dpu_err:
                    problems.append("DPU stderr lacks %r" % reason[args.scenario])
            for text in expect_dpu:
                if text not in dpu_out:
                    problems.append("DPU stdout lacks %r" % text)
            for mark in SANITIZER_MARKS:
                if mark in dpu_err:
                    problems.append("sanitizer report from the DPU sample (%r)" % mark)
            if dpu_rc is not None and dpu_rc < 0:
                problems.append("DPU sample crashed with signal %d" % -dpu_rc)

        host_rc = host.finish(press_enter=not host_killed)
        print("--- host stdout ---\n" + host.stdout() + "--- host stderr ---\n" + host.stderr() +
              "--- host exit %s ---" % host_rc)
        if host_rc is None:
            problems.append("host sample hung after Enter")
        elif not host_killed:
            if host_rc != 0 or "Sample finished successfully" not in host.stdout():
                problems.append("host sample did not finish successfully (exit %s)" % host_rc)
            for text in ("Please copy %s and %s to the DPU and run DMA Copy DPU sample" % (desc, buf),
                         WAIT_LINE):
                if text not in host.stdout():
                    problems.append("host stdout lacks %r" % text)
            for mark in SANITIZER_MARKS:
                if mark in host.stderr():
                    problems.append("sanitizer report from the host sample (%r)" % mark)

    for problem in problems:
        print("FAIL: " + problem)
    if not problems:
        print("PASS")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
