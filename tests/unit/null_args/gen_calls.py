#!/usr/bin/env python3
"""Writes the call table of test_null_args.c: every exported DOCA function of the given version
maps that takes arguments, called with each of them zero (NULL pointers, 0 scalars, zeroed
unions and structs passed by value); and, for those whose first argument is a DOCA object, the
same call with an object the test makes first, once with the rest zero and once with every
number all ones. A variadic call gets its fixed arguments only; a printf-like one (its last
fixed argument is a format) is left out. The prototypes come from softdoca's own headers, and
the counts let the test check that every exported function is accounted for.

    gen_calls.py OUT.h INCLUDE_DIR MAP...
"""
import glob
import os
import re
import sys


def exported(map_path):
    names = []
    for line in open(map_path):
        m = re.match(r"\s*(doca_\w+);", line)
        if m:
            names.append(m.group(1))
    return names


def split_params(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def linux_lines(text):
    """The text a Linux build compiles: Windows-only blocks out, every directive blanked (a
    prototype never spans one)."""
    out, stack = [], []  # stack: per open conditional, whether its current branch is Windows-only
    for line in text.split("\n"):
        d = re.match(r"\s*#\s*(\w+)(.*)", line)
        if d:
            word, rest = d.group(1), d.group(2)
            if word in ("if", "ifdef", "ifndef"):
                stack.append(word != "ifndef" and "_WIN32" in rest and "!" not in rest)
            elif word in ("else", "elif") and stack:
                stack[-1] = False if stack[-1] else word == "elif" and "_WIN32" in rest
            elif word == "endif" and stack:
                stack.pop()
            out.append("")
        else:
            out.append("" if any(stack) else line)
    return "\n".join(out)


def zero_of(param):
    m = re.match(r"^(?:const\s+)?(union|struct)\s+(\w+)\s+\w+$", param)
    if m:  # by value
        return "(%s %s){0}" % (m.group(1), m.group(2))
    return "0"


NUMBER = r"u?int(?:8|16|32|64)_t|size_t|int|unsigned(?: int)?|long|unsigned long|enum\s+\w+|float|double"
scalar_names = []  # typedefs of a number in the headers (doca_be32_t, doca_dpa_dev_uintptr_t, ...)


def max_of(param):
    """All ones for a number or an enum, typedef'd or not; as zero_of for anything else (a
    pointer, whatever its typedef, stays NULL: a garbage pointer is not an input a library can
    check)."""
    m = re.match(r"^(?:const\s+)?(%s)\s+\w+$" % "|".join([NUMBER] + scalar_names), param)
    if m:
        return "(%s)-1" % m.group(1)
    return zero_of(param)


def main():
    out, inc, maps = sys.argv[1], sys.argv[2], sys.argv[3:]
    wanted = []
    for m in maps:
        wanted += exported(m)
    protos = {}  # name -> (header, return type, params)
    for h in sorted(glob.glob(os.path.join(inc, "doca_*.h"))):
        if os.path.basename(h).startswith("doca_dpa_dev"):
            continue  # DPA device code: not callable from a host thread
        text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", open(h).read(), flags=re.S)
        text = linux_lines(text)
        for t in re.finditer(r"\btypedef\s+(?:%s)\s+(\w+)\s*;" % NUMBER, text):
            scalar_names.append(t.group(1))
        for stmt in re.sub(r"\s+", " ", text).split(";"):
            stmt = re.sub(r"\s*__attribute__\s*\(\(.*\)\)\s*$", "", stmt)
            m = re.match(r"^.*?(?:DOCA_STABLE|DOCA_EXPERIMENTAL|DOCA_DEPRECATED|\})?\s*([\w\s\*]+?)\b"
                         r"(doca_\w+)\((.*)\)\s*$", stmt.strip())
            if m and m.group(2) not in protos and "typedef" not in m.group(1):
                protos[m.group(2)] = (os.path.basename(h), m.group(1).strip(), m.group(3).strip())
    headers, rows, missing, no_args, printf_like = set(), [], [], [], []
    for name in sorted(set(wanted)):
        if name not in protos:
            missing.append(name)
            continue
        header, ret, params = protos[name]
        plist = [p for p in split_params(params) if p != "void"]
        if "..." in plist:
            plist.remove("...")
            if plist and re.search(r"\b(format|fmt)$", plist[-1]):
                printf_like.append(name)  # its format is the caller's: NULL is no input to check
                continue
        if not plist:
            no_args.append(name)  # nothing to make bad
            continue
        headers.add(header)
        args = ", ".join(zero_of(p) for p in plist)
        err = ret == "doca_error_t"
        obj = re.match(r"^(?:const\s+)?struct\s+(doca_\w+)\s*\*\s*\w*$", plist[0])
        rows.append((name, err, args, obj.group(1) if obj else None, ", ".join(zero_of(p) for p in plist[1:]),
                     ", ".join(max_of(p) for p in plist[1:])))
    with open(out, "w") as f:
        f.write("/* generated by gen_calls.py from the version maps and include/: do not edit */\n")
        for h in sorted(headers):
            f.write("#include <%s>\n" % h)
        for i, (name, err, args, obj, rest, most) in enumerate(rows):
            if err:
                f.write("static int call_%d(void) { return (int)%s(%s); }\n" % (i, name, args))
            else:
                f.write("static int call_%d(void) { (void)%s(%s); return -1; }\n" % (i, name, args))
            if obj is None:
                continue
            # the same with a live object first (the test makes it), the rest zero
            call = "%s((struct %s *)o%s)" % (name, obj, ", " + rest if rest else "")
            # and with every number after it all ones (pointers still NULL)
            call_max = "%s((struct %s *)o%s)" % (name, obj, ", " + most if most else "")
            for fn, c in (("obj_call", call), ("obj_max_call", call_max)):
                if err:
                    f.write("static int %s_%d(void *o) { return (int)%s; }\n" % (fn, i, c))
                else:
                    f.write("static int %s_%d(void *o) { (void)%s; return -1; }\n" % (fn, i, c))
        f.write("static const struct null_call null_calls[] = {\n")
        for i, (name, err, args, obj, rest, most) in enumerate(rows):
            f.write('\t{"%s", call_%d, %s, %s, %s, %s},\n' % (name, i, "true" if err else "false",
                    '"%s"' % obj if obj else "NULL", "obj_call_%d" % i if obj else "NULL",
                    "obj_max_call_%d" % i if obj else "NULL"))
        f.write("};\n")
        f.write("static const unsigned null_calls_exported = %d, null_calls_no_args = %d, "
                "null_calls_printf_like = %d;\n" % (len(set(wanted)), len(no_args), len(printf_like)))
        f.write("static const char *const null_calls_unprototyped[] = {\n")
        for name in missing:
            f.write('\t"%s",\n' % name)
        f.write("\tNULL,\n};\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
