#!/usr/bin/env bash
# The whole test suite: unit and integration tests, once in a normal build and once under
# AddressSanitizer + UndefinedBehaviorSanitizer; the RDMA tests again with rdma-core's headers
# (softdoca's librdmacm), normal and sanitized; the kernel interop. The last line is
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

jobs=$(nproc)
stage() { # prints the stage that ends with its time, then the one that begins
	[ -n "${stage_name:-}" ] && echo "=== $stage_name: $((SECONDS - stage_start)) s"
	stage_name=$1
	stage_start=$SECONDS
	echo "=== $1"
}
# name, build dir, test suites ("unit integration", "-name": left out), meson setup options...
# With build_only set (suites), only what those suites' tests need is built (suite-targets.py).
run_suite() {
	local name=$1 dir=$2 suites=() targets=()
	for t in $3; do
		case $t in -*) suites+=(--no-suite "${t#-}") ;; *) suites+=(--suite "$t") ;; esac
	done
	shift 3
	stage "$name: configure and build ($dir)"
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" "$@" >"$dir.setup.log" 2>&1 || { cat "$dir.setup.log"; return 1; }
	fi
	if [ -n "${build_only:-}" ]; then
		mapfile -t targets < <(./scripts/suite-targets.py "$dir" $build_only)
		[ ${#targets[@]} -gt 0 ] || { echo "=== no targets for suites $build_only in $dir"; return 1; }
	fi
	ninja -C "$dir" -j "$jobs" "${targets[@]}" >"$dir.ninja.log" 2>&1 || { tail -50 "$dir.ninja.log"; return 1; }
	stage "$name: tests"
	meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes "$jobs" "${suites[@]}"
}

stage "install dependencies"
./scripts/install-deps.sh || exit 1
status=0
run_suite "normal build" build-test "unit integration" -Dbench=false || status=1
# (the sanitized builds without link-time optimisation, which only lengthens their build)
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:verify_asan_link_order=0 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	run_suite "ASan+UBSan build" build-san "unit integration -install" -Dbench=false -Db_sanitize=address,undefined -Db_lundef=false -Db_lto=false \
	|| status=1

# DOCA's doca_rdma.h includes <rdma/rdma_cma.h> when librdmacm's headers are there, as on every
# RDMA developer's machine: build once more with rdma-core's headers (unpacked from Debian's
# packages into the build tree, so the machine's own /usr/include stays as it is) and run the
# RDMA tests there too, with softdoca's own librdmacm.so.1 (lib/rdmacm), which needs them.
if ./scripts/rdmacm-headers.sh "$root/build-rdmacm.hdr"; then
	run_suite "build with rdma-core's headers" build-rdmacm rdma -Dbench=false -Drdmacm=enabled \
		"-Dc_args=-I$root/build-rdmacm.hdr/usr/include" || status=1
	# ... and those RDMA tests (librdmacm, libibverbs, the STA data path) under the sanitizers too,
	# building only what they run (a third of the tree; the build above compiled all of it with
	# these headers)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:verify_asan_link_order=0 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 build_only=rdma \
		run_suite "ASan+UBSan build with rdma-core's headers" build-rdmacm-san rdma -Dbench=false \
		-Drdmacm=enabled -Db_sanitize=address,undefined -Db_lundef=false -Db_lto=false \
		"-Dc_args=-I$root/build-rdmacm.hdr/usr/include" || status=1
else
	echo "=== rdma-core's headers could not be fetched (apt-get download librdmacm-dev): that build is skipped"
fi

# The Linux kernel as the RoCEv2 peer (tests/interop, docs/interop.md): a QEMU guest booting
# Debian's kernel with rdma_rxe, against softdoca's RoCEv2 packets, ICRC, CM and RC engine. The
# guest is built (packages installed, kernel downloaded) first; if that cannot be done here,
# the stage says so and is skipped.
stage "kernel interop (QEMU guest with rdma_rxe)"
# from the build with librdmacm when there is one: its scenarios run rdma-core's tools on it
idir=build-test; [ -f build-rdmacm/build.ninja ] && idir=build-rdmacm
if [ "$(id -u)" -eq 0 ] && tests/interop/guest/build-initramfs.sh --install >"$root/interop-guest.log" 2>&1; then
	SOFTDOCA_INTEROP=1 meson test -C $idir --no-rebuild --print-errorlogs --suite interop_ci \
		--logbase interoplog || status=1
else
	echo "=== the interop guest could not be built here (not root, or see interop-guest.log): skipped"
fi
# the guest's kernel NVMe-oF initiator against softdoca-sta-target: the build with librdmacm
if [ "$(id -u)" -eq 0 ] && [ -f build-rdmacm/build.ninja ] && tests/interop/guest/build-initramfs.sh >/dev/null 2>&1; then
	SOFTDOCA_INTEROP=1 meson test -C build-rdmacm --no-rebuild --print-errorlogs --suite interop_sta \
		--logbase interopstalog || status=1
fi

stage "count"
# Count results from meson's own logs of every run.
logs=("$root/build-test/meson-logs/testlog.json" "$root/build-san/meson-logs/testlog.json")
[ -f build-rdmacm/build.ninja ] && logs+=("$root/build-rdmacm/meson-logs/testlog.json")
[ -f build-rdmacm-san/build.ninja ] && logs+=("$root/build-rdmacm-san/meson-logs/testlog.json")
[ -f $idir/meson-logs/interoplog.json ] && logs+=("$root/$idir/meson-logs/interoplog.json")
[ -f build-rdmacm/meson-logs/interopstalog.json ] && logs+=("$root/build-rdmacm/meson-logs/interopstalog.json")
python3 - "${logs[@]}" <<'PY'
import json, sys
passed = failed = 0
for path in sys.argv[1:]:
    try:
        lines = open(path).read().splitlines()
    except OSError:
        failed += 1  # a build that never got to run its tests counts as a failure
        continue
    for line in lines:
        if not line.strip():
            continue
        r = json.loads(line).get("result", "")
        if r in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r != "SKIP":
            failed += 1
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
[ $? -eq 0 ] || status=1
exit $status
