#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The layering of lib/ holds (docs/hacking.md):

 1. lib/softhw includes nothing of the DOCA libraries' internals: its own headers
    ("softhw/..." or a header beside the including file) and the public DOCA headers of
    include/ only, never lib/common, lib/comch, lib/rdma, lib/dma, lib/log, lib/argp, ...
 2. Only lib/softhw opens sockets, waits in epoll, arms timers, maps shared memory, waits on
    futexes or starts threads: the library layer calls softhw for all of that.

usage: check_layering.py <source root>      (exit 1 and one line per violation)
       check_layering.py --self-test         (the checks catch what they must)
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
# Calls only softhw may make; a call through an ops table (ops->listen) is not one of them.
CALLS = re.compile(r'(?<![\w>.])(socket|socketpair|accept4?|bind|listen|connect|epoll_create1?|epoll_ctl|'
                   r'epoll_wait|timerfd_create|timerfd_settime|memfd_create|shm_open|mmap|mremap|'
                   r'pthread_create|process_vm_readv|process_vm_writev)\s*\(|\b(SYS_futex)\b')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def sources(root, sub):
    for d, _, files in os.walk(os.path.join(root, sub)):
        for f in sorted(files):
            if f.endswith(('.c', '.h')):
                yield os.path.join(d, f)


def check(root):
    bad = []
    public = set(os.listdir(os.path.join(root, 'include')))
    scanned = 0
    for path in sources(root, 'lib/softhw'):
        scanned += 1
        text = open(path, encoding='utf-8').read()
        for m in INCLUDE.finditer(text):
            inc = m.group(1)
            ok = (inc.startswith('softhw/') or inc in public or
                  ('/' not in inc and os.path.exists(os.path.join(os.path.dirname(path), inc))))
            if not ok:
                line = text.count('\n', 0, m.start()) + 1
                bad.append(f'{os.path.relpath(path, root)}:{line}: softhw includes "{inc}" (a library\'s internals)')
    for lib in sorted(os.listdir(os.path.join(root, 'lib'))):
        if lib == 'softhw' or not os.path.isdir(os.path.join(root, 'lib', lib)):
            continue
        for path in sources(root, 'lib/' + lib):
            scanned += 1
            raw = open(path, encoding='utf-8').read()
            # Blank out comments and strings, keeping line numbers.
            text = COMMENT.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), raw)
            text = STRING.sub(lambda m: ' ' * len(m.group(0)), text)
            for m in CALLS.finditer(text):
                line = text.count('\n', 0, m.start()) + 1
                bad.append(f'{os.path.relpath(path, root)}:{line}: {m.group(1) or m.group(2)}() outside lib/softhw '
                           '(the library layer calls softhw for sockets, shared memory and threads)')
    return scanned, bad


def self_test():
    """A tree with one violation of each kind, and one without: the checks must tell them apart."""
    files = {
        'include/doca_error.h': '',
        'lib/softhw/fabric/a.c': '#include "softhw/fabric/a.h"\n#include "doca_error.h"\n#include "local.h"\n',
        'lib/softhw/fabric/local.h': '',
        'lib/softhw/rnic/b.c': '/* x */\n#include "common/priv/sdk_log.h"\n',
        'lib/comch/c.c': '/* socket( in a comment */\nstatic int f(void) { return ops->listen(1) + '
                         'printf("connect(") + pthread_create(0, 0, 0, 0); }\n'
                         'static long g(int *w) { return syscall(SYS_futex, w, 0, 0); }\n',
    }
    with tempfile.TemporaryDirectory() as root:
        for name, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
            with open(os.path.join(root, name), 'w', encoding='utf-8') as f:
                f.write(text)
        scanned, bad = check(root)
    want = ['lib/softhw/rnic/b.c:2: softhw includes "common/priv/sdk_log.h"',
            'lib/comch/c.c:2: pthread_create() outside lib/softhw',
            'lib/comch/c.c:3: SYS_futex() outside lib/softhw']
    ok = scanned == 4 and len(bad) == len(want) and all(any(b.startswith(w) for b in bad) for w in want)
    print('\n'.join(bad))
    print('self-test', 'ok' if ok else 'FAILED')
    return 0 if ok else 1


def main():
    if len(sys.argv) == 2 and sys.argv[1] == '--self-test':
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    scanned, bad = check(sys.argv[1])
    for b in bad:
        print(b)
    print(f'{scanned} files checked, {len(bad)} violations')
    return 1 if bad or scanned == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
