#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# A DOCA program built OUT OF TREE against an installed softdoca, as a DOCA user would:
#   1. configure softdoca with --prefix=<tmp>/prefix, build it, meson install;
#   2. copy our dma_local_copy sample (with its DOCA-style meson.build) out of the tree;
#   3. configure and build it with nothing but PKG_CONFIG_PATH pointing at the DPU flavour;
#   4. run it, and check with ldd that libdoca_dma.so and libdoca_common.so come from that
#      flavour's library directory;
#   5. the same for the rdma_receive / rdma_send pair against the host flavour, run over
#      RDMA-CM (no descriptor files, no Enter key), with libdoca_rdma.so from that flavour;
#   6. a DPA program: device code built by the installed <prefix>/tools/dpacc with DOCA's
#      command line, the host side against the host flavour; its RPC runs;
#   7. a program that asks for every stub module (doca-compress, doca-flow, ...) in its build
#      file configures and builds against the DPU flavour, and every probe and create it makes
#      returns NOT_SUPPORTED with the stub library's SDK line.
#
# usage: out_of_tree_build.sh <softdoca source dir> <work dir>
set -euo pipefail

src=$(cd "$1" && pwd)
work=$2

fail() {
	echo "FAIL: $*"
	exit 1
}

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
# Keep the (large) build only when the test fails, for the post-mortem
trap 'status=$?; if [ $status -eq 0 ]; then rm -rf "$work"; fi' EXIT

# Nothing from the calling environment may help the program find libraries
unset LD_LIBRARY_PATH PKG_CONFIG_PATH PKG_CONFIG_LIBDIR DESTDIR

echo "== install softdoca into $work/prefix"
# The project's default build type, as a user would build it; tests and benchmarks are not installed
meson setup "$work/build" "$src" --prefix="$work/prefix" -Dtests=false -Dbench=false \
	>"$work/setup.log" 2>&1 || { cat "$work/setup.log"; fail "meson setup of softdoca failed"; }
ninja -C "$work/build" >"$work/build.log" 2>&1 || { tail -50 "$work/build.log"; fail "softdoca build failed"; }
meson install -C "$work/build" --no-rebuild >"$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; fail "meson install failed"; }

echo "== installed tools run without LD_LIBRARY_PATH (rpath)"
"$work/prefix/bin/doca_caps" --list-devs >"$work/doca_caps.out" 2>&1 ||
	{ cat "$work/doca_caps.out"; fail "installed doca_caps does not run without LD_LIBRARY_PATH"; }
grep -q 'mlx5_0' "$work/doca_caps.out" || { cat "$work/doca_caps.out"; fail "installed doca_caps lists no device"; }

pcdir=$(find "$work/prefix" -type d -path '*/softdoca/dpu/pkgconfig' | head -1)
[ -n "$pcdir" ] || fail "no softdoca/dpu/pkgconfig directory under $work/prefix"
for pc in doca-common doca-dma doca-argp; do
	[ -f "$pcdir/$pc.pc" ] || fail "$pc.pc missing from $pcdir"
done
export PKG_CONFIG_PATH=$pcdir
libdir=$(pkg-config --variable=libdir doca-dma)
[ -d "$libdir" ] || fail "libdir of doca-dma ($libdir) does not exist"

echo "== copy the sample out of the tree (DOCA's layout: samples/doca_dma/<sample>, VERSION at the root)"
doca="$work/doca"
mkdir -p "$doca/samples/doca_dma/dma_local_copy"
cp "$src/VERSION" "$doca/VERSION"
cp "$src/samples/common.c" "$src/samples/common.h" "$doca/samples/"
cp "$src/samples/doca_dma/dma_common.c" "$src/samples/doca_dma/dma_common.h" "$doca/samples/doca_dma/"
sample_dir="$doca/samples/doca_dma/dma_local_copy"
cp "$src/samples/doca_dma/dma_local_copy/"*.c "$sample_dir/"
cp "$src/samples/doca_dma/dma_local_copy/meson.build.public" "$sample_dir/meson.build"

echo "== build the sample with PKG_CONFIG_PATH=$pcdir"
(cd "$sample_dir" && meson setup "$work/sample-build") >"$work/sample-setup.log" 2>&1 ||
	{ cat "$work/sample-setup.log"; fail "meson setup of the sample failed"; }
ninja -C "$work/sample-build" >"$work/sample-build.log" 2>&1 ||
	{ cat "$work/sample-build.log"; fail "the sample did not build"; }
exe="$work/sample-build/doca_dma_local_copy"
[ -x "$exe" ] || fail "$exe was not built"

echo "== run it"
export SOFTDOCA_RUN_DIR="$work/run"
mkdir -p -m 700 "$SOFTDOCA_RUN_DIR"
status=0
timeout 30 "$exe" -t "built out of tree" </dev/null >"$work/run.out" 2>"$work/run.err" || status=$?
cat "$work/run.out" "$work/run.err"
[ "$status" -eq 0 ] || fail "doca_dma_local_copy exited with status $status"
grep -q "Success, memory copied and verified as correct" "$work/run.out" || fail "no copy verification line"
grep -q "Sample finished successfully" "$work/run.out" || fail "no success line"

