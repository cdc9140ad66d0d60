#!/usr/bin/env bash
# Benchmarks: each prints softdoca's figure beside its peer's from the same run, and the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
[ -f build-bench/build.ninja ] || meson setup build-bench --buildtype=release -Dtests=false >/dev/null
ninja -C build-bench >/dev/null
export SOFTDOCA_RUN_DIR=${SOFTDOCA_RUN_DIR:-$(mktemp -d /tmp/softdoca-bench.XXXXXX)}
build-bench/bench/dma/dma_bench "$@"
build-bench/bench/dma_remote/dma_remote_bench "$@"
