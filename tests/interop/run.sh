#!/bin/bash
# Interop of softdoca's RoCEv2 building blocks with the real Linux kernel: a QEMU guest running
# a stock Debian 12 kernel with rdma_rxe (guest/build-initramfs.sh), joined over a tap device
# inside a network namespace this script makes (unshare --net): no address is ever set in the
# machine's own namespace.
#
# Usage: tests/interop/run.sh [--probe PATH] [--timeout SECONDS] [SCENARIO...]
#   SCENARIOS: boot loopback probe probe-netem (default: all four)
#   --probe   the roce_probe binary (default: build/tests/interop/roce_probe)
# Exit: 0 all passed, 1 a check failed, 77 skipped (no QEMU, no /dev/net/tun, not root).
# Lines "PASS name ..." / "FAIL name ..." and a closing "N passed, N failed" summarise.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
probe=${SOFTDOCA_ROCE_PROBE:-$top/build/tests/interop/roce_probe}
timeout_s=${SOFTDOCA_INTEROP_TIMEOUT:-240}
scenarios=()
while (($#)); do
	case $1 in
	--probe) probe=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	-h|--help) sed -n '2,12p' "$0"; exit 0 ;;
	*) scenarios+=("$1"); shift ;;
	esac
done
((${#scenarios[@]})) || scenarios=(boot loopback probe probe-netem)

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.2f", b - a}'; }
skip() { echo "SKIP interop: $*"; exit 77; }

HOST_IP=10.77.0.1
GUEST_IP=10.77.0.2

if [[ -z ${SOFTDOCA_INTEROP_INNER:-} ]]; then
	[[ $(id -u) == 0 ]] || skip "needs root (network namespace, tap device)"
	command -v qemu-system-x86_64 >/dev/null ||
		skip "qemu-system-x86_64 missing (apt-get install qemu-system-x86, or run tests/interop/guest/build-initramfs.sh --install)"
	[[ -c /dev/net/tun ]] || skip "/dev/net/tun missing: no tap device possible"
	command -v unshare >/dev/null || skip "unshare missing (util-linux)"
	t0=$(now)
	guest=$("$here/guest/build-initramfs.sh" | tail -1) || skip "guest build failed (see above)"
	echo "interop: guest kernel and initramfs ready in $(since $t0) s ($guest)"
	export SOFTDOCA_INTEROP_INNER=1 SOFTDOCA_INTEROP_GUEST=$guest
	exec unshare --net -- "$0" --probe "$probe" --timeout "$timeout_s" "${scenarios[@]}"
fi

# ---- inside the namespace ----
guest=$SOFTDOCA_INTEROP_GUEST
ip link set lo up
ip tuntap add dev tap0 mode tap || skip "cannot create a tap device in the namespace"
ip addr add $HOST_IP/24 dev tap0
ip link set tap0 up
# SOFTDOCA_INTEROP_PCAP=file.pcapng: everything on the tap, for tshark
if [[ -n ${SOFTDOCA_INTEROP_PCAP:-} ]] && command -v dumpcap >/dev/null; then
	dumpcap -q -i tap0 -w "$SOFTDOCA_INTEROP_PCAP" 2>/dev/null &
	cap_pid=$!
fi

# KVM when it works: /dev/kvm may be present and yet hang (nested virtualisation); boot()
# tries it first and falls back to TCG when the kernel prints nothing within 30 s.
accel=${SOFTDOCA_INTEROP_ACCEL:-}
if [[ -z $accel ]]; then
	accel=tcg
	[[ -r /dev/kvm && -w /dev/kvm ]] && accel=try-kvm
fi

work=$(mktemp -d /tmp/softdoca-interop.XXXXXX)
trap 'kill $qpid ${cap_pid:-} 2>/dev/null; rm -rf "$work"' EXIT
qpid=
passed=0
failed=0
pass() { echo "PASS $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }

# Boots the guest with $work/share/guest.sh as its job; the serial console goes to
# $work/serial.log. Returns at once; wait_mark follows the log.
boot() {
	rm -rf "$work/share"
	mkdir -p "$work/share"
	cp "$1" "$work/share/guest.sh"
	if [[ $accel == try-kvm ]]; then
		start_qemu kvm
		if wait_mark BOOT 30; then
			accel=kvm
		else
			kill $qpid 2>/dev/null; wait $qpid 2>/dev/null
			echo "interop: /dev/kvm present but the guest printed nothing in 30 s under KVM: using TCG"
			accel=tcg
			start_qemu tcg
		fi
		echo "interop: QEMU accelerator: $accel"
	else
		start_qemu $accel
	fi
}

start_qemu() {
	: >"$work/serial.log"
	boot_t0=$(now)
	qemu-system-x86_64 -accel $1 $([[ $1 == kvm ]] && echo -cpu host) -m 1024 -smp 2 \
		-kernel "$guest/vmlinuz" -initrd "$guest/initrd.img" \
		-append "console=ttyS0 quiet loglevel=3 panic=-1 softdoca.ip=$GUEST_IP/24" \
		-netdev tap,id=n0,ifname=tap0,script=no,downscript=no \
		-device virtio-net-pci,netdev=n0,mac=52:54:00:77:00:02 \
		-virtfs local,path="$work/share",mount_tag=interop,security_model=none,id=fs0 \
		-display none -monitor none -serial file:"$work/serial.log" -no-reboot &
	qpid=$!
}

# wait_mark REGEX SECONDS: true once a marker line matching REGEX is on the console.
wait_mark() {
	timeout "$2" grep -m1 -qE "^@@INTEROP $1" <(tail -n +1 -f "$work/serial.log" 2>/dev/null)
}

# Waits for the guest to power off (bounded), then shows its markers.
finish() {
	local n=0
	wait_mark DONE "$1" || echo "interop: guest did not finish within $1 s"
	while kill -0 $qpid 2>/dev/null && ((n < 100)); do
		timeout 0.1 tail -f /dev/null; n=$((n + 1))  # bounded wait for QEMU to exit
	done
	kill $qpid 2>/dev/null
	wait $qpid 2>/dev/null
	qpid=
	grep -a '^@@INTEROP' "$work/serial.log" | sed 's/^@@INTEROP /  guest: /'
}

marker_value() { grep -a "^@@INTEROP $1" "$work/serial.log" | head -1 | grep -oE "$2=[^ ]+" | cut -d= -f2; }

guest_results() {
	local verdict name rest
	grep -a '^@@INTEROP RESULT ' "$work/serial.log" | tr -d '\r' | cut -d' ' -f3- >"$work/results"
	while read -r name verdict rest; do
		if [[ $verdict == pass ]]; then pass "$name $rest"; else fail "$name $verdict $rest"; fi
	done <"$work/results"
}

scenario_boot() {
	cat >"$work/job.sh" <<'G'
mark RESULT guest-rxe $( rdma link show | grep -q "rxe0/1 state ACTIVE" && echo pass || echo fail ) "$(rdma link show | grep rxe0)"
mark RESULT guest-ibv $( ibv_devinfo -d rxe0 2>/dev/null | grep -q PORT_ACTIVE && echo pass || echo fail )
G
	boot "$work/job.sh"
	if ! wait_mark READY 120; then fail boot "no READY marker in 120 s"; finish 5; return; fi
	local t=$(since $boot_t0)
	finish 60
	printf 'interop: boot to READY %s s wall (guest uptime %s s at READY)\n' "$t" "$(marker_value READY t)"
	pass boot "wall=${t}s accel=$accel"
	guest_results
}

scenario_loopback() {
	cat >"$work/job.sh" <<'G'
# rxe talking to itself through the guest's own stack: proves the guest, not softdoca.
ip=${GUEST_IP:-10.77.0.2}
timeout 30 rdma_server >/tmp/srv.log 2>&1 &
sp=$!
for i in $(seq 50); do grep -q 7471 /proc/net/tcp 2>/dev/null; timeout 0.1 cat /dev/zero >/dev/null 2>&1; [ -d /sys/class/infiniband/rxe0 ] && break; done
# rdma_server listens through rdma_cm, not TCP: retry the client until it connects (bounded)
ok=fail
for i in 1 2 3 4 5 6 7 8 9 10; do
	if timeout 20 rdma_client -s 10.77.0.2 >/tmp/cli.log 2>&1; then ok=pass; break; fi
	sleep 0.3
done
wait $sp; src=$?
[ $src = 0 ] || ok=fail
mark RESULT guest-rdma_server-client $ok "client: $(tr '\n' ' ' </tmp/cli.log | head -c 120) server-rc=$src"
timeout 60 ib_send_bw -R -d rxe0 -n 1000 -s 4096 -F >/tmp/bw-s.log 2>&1 &
sp=$!
ok=fail
for i in 1 2 3 4 5 6 7 8 9 10; do
	if timeout 60 ib_send_bw -R -d rxe0 -n 1000 -s 4096 -F 10.77.0.2 >/tmp/bw-c.log 2>&1; then ok=pass; break; fi
	sleep 0.3
done
wait $sp || ok=fail
mark RESULT guest-ib_send_bw-R $ok "$(awk '/^ *4096/{print "MB/s="$4}' /tmp/bw-c.log)"
timeout 30 rping -s -a 10.77.0.2 -C 10 >/tmp/rp-s.log 2>&1 &
sp=$!
ok=fail
for i in 1 2 3 4 5 6 7 8 9 10; do
	if timeout 20 rping -c -a 10.77.0.2 -C 10 -v >/tmp/rp-c.log 2>&1; then ok=pass; break; fi
	sleep 0.3
done
wait $sp || ok=fail
mark RESULT guest-rping $ok "lines=$(wc -l </tmp/rp-c.log)"
G
	boot "$work/job.sh"
	finish "$timeout_s"
	guest_results
}

# The host half: roce_probe (softdoca's packet, ICRC, CM and RC blocks over a UDP socket) as
# the RDMA-CM client of the guest's unmodified rdma_server.
probe_job() {
	cat >"$work/job.sh" <<G
$1
timeout $2 rdma_server >/tmp/srv.log 2>&1 &
sp=\$!
mark SERVER-READY
wait \$sp; rc=\$?
mark RESULT guest-rdma_server-vs-probe \$( [ \$rc = 0 ] && echo pass || echo fail ) "rc=\$rc \$(tr '\n' ' ' </tmp/srv.log | head -c 160)"
$3
G
}

run_probe() {
	local name=$1 args=$2
	boot "$work/job.sh"
	if ! wait_mark SERVER-READY 120; then fail "$name" "guest never started rdma_server"; finish 5; return; fi
	# rdma_server binds right after SERVER-READY: the probe retries its REQ (REJ or no answer)
	local t0=$(now) out rc
	out=$(timeout 120 "$probe" --server $GUEST_IP --local $HOST_IP $args 2>&1); rc=$?
	local t=$(since $t0)
	echo "$out" | sed 's/^/  probe: /'
	if [[ $rc == 0 ]]; then pass "$name" "probe-time=${t}s"; else fail "$name" "probe rc=$rc"; fi
	finish "$timeout_s"
	guest_results
}

scenario_probe() {
	[[ -x $probe ]] || { fail probe "no roce_probe at $probe (build with meson first)"; return; }
	probe_job "" 60 ""
	run_probe probe-rdma_server ""
}

# The same through loss and reordering: netem on the guest's eth0 (its sends to us), and the
# probe drops and reorders its own sends (the host kernel here may lack sch_netem).
scenario_probe-netem() {
	[[ -x $probe ]] || { fail probe-netem "no roce_probe at $probe"; return; }
	probe_job "tc qdisc add dev eth0 root netem delay 2ms 1ms loss 10% reorder 25% 50% && mark NETEM on || mark NETEM unavailable" 120 "tc -s qdisc show dev eth0 | tr '\n' ' ' | sed 's/^/@@INTEROP NETEM-STATS /'; echo"
	run_probe probe-rdma_server-netem "--loss 10 --reorder 25 --count 200"
}

for s in "${scenarios[@]}"; do
	st0=$(now)
	echo "== $s"
	if declare -f "scenario_$s" >/dev/null; then "scenario_$s"; else fail "$s" "no such scenario"; fi
	echo "interop: scenario $s took $(since $st0) s (accelerator $accel)"
done
echo "$passed passed, $failed failed"
((failed == 0))