echo "== ldd: DOCA libraries must come from $libdir"
ldd "$exe" | tee "$work/ldd.out"
for lib in libdoca_dma.so libdoca_common.so; do
	line=$(grep -F "$lib" "$work/ldd.out" | head -1)
	[ -n "$line" ] || fail "ldd does not list $lib"
	resolved=$(echo "$line" | awk '{print $3}')
	[ -e "$resolved" ] || fail "$lib is not found: $line"
	[ "$(cd "$(dirname "$resolved")" && pwd -P)" = "$(cd "$libdir" && pwd -P)" ] ||
		fail "$lib resolves to $resolved, not into $libdir"
done

echo "== RDMA: rdma_receive and rdma_send out of the tree, host flavour"
hpcdir=$(find "$work/prefix" -type d -path '*/softdoca/host/pkgconfig' | head -1)
[ -n "$hpcdir" ] || fail "no softdoca/host/pkgconfig directory under $work/prefix"
export PKG_CONFIG_PATH=$hpcdir
pkg-config --exists doca-rdma || fail "pkg-config does not find doca-rdma in $hpcdir"
hlibdir=$(pkg-config --variable=libdir doca-rdma)
mkdir -p "$doca/samples/doca_rdma"
cp "$src/samples/doca_rdma/rdma_common.c" "$src/samples/doca_rdma/rdma_common.h" "$doca/samples/doca_rdma/"
for s in rdma_receive rdma_send; do
	mkdir -p "$doca/samples/doca_rdma/$s"
	cp "$src/samples/doca_rdma/$s/"*.c "$doca/samples/doca_rdma/$s/"
	cp "$src/samples/doca_rdma/$s/meson.build.public" "$doca/samples/doca_rdma/$s/meson.build"
	(cd "$doca/samples/doca_rdma/$s" && meson setup "$work/build-$s") >"$work/setup-$s.log" 2>&1 ||
		{ cat "$work/setup-$s.log"; fail "meson setup of $s failed"; }
	ninja -C "$work/build-$s" >"$work/build-$s.log" 2>&1 || { cat "$work/build-$s.log"; fail "$s did not build"; }
	ldd "$work/build-$s/doca_$s" | tee "$work/ldd-$s.out"
	for lib in libdoca_rdma.so libdoca_common.so; do
		line=$(grep -F "$lib" "$work/ldd-$s.out" | head -1)
		[ -n "$line" ] || fail "ldd does not list $lib for doca_$s"
		resolved=$(echo "$line" | awk '{print $3}')
		[ "$(cd "$(dirname "$resolved")" && pwd -P)" = "$(cd "$hlibdir" && pwd -P)" ] ||
			fail "$lib of doca_$s resolves to $resolved, not into $hlibdir"
	done
done
# a port of our own: free now (bound and released), then used by the receiver
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])')
timeout 30 "$work/build-rdma_receive/doca_rdma_receive" -d mlx5_0 -cm -lp "$port" </dev/null \
	>"$work/recv.out" 2>"$work/recv.err" &
recv_pid=$!
# the receiver's own line says it listens; bounded by the deadline, not by a fixed sleep
deadline=$((SECONDS + 20))
until grep -q "started connection successfully" "$work/recv.out" 2>/dev/null; do
	kill -0 $recv_pid 2>/dev/null || { cat "$work/recv.out" "$work/recv.err"; fail "rdma_receive ended early"; }
	[ $SECONDS -lt $deadline ] || { cat "$work/recv.out" "$work/recv.err"; fail "rdma_receive never listened"; }
	sleep 0.05
done
status=0
timeout 30 "$work/build-rdma_send/doca_rdma_send" -d mlx5_0 -cm -sa 127.0.0.1 -lp "$port" \
	-s "sent out of tree" </dev/null >"$work/send.out" 2>"$work/send.err" || status=$?
cat "$work/send.out" "$work/send.err"
[ "$status" -eq 0 ] || fail "doca_rdma_send exited with status $status"
rstatus=0
wait $recv_pid || rstatus=$?
cat "$work/recv.out" "$work/recv.err"
[ "$rstatus" -eq 0 ] || fail "doca_rdma_receive exited with status $rstatus"
grep -q 'Got from sender: "sent out of tree"' "$work/recv.out" || fail "the receiver did not get the text"
grep -q "Sample finished successfully" "$work/send.out" || fail "no success line from the sender"

echo "== DPA: the installed dpacc (<prefix>/tools/dpacc, where DOCA's build_dpacc_samples.sh looks)"
# DOCA's command line, with the install's include dir and the host flavour's libdir (DOCA_LIB_DIR)
for f in tools/dpacc bin/dpacc include/doca_dpa.h include/doca_dpa_dev.h include/dpaintrin.h; do
	[ -e "$work/prefix/$f" ] || fail "$f is not installed under $work/prefix"
