#!/usr/bin/env bash
# Checks that a DOCA library exports exactly the functions its version map lists: every DOCA
# function of the library is there, and nothing internal leaks.
# usage: check_exports.sh LIBRARY.so VERSION.map
set -euo pipefail
lib=$1 map=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

nm -D --defined-only "$lib" | awk '$2 != "A" { print $3 }' | sed 's/@.*//' | sort -u >"$tmp/exported"
sed -n '/global:/,/local:/p' "$map" | grep -oE '^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*;' | tr -d ' \t;' |
	sort -u >"$tmp/expected"

status=0
if ! comm -13 "$tmp/expected" "$tmp/exported" | grep . >"$tmp/extra"; then :; fi
if ! comm -23 "$tmp/expected" "$tmp/exported" | grep . >"$tmp/missing"; then :; fi
if [ -s "$tmp/extra" ]; then
	echo "$(basename "$lib") exports symbols that are not DOCA API:"
	sed 's/^/  /' "$tmp/extra"
	status=1
fi
if [ -s "$tmp/missing" ]; then
	echo "$(basename "$lib") does not export $(wc -l <"$tmp/missing") DOCA functions of its map:"
	sed 's/^/  /' "$tmp/missing"
	status=1
fi
[ $status -eq 0 ] && echo "$(basename "$lib"): exports exactly the $(wc -l <"$tmp/expected") DOCA functions of its map"
exit $status
