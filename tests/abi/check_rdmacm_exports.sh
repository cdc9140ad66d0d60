#!/usr/bin/env bash
# Checks softdoca's librdmacm.so.1 (or libibverbs.so.1, libmlx5.so.1, libefa.so.1): its soname, and
# that it exports exactly the functions of its map, each under the version node the map puts it in
# (RDMACM_1.0 ... 1.4, IBVERBS_1.0 ... 1.14 and PRIVATE_34, MLX5_1.x, EFA_1.x).
# usage: check_rdmacm_exports.sh LIBRARY.so VERSION.map [SONAME NODE-PREFIX]
set -euo pipefail
lib=$1 map=$2 soname=${3:-librdmacm.so.1} node=${4:-RDMACM}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

objdump -T "$lib" | awk '$4 == ".text" || $3 == "DF" { print $NF "@" $(NF-1) }' | grep "@${node}_" | sort -u >"$tmp/exported" || true
objdump -T "$lib" | awk -v n="$node" '$3 == "DF" && $(NF-1) !~ "^" n "_" && $4 != "*UND*" { print $NF }' >"$tmp/unversioned" || true
awk -v n="$node" '$0 ~ "^" n "_[0-9A-Z_.]+ *[{]" { node = $1 } /^[[:space:]]+[A-Za-z_][A-Za-z0-9_]*;/ { gsub(/[;[:space:]]/, ""); if ($0 != "") print $0 "@" node }' \
	"$map" | sort -u >"$tmp/expected"
status=0
if objdump -p "$lib" | grep -q "SONAME *$soname$"; then :; else
	echo "$(basename "$lib"): soname is not $soname"
	status=1
fi
if ! diff -u "$tmp/expected" "$tmp/exported" >"$tmp/diff"; then
	echo "$(basename "$lib"): exports differ from the map (- expected, + exported):"
	grep '^[-+][a-z]' "$tmp/diff" | sed 's/^/  /'
	status=1
fi
if [ -s "$tmp/unversioned" ]; then
	echo "$(basename "$lib"): functions exported without a version node:"
	sed 's/^/  /' "$tmp/unversioned"
	status=1
fi
[ $status -eq 0 ] && echo "$(basename "$lib"): exports exactly the $(wc -l <"$tmp/expected") functions of its map, each in its $node node"
exit $status
