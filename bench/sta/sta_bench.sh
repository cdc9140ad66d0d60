#!/usr/bin/env bash
# 4 KiB random reads at queue depth 32 through NVMe-oF: softdoca-nvmf-initiator -> soft NIC ->
# softdoca-sta-target (DOCA STA offload) -> soft NVMe disk -> file, beside fio's io_uring on the
# same file (direct I/O) in the same run: ours, peer, ratio (docs/sta.md).
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
	--backing-file "$file" --block-size 4096 --io-threads 1 >"$out" 2>"$err" &
tpid=$!
for _ in $(seq 600); do # up to 60 s for the target to listen
	grep -q listening "$out" && break
	kill -0 "$tpid" 2>/dev/null || { cat "$err" >&2; exit 1; }
	sleep 0.1
done
ours=$("$build/tools/nvmf/softdoca-nvmf-initiator" --addr 127.0.0.1 --port "$port" --nqn "$nqn" --qd 32 \
	--io-size 4096 --read-pct 100 --time "$secs")
kill "$tpid"
wait "$tpid" || true
iops=$(echo "$ours" | sed -n 's/.*: \([0-9]*\) IOPS.*/\1/p' | head -1)
lat=$(echo "$ours" | sed -n 's/^latency us: //p')
printf 'STA NVMe-oF 4 KiB randread QD 32: %s IOPS (latency us: %s)' "$iops" "$lat"
if command -v fio >/dev/null 2>&1; then
	peer=$(fio --name=peer --filename="$file" --rw=randread --bs=4k --iodepth=32 --ioengine=io_uring --direct=1 \
		--time_based --runtime="$secs" --output-format=terse --terse-version=3 | cut -d';' -f8)
	awk -v a="$iops" -v b="$peer" 'BEGIN { printf(", fio io_uring on the file %.0f IOPS, ratio %.2f\n", b, a / b) }'
else
	echo ", fio not available: no peer figure"
fi
