#!/usr/bin/env bash
# Installs the Debian 12 packages softdoca needs to build, test and benchmark.
# Skips apt entirely when everything is already there.
set -euo pipefail

# rdmacm-utils, ibverbs-utils (ibv_rc_pingpong, ibv_devinfo) and perftest: rdma-core's tools and
# perftest, run unmodified on softdoca's librdmacm, libibverbs and provider shims by the RDMA tests
# (skipped without them)
packages=(meson ninja-build gcc pkg-config python3 libc6-dev iproute2 liburing-dev rdmacm-utils ibverbs-utils
	perftest)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "install-deps: need root or sudo for: ${missing[*]}" >&2; exit 1; }
	sudo=sudo
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
