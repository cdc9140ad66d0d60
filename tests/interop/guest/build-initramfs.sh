#!/bin/bash
# Builds the interop guest: a stock Debian 12 kernel (apt-get download, never installed on the
# host) and an initramfs of busybox-static, the rdma-core tools with the rxe provider, perftest,
# nvme-cli, fio and the kernel modules soft-RoCE and NVMe over RDMA need, loaded in dependency
# order by /init. Userspace comes from the host's own Debian 12 packages (installed here when
# missing) with the shared libraries ldd names, so guest and host run the same rdma-core.
#
# Usage: build-initramfs.sh [--install]   prints the cache directory on its last line.
# Cache: ${SOFTDOCA_INTEROP_CACHE:-~/.cache/softdoca-interop}/<kernel version>/{vmlinuz,initrd.img}
# rebuilt when this script or guest/init changes (a stamp holds their checksum).
# SOFTDOCA_INTEROP_RXE_KO=/path/rdma_rxe.ko: that module instead of the package's rdma_rxe.ko
# (e.g. rxe built by hand with a fix, docs/interop.md); its vermagic must name the kernel. That
# guest goes to <kernel version>/rxe-<module's sha256, 16 digits>/, so the stock one is kept.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache_root=${SOFTDOCA_INTEROP_CACHE:-$HOME/.cache/softdoca-interop}
kpkg_meta=${SOFTDOCA_INTEROP_KERNEL:-linux-image-amd64}

# Host packages: the guest's userspace is copied from them, QEMU boots it.
host_pkgs=(qemu-system-x86 busybox-static kmod cpio xz-utils zstd iproute2
	rdma-core ibverbs-providers ibverbs-utils rdmacm-utils perftest nvme-cli fio)
bins=(/usr/bin/rdma_server /usr/bin/rdma_client /usr/bin/rping /usr/bin/ucmatose
	/usr/bin/ib_send_bw /usr/bin/ib_write_bw /usr/bin/ib_read_bw /usr/bin/ib_atomic_bw /usr/bin/ibv_devinfo
	/usr/bin/ibv_devices /usr/bin/ibv_rc_pingpong /usr/bin/rdma /usr/sbin/ip /usr/sbin/tc
	/usr/sbin/nvme /usr/bin/fio)
# Wanted modules; /init loads each after its dependencies (modules.dep). crc32_generic
# gives rxe the "crc32" shash its ICRC needs (rxe does not depend on it by symbol); newer
# kernels have no such module (rxe calls the crc32 library), so it may be missing.
mods=(virtio_pci virtio_net 9pnet_virtio 9p crc32_generic rdma_rxe ib_uverbs
	rdma_ucm rdma_cm ib_cm iw_cm ib_umad nvme_core nvme_fabrics nvme_rdma sch_netem)
optional_mods=" crc32_generic "

missing=()
for p in "${host_pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
	if [[ ${1:-} != --install && $(id -u) != 0 ]]; then
		echo "interop: missing packages: ${missing[*]} (run as root or with --install)" >&2
		exit 2
	fi
	echo "interop: apt-get install ${missing[*]}" >&2
	[[ -n $(find /var/lib/apt/lists -name '*Packages*' -newermt '-7 days' 2>/dev/null | head -1) ]] ||
		apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >&2
fi

# The kernel package the meta package points at today (linux-image-6.1.0-NN-amd64), or the
# one SOFTDOCA_INTEROP_KERNEL names: a meta package with a release
# (linux-image-amd64/bookworm-backports, linux-image-amd64/trixie-backports) or an exact one
# (linux-image-6.12.95+deb12-amd64).
kernel_pkg() {
	case $kpkg_meta in
	linux-image-[0-9]*) apt-cache show "$kpkg_meta" >/dev/null 2>&1 && echo "$kpkg_meta" ;;
	*) apt-cache depends "$kpkg_meta" 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}' ;;
	esac
}
kpkg=$(kernel_pkg) || true
if [[ -z $kpkg ]]; then
	apt-get update -qq >&2
	kpkg=$(kernel_pkg) || true