done
export PKG_CONFIG_PATH=$hpcdir
for a in doca_dpa_dev doca_dpa_dev_comm doca_dpa_dev_verbs; do
	[ -f "$hlibdir/lib$a.a" ] || fail "lib$a.a is not in $hlibdir"
	# machine code, not one compiler's LTO bytecode (the project builds with -flto): any -hostcc links it
	if readelf -S -W "$hlibdir/lib$a.a" | grep -q '\.gnu\.lto_'; then
		fail "lib$a.a holds LTO bytecode: a device link with another compiler than this GCC would fail"
	fi
done
dpa="$work/dpa"
mkdir -p "$dpa"
"$work/prefix/tools/dpacc" "$src/tests/integration/dpa_installed/dpa_installed_dev.c" -o "$dpa/dpa_installed_program.a" \
	-mcpu=nv-dpa-bf3,nv-dpa-cx7,nv-dpa-cx8,nv-dpa-cx9 -hostcc=gcc \
	-hostcc-options="-Wno-deprecated-declarations -Werror -Wall -Wextra -DFLEXIO_ALLOW_EXPERIMENTAL_API" \
	--devicecc-options="-Wno-deprecated-declarations -Werror -Wall -Wextra -DFLEXIO_DEV_ALLOW_EXPERIMENTAL_API -O2" \
	--app-name=dpa_sample_app \
	-device-libs="-L$hlibdir -ldoca_dpa_dev -ldoca_dpa_dev_comm -ldoca_dpa_dev_verbs" \
	-flto -I"$work/prefix/include" >"$work/dpacc.log" 2>&1 || { cat "$work/dpacc.log"; fail "the installed dpacc failed"; }
# shellcheck disable=SC2046
gcc -DDOCA_ALLOW_EXPERIMENTAL_API "$src/tests/integration/dpa_installed/dpa_installed.c" "$dpa/dpa_installed_program.a" \
	$(pkg-config --cflags --libs doca-dpa doca-common) -o "$dpa/dpa_installed" >"$work/dpa-cc.log" 2>&1 ||
	{ cat "$work/dpa-cc.log"; fail "the DPA host program did not build"; }
status=0
timeout 30 "$dpa/dpa_installed" </dev/null >"$work/dpa.out" 2>"$work/dpa.err" || status=$?
cat "$work/dpa.out" "$work/dpa.err"
[ "$status" -eq 0 ] || fail "dpa_installed exited with status $status"
grep -q "add_rpc on the DPA: 2 + 3" "$work/dpa.out" || fail "no device log line from the RPC"
grep -q "add_rpc returned 5 (DOCA_SUCCESS)" "$work/dpa.out" || fail "the RPC did not return 5"
resolved=$(ldd "$dpa/dpa_installed" | grep -F libdoca_dpa.so | head -1 | awk '{print $3}')
[ -n "$resolved" ] && [ "$(cd "$(dirname "$resolved")" && pwd -P)" = "$(cd "$hlibdir" && pwd -P)" ] ||
	fail "libdoca_dpa.so of dpa_installed resolves to '$resolved', not into $hlibdir"

echo "== stub modules: a program that asks for all of them, DPU flavour"
export PKG_CONFIG_PATH=$pcdir
(cd "$src/tests/integration/stub_modules" && meson setup "$work/build-stubs") >"$work/setup-stubs.log" 2>&1 ||
	{ cat "$work/setup-stubs.log"; fail "meson setup of the stub-modules program failed"; }
ninja -C "$work/build-stubs" >"$work/build-stubs.log" 2>&1 || { cat "$work/build-stubs.log"; fail "the stub-modules program did not build"; }
status=0
timeout 30 "$work/build-stubs/stub_modules" </dev/null >"$work/stubs.out" 2>"$work/stubs.err" || status=$?
cat "$work/stubs.out"
[ "$status" -eq 0 ] || { cat "$work/stubs.err"; fail "stub_modules exited with status $status"; }
grep -q "every probe and create on .* devices returned DOCA_ERROR_NOT_SUPPORTED" "$work/stubs.out" ||
	fail "no result line from stub_modules"
grep -q "doca_compress_create: DOCA Compress (libdoca_compress) is not implemented by softdoca" "$work/stubs.err" ||
	{ cat "$work/stubs.err"; fail "no SDK line from libdoca_compress"; }
ldd "$work/build-stubs/stub_modules" >"$work/ldd-stubs.out"
for lib in libdoca_compress.so libdoca_erasure_coding.so libdoca_flow.so libdoca_devemu.so; do
	resolved=$(grep -F "$lib" "$work/ldd-stubs.out" | head -1 | awk '{print $3}')
	[ -n "$resolved" ] || fail "ldd does not list $lib for stub_modules"
	[ "$(cd "$(dirname "$resolved")" && pwd -P)" = "$(cd "$libdir" && pwd -P)" ] ||
		fail "$lib of stub_modules resolves to $resolved, not into $libdir"
done

echo "PASS"
