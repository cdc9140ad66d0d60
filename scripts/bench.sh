#!/usr/bin/env bash
# Benchmarks: each prints softdoca's figure beside its peer's from the same run, and the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
# The peers the benchmarks run beside softdoca (not needed by the tests): ucx_perftest for the
# Comch and RDMA benchmarks, fio for the STA one
peer() { # command package what
	command -v "$1" >/dev/null 2>&1 && return 0
	if [ "$(id -u)" -eq 0 ]; then apt-get install -y "$2" >/dev/null; else sudo apt-get install -y "$2" >/dev/null; fi ||
		echo "$2 could not be installed: $3 run without their peer" >&2
}
peer ucx_perftest ucx-utils "the Comch and RDMA benchmarks"
peer fio fio "the STA benchmark's rows"
# with rdma-core's headers when they can be fetched: the STA bench's target and initiator need them
hdr=()
./scripts/rdmacm-headers.sh "$PWD/build-bench.hdr" && hdr=(-Drdmacm=enabled "-Dc_args=-I$PWD/build-bench.hdr/usr/include")
[ -f build-bench/build.ninja ] || meson setup build-bench --buildtype=release -Dtests=false "${hdr[@]}" >/dev/null
ninja -C build-bench >/dev/null
export SOFTDOCA_RUN_DIR=${SOFTDOCA_RUN_DIR:-$(mktemp -d /tmp/softdoca-bench.XXXXXX)}
build-bench/bench/dma/dma_bench "$@"
build-bench/bench/dma_remote/dma_remote_bench "$@"
build-bench/bench/comch/comch_bench
build-bench/bench/rdma/rdma_bench
build-bench/bench/dpa/dpa_bench
build-bench/bench/nvme/nvme_bench
if [ -x build-bench/tools/sta_target/softdoca-sta-target ]; then
	bench/sta/sta_bench.sh build-bench
else
	echo "STA bench skipped: rdma-core's headers could not be fetched (apt-get download librdmacm-dev)"
fi