fi
if [[ -z $kpkg ]]; then
	echo "interop: no kernel package for '$kpkg_meta' in apt's sources" >&2
	[[ $kpkg_meta == linux-image-amd64 ]] ||
		echo "interop: a kernel from another release needs that release in /etc/apt/sources.list.d/" \
			"(e.g. Suites: bookworm-backports, Components: main), then apt-get update" >&2
	exit 2
fi
kver=${kpkg#linux-image-}
out=$cache_root/$kver
# where vmlinuz, initrd.img and the stamp go: the kernel's folder, or with a module of one's
# own a folder named after its checksum
dest=$out
rxe_ko=${SOFTDOCA_INTEROP_RXE_KO:-}
rxe_sum=
if [[ -n $rxe_ko ]]; then
	[[ -f $rxe_ko ]] || { echo "interop: SOFTDOCA_INTEROP_RXE_KO: no file $rxe_ko" >&2; exit 2; }
	vm=$(modinfo -F vermagic "$rxe_ko" 2>/dev/null | awk '{print $1}')
	if [[ $vm != "$kver" ]]; then
		echo "interop: SOFTDOCA_INTEROP_RXE_KO: $rxe_ko is for kernel '${vm:-?}', the guest runs $kver" >&2
		exit 2
	fi
	rxe_sum=$(sha256sum "$rxe_ko" | cut -d' ' -f1)
	dest=$out/rxe-${rxe_sum:0:16}
	echo "interop: rdma_rxe.ko from $rxe_ko (sha256 $rxe_sum), guest in $dest" >&2
fi
stamp=$( (cat "$0" "$here/init"; echo "$rxe_sum") | sha256sum | cut -c1-16)
if [[ -f $dest/initrd.img && -f $dest/vmlinuz && $(cat "$dest/stamp" 2>/dev/null) == "$stamp" ]]; then
	echo "$dest"
	exit 0
fi
# Newer Debian kernels (7.x in trixie-backports and unstable) split linux-image-<version>
# into an empty package depending on linux-binary-<version> (vmlinuz), linux-modules-<version>
# and linux-base-<version> (modules.builtin, modules.order), all under /usr/lib/modules.
kdebs=("$kpkg")
for p in $(apt-cache depends "$kpkg" 2>/dev/null | awk '/Depends: linux-(binary|modules|base)-/{print $2}'); do
	if [[ $p == linux-*-"$kver" ]]; then kdebs+=("$p"); fi
done
mkdir -p "$out/debs"
for p in "${kdebs[@]}"; do
	ls "$out"/debs/"$p"_*.deb >/dev/null 2>&1 ||
		(cd "$out/debs" && apt-get download "$p" 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2)
done
rm -rf "$out/kernel" "$dest/root"
mkdir -p "$out/kernel" "$dest/root"
for p in "${kdebs[@]}"; do dpkg-deb -x "$out"/debs/"$p"_*.deb "$out/kernel"; done
# depmod -b looks in <base>/lib/modules
[[ -e $out/kernel/lib || ! -d $out/kernel/usr/lib/modules ]] || ln -s usr/lib "$out/kernel/lib"
kmods=$out/kernel/lib/modules/$kver
if [[ -f $out/kernel/boot/vmlinuz-$kver ]]; then
	cp "$out/kernel/boot/vmlinuz-$kver" "$dest/vmlinuz"
else
	cp "$kmods/vmlinuz" "$dest/vmlinuz"
fi
depmod -b "$out/kernel" "$kver"

root=$dest/root
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,mnt,run,lib/modules,usr/lib/x86_64-linux-gnu/libibverbs,etc/libibverbs.d}
cp /bin/busybox "$root/bin/busybox"
for a in $("$root/bin/busybox" --list); do
	[[ -e $root/bin/$a ]] || ln -s busybox "$root/bin/$a"
