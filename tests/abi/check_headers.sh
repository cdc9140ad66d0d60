#!/usr/bin/env bash
# Checks the public headers of one DOCA library against the library itself:
#   1. each header compiles on its own as C11 and as C++11, with -Wall -Wextra -Werror, with and
#      without DOCA_ALLOW_EXPERIMENTAL_API (the C++ half is skipped when there is no C++ compiler);
#   2. every function the headers declare (as the C compiler sees them: gcc -aux-info) is exported
#      by the library, and the library exports nothing else.
# usage: check_headers.sh "CC" "CXX|" CONFIG_INCDIR INCDIR LIBRARY.so|- HEADER...   (-: headers only)
set -euo pipefail
read -r -a cc <<<"$1"
read -r -a cxx <<<"$2"
config_inc=$3 lib=$5
inc=$(cd "$4" && pwd)
shift 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

status=0
for h in "$@"; do
	name=$(basename "$h")
	printf '#include "%s"\n' "$name" >"$tmp/one.c"
	for exp in -DDOCA_ALLOW_EXPERIMENTAL_API -UDOCA_ALLOW_EXPERIMENTAL_API; do
		if ! "${cc[@]}" -std=c11 -Wall -Wextra -Werror $exp -I"$config_inc" -I"$inc" -fsyntax-only "$tmp/one.c" \
			>"$tmp/err" 2>&1; then
			echo "$name does not compile as C11 ($exp):"; sed 's/^/  /' "$tmp/err"; status=1
		fi
		if [ ${#cxx[@]} -gt 0 ] && ! "${cxx[@]}" -x c++ -std=c++11 -Wall -Wextra -Werror $exp -I"$config_inc" -I"$inc" \
			-fsyntax-only "$tmp/one.c" >"$tmp/err" 2>&1; then
			echo "$name does not compile as C++11 ($exp):"; sed 's/^/  /' "$tmp/err"; status=1
		fi
	done
	printf '#include "%s"\n' "$name" >>"$tmp/all.c"
done
[ ${#cxx[@]} -gt 0 ] || echo "no C++ compiler: C++ compilation not checked"
if [ "$lib" = - ]; then
	[ $status -eq 0 ] && echo "$# headers compile as C and C++"
	exit $status
fi

# What the compiler sees declared in these headers (extern declarations, not static inline ones)
"${cc[@]}" -std=c11 -DDOCA_ALLOW_EXPERIMENTAL_API -I"$config_inc" -I"$inc" -fsyntax-only -aux-info "$tmp/aux" "$tmp/all.c"
: >"$tmp/declared"
for h in "$@"; do
	grep -F "/* $inc/$(basename "$h"):" "$tmp/aux" | grep -E ':N?C \*/ extern ' |
		sed -E 's/^.*\*\/ extern [^(]*[ *](\w+) \(.*$/\1/' >>"$tmp/declared" || true
done
sort -u -o "$tmp/declared" "$tmp/declared"
nm -D --defined-only "$lib" | awk '$2 == "T" || $2 == "W" { print $3 }' | sed 's/@.*//' | sort -u >"$tmp/exported"

if [ ! -s "$tmp/declared" ]; then
	echo "no function declarations found in $*"; exit 1
fi
if comm -23 "$tmp/declared" "$tmp/exported" | grep . >"$tmp/missing"; then
	echo "$(basename "$lib") does not export $(wc -l <"$tmp/missing") functions its headers declare:"
	sed 's/^/  /' "$tmp/missing"; status=1
fi
if comm -13 "$tmp/declared" "$tmp/exported" | grep . >"$tmp/extra"; then
	echo "$(basename "$lib") exports functions its headers do not declare:"
	sed 's/^/  /' "$tmp/extra"; status=1
fi
[ $status -eq 0 ] && echo "$(basename "$lib"): $# headers compile as C and C++; all $(wc -l <"$tmp/declared") declared functions exported, nothing else"
exit $status
