#!/usr/bin/env bash
# 4 KiB random reads and writes at queue depth 1 and 32 through NVMe-oF: softdoca-nvmf-initiator
# (busy-polling its completions, as spdk_nvme_perf does) -> soft NIC -> softdoca-sta-target (DOCA
# STA offload, one IO thread) -> soft NVMe disk -> file,
# each beside fio's io_uring on the same file (direct I/O) in the same run: ours, peer, ratio of
# IOPS, and both latencies' p50 / p99 (docs/sta.md).
# usage: sta_bench.sh BUILD_DIR [seconds] [file]
set -euo pipefail
build=${1:?build directory}
secs=${2:-5}
file=${3:-/var/tmp/softdoca-sta-bench.img}
port=${STA_BENCH_PORT:-14420}
nqn=nqn.2026-12.io.softdoca:bench
if [ ! -s "$file" ] || [ "$(stat -c %s "$file")" -ne 268435456 ]; then
	# filled once: reads of holes would not reach the disk
	dd if=/dev/urandom of="$file" bs=1M count=256 status=none
fi
out=$(mktemp) err=$(mktemp)
trap 'kill "$tpid" 2>/dev/null || true; rm -f "$out" "$err"' EXIT
"$build/tools/sta_target/softdoca-sta-target" --addr 127.0.0.1 --port "$port" --nqn "$nqn" \
	--backing-file "$file" --size 268435456 --block-size 4096 --io-threads 1 >"$out" 2>"$err" & # fio's range
tpid=$!
for _ in $(seq 600); do # up to 60 s for the target to listen
	grep -q listening "$out" && break
	kill -0 "$tpid" 2>/dev/null || { cat "$err" >&2; exit 1; }
	sleep 0.1
done
have_fio=false
command -v fio >/dev/null 2>&1 && have_fio=true
for rw in read write; do
	for qd in 1 32; do
		pct=100
		[ "$rw" = write ] && pct=0
		ours=$("$build/tools/nvmf/softdoca-nvmf-initiator" --addr 127.0.0.1 --port "$port" --nqn "$nqn" \
			--qd "$qd" --io-size 4096 --read-pct "$pct" --time "$secs" --poll)
		iops=$(echo "$ours" | sed -n 's/.*: \([0-9]*\) IOPS.*/\1/p' | head -1)
		p50=$(echo "$ours" | sed -n 's/^latency us: p50 \([0-9.]*\) .*/\1/p')
		p99=$(echo "$ours" | sed -n 's/^latency us: .* p99 \([0-9.]*\) p99.9.*/\1/p')
		printf 'STA NVMe-oF 4 KiB rand%s QD %2s: %6s IOPS, p50 %s us, p99 %s us' "$rw" "$qd" "$iops" "$p50" "$p99"
		if ! $have_fio; then
			echo "; fio not available: no peer figure"
			continue
		fi
		# terse v3: read IOPS is field 8, write IOPS 49; completion latency percentiles (us)
		# p50 / p99 are fields 24 / 30 for reads, 65 / 71 for writes ("50.000000%=123")
		peer=$(fio --name=peer --filename="$file" --rw="rand$rw" --bs=4k --iodepth="$qd" --ioengine=io_uring \
			--direct=1 --time_based --runtime="$secs" --output-format=terse --terse-version=3)
		echo "$peer" | awk -F';' -v a="$iops" -v rw="$rw" '{
			i = rw == "read" ? 8 : 49; m = rw == "read" ? 24 : 65; n = rw == "read" ? 30 : 71
			split($m, x, "="); split($n, y, "=")
			printf("; fio io_uring on the file %.0f IOPS, p50 %s us, p99 %s us; ratio %.2f\n", $i, x[2], y[2], a / $i)
		}'
	done
done
kill "$tpid"
wait "$tpid" || true
