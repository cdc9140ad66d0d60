#!/usr/bin/env bash
# The main job: build softdoca and run DOCA samples on the built-in soft BlueField-3,
# host side and DPU (Arm) side, with no hardware and no configuration.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
[ -f build-demo/build.ninja ] || meson setup build-demo -Dtests=false -Dbench=false >/dev/null
ninja -C build-demo >/dev/null

# At exit, also a failed one: the samples still running, a pair's files, and the run directory
# if the demo made it (a given one is the caller's).
own_run_dir=
pair_dir=
cleanup() {
	local jobs
	jobs=$(jobs -p)
	[ -z "$jobs" ] || kill $jobs 2>/dev/null || true
	[ -z "$pair_dir" ] || rm -rf "$pair_dir"
	[ -z "$own_run_dir" ] || rm -rf "$own_run_dir"
}
trap cleanup EXIT
if [ -z "${SOFTDOCA_RUN_DIR:-}" ]; then
	own_run_dir=$(mktemp -d /tmp/softdoca-demo.XXXXXX)
	SOFTDOCA_RUN_DIR=$own_run_dir
fi
export SOFTDOCA_RUN_DIR
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "The soft card as the host sees it (doca_caps --list-devs)"
build-demo/tools/doca_caps/doca_caps --list-devs
step "The soft card as the DPU sees it, with the host PF's representor"
SOFTDOCA_ROLE=dpu build-demo/tools/doca_caps/doca_caps --list-devs
SOFTDOCA_ROLE=dpu build-demo/tools/doca_caps/doca_caps --list-rep-devs

step "DMA local copy on the DPU side (doca_dma_local_copy, DPU flavour)"
build-demo/samples/doca_dma/doca_dma_local_copy -p 03:00.0 -t "Hello from the soft BlueField"

step "DMA from host memory to the DPU: doca_dma_copy_host (host flavour), then doca_dma_copy_dpu (DPU flavour)"
# Two processes on one soft card, in DOCA's order: the host exports its buffer and waits for
# Enter; the DPU imports it and copies it over; then Enter ends the host.
pair_dir=$(mktemp -d /tmp/softdoca-demo-dma.XXXXXX)
coproc HOST { build-demo/samples/doca_dma/doca_dma_copy_host -p b1:00.0 -t "Hello from the host's memory" \
	-d "$pair_dir/export_desc.txt" -b "$pair_dir/buffer_info.txt"; }
host_pid=$HOST_PID
# our own copies: bash drops HOST[] as soon as the host exits
exec {host_out}<&"${HOST[0]}" {host_in}>&"${HOST[1]}"
while IFS= read -r line <&"$host_out"; do
	echo "$line"
	[[ $line == *"press enter"* ]] && break
done
build-demo/samples/doca_dma/doca_dma_copy_dpu -p 03:00.0 -d "$pair_dir/export_desc.txt" -b "$pair_dir/buffer_info.txt"
echo >&"$host_in" # the DPU is done: press Enter on the host
cat <&"$host_out"
exec {host_in}>&- {host_out}<&-
wait "$host_pid"
rm -rf "$pair_dir"

step "Comch: doca_comch_ctrl_path_server (DPU flavour), then doca_comch_ctrl_path_client (host flavour)"
# The server serves the host function behind representor b1:00.0; once it waits for clients,
# the client on b1:00.0 connects, sends its text and prints the server's answer.
coproc SERVER { build-demo/samples/doca_comch/doca_comch_ctrl_path_server -p 03:00.0 -r b1:00.0 \
	-t "Hello from the DPU's Arm"; }
server_pid=$SERVER_PID
exec {server_out}<&"${SERVER[0]}"
while IFS= read -r line <&"$server_out"; do
	echo "$line"
	[[ $line == *"Waiting for clients to connect"* ]] && break
done
build-demo/samples/doca_comch/doca_comch_ctrl_path_client -p b1:00.0 -t "Hello from the host"
cat <&"$server_out"
exec {server_out}<&-
wait "$server_pid"

