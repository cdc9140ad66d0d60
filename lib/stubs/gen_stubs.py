#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes the C source of a stub DOCA library from its public headers.

Every function the headers declare (one DOCA_STABLE/DOCA_EXPERIMENTAL/DOCA_DEPRECATED prototype
per line, as softdoca's headers are written) becomes a real function with that prototype whose
body logs one SDK line naming the library and the function, then returns
DOCA_ERROR_NOT_SUPPORTED (doca_error_t functions), nothing (void) or a zero value (NULL, 0,
false). The committed version map of the library must list exactly these functions: the build
stops when a header and its map disagree, and --write-map rewrites the map.

usage: gen_stubs.py --library doca_compress --source COMPRESS --title 'DOCA Compress'
                    --map libdoca_compress.map (--output stubs.c | --write-map) HEADER...
"""
import argparse
import os
import re
import sys

PROTO = re.compile(r'^DOCA_(?:STABLE|EXPERIMENTAL|DEPRECATED) (?P<ret>.*?[\s*])(?P<name>_*doca_\w+)\((?P<params>.*)\);$')


def split_params(params):
    out, depth, cur = [], 0, ''
    for ch in params:
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
            continue
        depth += ch in '([{'
        depth -= ch in ')]}'
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def param_is_named(param):
    """A definition needs a name for every parameter (C11); catch declarations that omit one."""
    if param in ('void', '...'):
        return True
    m = re.search(r'\(\s*\*\s*(\w+)\s*\)', param)  # function pointer: ret (*name)(args)
    if m:
        return True
    param = re.sub(r'\[[^\]]*\]', '', param)  # arrays: name[N]
    toks = [t for t in re.findall(r'[A-Za-z_]\w*|\*', param) if t not in ('const', 'volatile')]
    if len(toks) < 2 or toks[-1] == '*':
        return False
    return toks[-2] not in ('struct', 'enum', 'union')


def parse(headers):
    funcs = []
    for path in headers:
        with open(path, encoding='utf-8') as f:
            for lineno, line in enumerate(f, 1):
                m = PROTO.match(line.rstrip('\n'))
                if not m:
                    if re.match(r'^DOCA_(STABLE|EXPERIMENTAL|DEPRECATED)\b', line):
                        sys.exit('%s:%d: a prototype must fit one line: %s' % (path, lineno, line.strip()))
                    continue
                params = split_params(m.group('params'))
                for p in params:
                    if not param_is_named(p):
                        sys.exit('%s:%d: parameter "%s" of %s has no name' % (path, lineno, p, m.group('name')))
                funcs.append((m.group('ret').strip(), m.group('name'), m.group('params'), os.path.basename(path)))
    names = [f[1] for f in funcs]
    dups = sorted({n for n in names if names.count(n) > 1})
    if dups:
        sys.exit('declared twice: ' + ', '.join(dups))
    return funcs


def read_map(path):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    body = text.split('global:', 1)[1].split('local:', 1)[0]
    return sorted(re.findall(r'^\s*(\w+);', body, flags=re.M))


def write_map(path, library, names):
    with open(path, 'w', encoding='utf-8') as f:
        f.write('/* Exported ABI of %s: exactly the DOCA functions its headers declare (all stubs).\n'
                ' * Written by lib/stubs/gen_stubs.py --write-map; the build checks it against the headers. */\n'
                '{\n\tglobal:\n' % ('lib' + library))
        for n in names:
            f.write('\t\t%s;\n' % n)
        f.write('\tlocal:\n\t\t*;\n};\n')


# int calls whose 0 means success (errno-style results) or "no completion" (a poll loop would spin):
# they return a failure instead, EOPNOTSUPP as their DOCA documentation has errors come back.
ERRNO_RESULTS = {
    'doca_verbs_bridge_post_send': 'EOPNOTSUPP',
    'doca_verbs_bridge_post_recv': 'EOPNOTSUPP',
    'doca_verbs_bridge_post_srq_recv': 'EOPNOTSUPP',
    'doca_verbs_bridge_set_wait_cq_pi_wr': 'EOPNOTSUPP',
    'doca_verbs_bridge_poll_cq': '-EOPNOTSUPP',
}


def body(ret, name):
    # capability probes and calls that cannot fail (void) warn; everything else is an error
    level = 'WARN' if '_cap_' in name or ret == 'void' else 'ERR'
    if name in ERRNO_RESULTS:
        return 'STUB_RETURN_VALUE(%s, %s)' % (level, ERRNO_RESULTS[name])
    if ret == 'doca_error_t':
        return 'STUB_RETURN_NOT_SUPPORTED(%s)' % level
    if ret == 'void':
        return 'STUB_RETURN_VOID(%s)' % level
    return 'STUB_RETURN_ZERO(%s, %s)' % (level, ret)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--library', required=True)
    ap.add_argument('--source', required=True)
    ap.add_argument('--title', required=True)
    ap.add_argument('--map', required=True)
    ap.add_argument('--output')
    ap.add_argument('--write-map', action='store_true')
    ap.add_argument('headers', nargs='+')
    a = ap.parse_args()

    funcs = parse(a.headers)
    names = sorted(f[1] for f in funcs)
    if a.write_map:
        write_map(a.map, a.library, names)
        return
    listed = read_map(a.map)
    if listed != names:
        missing = sorted(set(names) - set(listed))
        extra = sorted(set(listed) - set(names))
        sys.exit('%s does not match the headers (declared, not in the map: %s; in the map, not declared: %s); '
                 'rerun gen_stubs.py with --write-map' % (a.map, missing or '-', extra or '-'))

    out = ['/* Generated by lib/stubs/gen_stubs.py: lib%s, every function a stub. */' % a.library]
    out += ['#include "%s"' % h for h in dict.fromkeys(f[3] for f in funcs)]
    if any(f[1] in ERRNO_RESULTS for f in funcs):
        out.append('#include <errno.h>')
    out += ['#include "stubs/stub.h"', '',
            'SDK_LOG_REGISTER(%s);' % a.source,
            '#define STUB_LIBRARY "%s (lib%s)"' % (a.title, a.library), '']
    for ret, name, params, _ in funcs:
        sep = '' if ret.endswith('*') else ' '
        out.append('%s%s%s(%s)' % (ret, sep, name, params))
        out.append(body(ret, name))
    with open(a.output, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