done

# Binaries and every library ldd names, at the same paths.
copy_with_libs() {
	local f=$1
	mkdir -p "$root$(dirname "$f")"
	cp -L "$f" "$root$f"
	ldd "$f" 2>/dev/null | grep -oE '/[^ ]+' | while read -r lib; do
		[[ -e $root$lib ]] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
for b in "${bins[@]}"; do
	copy_with_libs "$b"
	# /usr/bin/x wins over busybox's applet of the same name in PATH order
	ln -sf "$b" "$root/bin/$(basename "$b")" 2>/dev/null || true
done
copy_with_libs /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
cp /etc/libibverbs.d/rxe.driver "$root/etc/libibverbs.d/"
# perftest and fio open other libs at run time (dlopen): the loader cache is not needed,
# they live in the default directories.
echo 'root:x:0:0:root:/:/bin/sh' >"$root/etc/passwd"
echo 'root:x:0:' >"$root/etc/group"
printf '127.0.0.1 localhost\n' >"$root/etc/hosts"
printf 'tcp 6 TCP\nudp 17 UDP\n' >"$root/etc/protocols"

# Modules: resolve each wanted module's dependencies (modules.dep, depth first) into one
# ordered list; modules are stored uncompressed so busybox insmod can load them.
declare -A seen=()
order=()
dep_line() { awk -v m="$1" -F: '{n=$1; sub(/.*\//,"",n); sub(/\.ko(\.[a-z]+)?$/,"",n); gsub(/-/,"_",n); if (n==m) {print; exit}}' "$kmods/modules.dep"; }
resolve() {
	local name=${1//-/_} line path deps d
	[[ -n ${seen[$name]:-} ]] && return 0
	seen[$name]=1
	line=$(dep_line "$name")
	if [[ -z $line ]]; then
		if grep -q "/${name//_/[-_]}.ko" "$kmods/modules.builtin" 2>/dev/null; then
			return 0
		fi
		if [[ $optional_mods == *" $name "* ]]; then
			echo "interop: no module $name in $kver (not needed there)" >&2
			return 0
		fi
		echo "interop: module $name not found for $kver" >&2
		return 1
	fi
	path=${line%%:*}
	deps=${line#*:}
	for d in $deps; do
		d=${d##*/}
		d=${d%%.ko*}
		resolve "$d"
	done
	order+=("$path")
}
for m in "${mods[@]}"; do resolve "$m"; done
: >"$root/etc/modules.order"
for p in "${order[@]}"; do
	f=${p##*/}
	case $f in
	*.ko.xz) xz -dc "$kmods/$p" >"$root/lib/modules/${f%.xz}"; f=${f%.xz} ;;
	*.ko.zst) zstd -qdc "$kmods/$p" >"$root/lib/modules/${f%.zst}"; f=${f%.zst} ;;
	*) cp "$kmods/$p" "$root/lib/modules/$f" ;;
	esac
	echo "$f" >>"$root/etc/modules.order"
done
if [[ -n $rxe_ko ]]; then
	[[ -f $root/lib/modules/rdma_rxe.ko ]] || { echo "interop: no rdma_rxe.ko to replace" >&2; exit 2; }
	cp "$rxe_ko" "$root/lib/modules/rdma_rxe.ko"
	echo "$rxe_sum  $rxe_ko" >"$root/etc/rdma_rxe.sha256"
fi

cp "$here/init" "$root/init"
chmod +x "$root/init"
(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet | gzip -1) >"$dest/initrd.img.tmp"
mv "$dest/initrd.img.tmp" "$dest/initrd.img"
echo "$stamp" >"$dest/stamp"
rm -rf "$out/kernel"
echo "interop: guest $kver${rxe_ko:+ (rdma_rxe.ko: $rxe_ko)}: $(wc -l <"$root/etc/modules.order") modules, initramfs $(du -h "$dest/initrd.img" | cut -f1)" >&2
echo "$dest"
