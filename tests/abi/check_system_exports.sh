#!/usr/bin/env bash
# Checks that softdoca's libibverbs.so.1 (or librdmacm.so.1) exports every function the system's
# rdma-core library of that soname exports, in the same version node, so that a binary linked
# against rdma-core finds each symbol it binds. Not required: rdma-core's private provider
# interface (IBVERBS_PRIVATE_*) and an old version kept beside a current default version of the
# same function (IBVERBS_1.0's legacy aliases); docs/compatibility.md lists both as absent.
# Skipped (exit 77) when the system has no such library (rdma-core is not installed).
# usage: check_system_exports.sh LIBRARY.so SONAME NODE-PREFIX
set -euo pipefail
lib=$1 soname=$2 node=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the system's copy (the dynamic linker's cache) of the same architecture as ours
arch() { objdump -f "$1" | awk '/^architecture:/ { print $2 }'; }
sys=
for cand in $(ldconfig -p 2>/dev/null | awk -v s="$soname" '$1 == s { print $NF }'); do
	if [ "$(arch "$cand")" = "$(arch "$lib")" ]; then sys=$cand; break; fi
done
if [ -z "$sys" ]; then
	echo "no system $soname (rdma-core) to compare $(basename "$lib") with: skipped"
	exit 77
fi

# "name node hidden" of each symbol a library defines in a NODE_ version; a hidden (non-default)
# version is printed in parentheses by objdump; the version definitions themselves are left out
defs() {
	objdump -T "$1" | awk -v n="$node" 'NF < 2 || /\*UND\*/ { next }
		$(NF-1) ~ "^[(]?" n "_" { v = $(NF-1); h = v ~ /^[(]/; gsub(/[()]/, "", v); if (v != $NF) print $NF, v, h }'
}
defs "$sys" >"$tmp/sys"
defs "$lib" | awk '{ print $1 "@" $2 }' | sort -u >"$tmp/ours"
awk -v n="$node" 'NR == FNR { if ($3 == 0) dflt[$1] = 1; next }
	$2 ~ "^" n "_PRIVATE" { next }
	$3 == 1 && ($1 in dflt) { next }
	{ print $1 "@" $2 }' "$tmp/sys" "$tmp/sys" | sort -u >"$tmp/required"

if comm -23 "$tmp/required" "$tmp/ours" | grep . >"$tmp/missing"; then
	echo "$(basename "$lib") lacks $(wc -l <"$tmp/missing") of the symbols $sys exports:"
	sed 's/^/  /' "$tmp/missing"
	exit 1
fi
echo "$(basename "$lib") exports all $(wc -l <"$tmp/required") symbols of $sys (legacy aliases and" \
	"${node}_PRIVATE_* aside), each in its version node"