step "Comch fast path: doca_comch_data_path_high_speed_server (DPU), then _client (host)"
# After a control-path handshake each side's producer writes its text into the other side's
# consumer.
coproc SERVER { build-demo/samples/doca_comch/doca_comch_data_path_high_speed_server -p 03:00.0 -r b1:00.0 \
	-t "Fast path from the DPU"; }
server_pid=$SERVER_PID
exec {server_out}<&"${SERVER[0]}"
while IFS= read -r line <&"$server_out"; do
	echo "$line"
	[[ $line == *"Waiting for clients to connect"* ]] && break
done
build-demo/samples/doca_comch/doca_comch_data_path_high_speed_client -p b1:00.0 -t "Fast path from the host"
cat <&"$server_out"
exec {server_out}<&-
wait "$server_pid"

step "Sync event over PCIe: doca_sync_event_remote_pci (DPU flavour), then doca_sync_event_local_pci (host)"
# The DPU listens on Comch; the host exports its event to it, signals it and waits until the
# DPU, woken by the host's update, signals back.
coproc DPU { build-demo/samples/doca_common/doca_sync_event_remote_pci -d 03:00.0 -r b1:00.0; }
dpu_pid=$DPU_PID
exec {dpu_out}<&"${DPU[0]}"
while IFS= read -r line <&"$dpu_out"; do
	echo "$line"
	[[ $line == *"Listening to host"* ]] && break
done
build-demo/samples/doca_common/doca_sync_event_local_pci -d b1:00.0
cat <&"$dpu_out"
exec {dpu_out}<&-
wait "$dpu_pid"

step "RDMA send/receive: doca_rdma_receive and doca_rdma_send (host flavour), out of band, on IB device mlx5_0"
# Two processes, as DOCA documents the pair: each writes its connection descriptor and waits
# for Enter; the descriptors are "copied" to the peer; Enter on the receiver first (its
# receive is posted), then on the sender, which sends its text over the soft RDMA NIC.
pair_dir=$(mktemp -d /tmp/softdoca-demo-rdma.XXXXXX)
mkfifo "$pair_dir/receiver_in" "$pair_dir/sender_in"
exec {recv_in}<>"$pair_dir/receiver_in" {send_in}<>"$pair_dir/sender_in"
exec {recv_out}< <(build-demo/samples/doca_rdma/doca_rdma_receive -d mlx5_0 -ld "$pair_dir/receiver_desc.txt" \
	-re "$pair_dir/from_sender.txt" <"$pair_dir/receiver_in" 2>&1 | sed -u 's/^/[receiver] /')
exec {send_out}< <(build-demo/samples/doca_rdma/doca_rdma_send -d mlx5_0 -ld "$pair_dir/sender_desc.txt" \
	-re "$pair_dir/from_receiver.txt" -s "Hello over the soft RDMA NIC" <"$pair_dir/sender_in" 2>&1 |
	sed -u 's/^/[sender]   /')
show_until() { # fd, text: print the fd's lines up to the first one holding text
	while IFS= read -r line <&"$1"; do
		echo "$line"
		[[ $line == *"$2"* ]] && return 0
	done
	return 1
}
show_until "$recv_out" "Please copy"
show_until "$send_out" "Please copy"
cp "$pair_dir/receiver_desc.txt" "$pair_dir/from_receiver.txt"
cp "$pair_dir/sender_desc.txt" "$pair_dir/from_sender.txt"
echo >&"$recv_in" # Enter on the receiver, then on the sender
echo >&"$send_in"
cat <&"$send_out"
cat <&"$recv_out"
exec {recv_in}>&- {send_in}>&- {recv_out}<&- {send_out}<&-
rm -rf "$pair_dir"

for s in pe_polling pe_event pe_reactive pe_single_task_comp_cb pe_task_error pe_task_resubmit \
	pe_task_try_submit pe_multi_context pe_async_stop; do
	step "Progress engine sample $s (host flavour)"
	"build-demo/samples/doca_common/doca_$s"
done
step "Done: every sample printed its DOCA success line"
