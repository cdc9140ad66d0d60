#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""dpacc's command line and its errors, as a DPA developer meets them.

usage: test_dpacc.py <dpacc> <host cc> <device runtime libdir> <dpa-app-attributes2blob>
"""
import os
import subprocess
import sys
import tempfile

failures = 0
checks = 0


def check(cond, what, proc=None):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print('FAIL: ' + what)
        if proc is not None:
            print('--- exit %d\n--- stdout\n%s--- stderr\n%s' % (proc.returncode, proc.stdout, proc.stderr))


def main():
    dpacc, hostcc, libdir, attr2blob = sys.argv[1:5]

    def run(args, cwd):
        return subprocess.run([sys.executable, dpacc] + args, cwd=cwd, capture_output=True, text=True, timeout=60)

    base = ['-mcpu=nv-dpa-bf3', '-hostcc=' + hostcc, '--app-name=test_app',
            '-device-libs=-L%s -ldoca_dpa_dev -ldoca_dpa_dev_comm -ldoca_dpa_dev_verbs' % libdir]
    with tempfile.TemporaryDirectory() as d:
        def write(name, text):
            with open(os.path.join(d, name), 'w') as f:
                f.write(text)

        p = run(['--version'], d)
        check(p.returncode == 0 and 'dpacc' in p.stdout, '--version prints the version', p)
        p = run(['-h'], d)
        check(p.returncode == 0 and '-mcpu' in p.stdout and '--app-name' in p.stdout, '-h prints usage', p)

        write('good.c', '#include <doca_dpa_dev.h>\n__dpa_global__ void k(uint32_t a)\n{\n\t(void)a;\n}\n')
        p = run(['good.c', '-o', 'out/good.a', '--no-such-option'] + base, d)
        check(p.returncode != 0 and "unknown option '--no-such-option'" in p.stderr, 'unknown option refused', p)
        p = run(['good.c', '-o', 'good.a', '-mcpu=nv-dpa-bf9', '-hostcc=' + hostcc], d)
        check(p.returncode != 0 and "unknown -mcpu target 'nv-dpa-bf9'" in p.stderr, 'unknown -mcpu refused', p)
        p = run(['good.c', '-o', 'good.a', '-hostcc=' + hostcc], d)
        check(p.returncode != 0 and '-mcpu' in p.stderr, 'missing -mcpu refused', p)
        p = run(['missing.c', '-o', 'good.a'] + base, d)
        check(p.returncode != 0 and 'missing.c: no such file' in p.stderr, 'missing input named', p)

        # every -mcpu DOCA's scripts pass, -flto, -hostcc-options, --dpa-proc-attr: an archive
        write('attr.blob', '')
        p = run(['good.c', '-o', 'out/good.a', '-flto', '-hostcc-options=-Wall -Werror', '--dpa-proc-attr=attr.blob',
                 '--devicecc-options=-Wall -Wextra -Werror -O2 -Wno-deprecated-declarations', '-DFOO=1', '-I.'] + base +
                ['-mcpu=nv-dpa-bf2,nv-dpa-bf3,nv-dpa-cx7,nv-dpa-cx8,nv-dpa-cx9'], d)
        check(p.returncode == 0 and os.path.exists(os.path.join(d, 'out/good.a')), 'good source builds', p)
        if p.returncode == 0:
            nm = subprocess.run(['nm', os.path.join(d, 'out/good.a')], capture_output=True, text=True)
            check(' D test_app' in nm.stdout and ' T k' in nm.stdout,
                  'archive defines the app symbol and the kernel handle:\n' + nm.stdout)

        # a compile error: the compiler's message with file and line, and a nonzero exit
        write('bad.c', '#include <doca_dpa_dev.h>\n\n__dpa_global__ void k(void)\n{\n\tint x = ;\n}\n')
        p = run(['bad.c', '-o', 'bad.a'] + base, d)
        check(p.returncode != 0 and 'bad.c:5:' in p.stderr and 'dpacc: error: bad.c: compilation failed' in p.stderr,
              'compile error reported with file:line', p)
        check(not os.path.exists(os.path.join(d, 'bad.a')), 'no archive after a compile error')

        # an error in a header the device source includes: that header's file:line
        write('bad.h', 'static inline int f(void) { return undeclared_thing; }\n')
        write('inc.c', '#include <doca_dpa_dev.h>\n#include "bad.h"\n__dpa_global__ void k(void) { f(); }\n')
        p = run(['inc.c', '-o', 'inc.a'] + base, d)
        check(p.returncode != 0 and 'bad.h:1:' in p.stderr, 'header error reported with its file:line', p)

        # device code calling what the DPA lacks: a link error that says so
        write('libc.c', '#include <doca_dpa_dev.h>\nint printf(const char *, ...);\n'
              '__dpa_global__ void k(void) { printf("x"); }\n')
        p = run(['libc.c', '-o', 'libc.a'] + base, d)
        check(p.returncode != 0 and 'printf' in p.stderr and 'device link failed' in p.stderr,
              'undefined device symbol reported', p)

        # an entry point with an unnamed or variadic parameter list
        write('va.c', '#include <doca_dpa_dev.h>\n__dpa_rpc__ uint64_t r(int n, ...)\n{\n\treturn n;\n}\n')
        p = run(['va.c', '-o', 'va.a'] + base, d)
        check(p.returncode != 0 and 'va.c:2:' in p.stderr and 'fixed argument list' in p.stderr,
              'variadic entry refused with file:line', p)

        # two sources defining the same entry
        write('dup.c', '#include <doca_dpa_dev.h>\n__dpa_global__ void k(uint32_t a)\n{\n\t(void)a;\n}\n')
        p = run(['good.c', 'dup.c', '-o', 'dup.a'] + base, d)
        check(p.returncode != 0 and 'defined in two device sources' in p.stderr, 'duplicate entry refused', p)

        # dpa-app-attributes2blob: YAML -> blob -> YAML, and a feature it does not know
        def blob(args):
            return subprocess.run([sys.executable, attr2blob] + args, cwd=d, capture_output=True, text=True,
                                  timeout=60)

        write('attr.yaml', 'Feature_list:\n  Generating_Empty_CQE: true\n  Device_Emulation: false\n')
        p = blob(['attr.yaml', 'attr.bin'])
        check(p.returncode == 0 and os.path.getsize(os.path.join(d, 'attr.bin')) == 8, 'yaml2bin writes 8 bytes', p)
        p = blob(['--bin2yaml', 'attr.bin', 'back.yaml'])
        back = open(os.path.join(d, 'back.yaml')).read() if p.returncode == 0 else ''
        check('Generating_Empty_CQE: true' in back and 'Device_Emulation: false' in back, 'bin2yaml round trip', p)
        write('empty.yaml', '# an indented top level, as in DOCA\'s files\n Feature_list:\n# none\n')
        check(blob(['empty.yaml', 'empty.bin']).returncode == 0, 'an empty Feature_list is fine')
        write('unknown.yaml', 'Feature_list:\n  Teleport: true\n')
        p = blob(['unknown.yaml', 'u.bin'])
        check(p.returncode != 0 and 'unknown.yaml:2: unknown feature Teleport' in p.stderr, 'unknown feature refused', p)
        p = blob(['--notification', 'unknown.yaml', 'u.bin'])
        check(p.returncode == 0 and 'ignored' in p.stderr, '--notification only reports it', p)
        p = blob(['--blob-size', '6', 'attr.yaml', 'x.bin'])
        check(p.returncode != 0 and 'multiple of 4' in p.stderr, 'bad --blob-size refused', p)

    print('%d checks, %d failed' % (checks, failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
