#!/usr/bin/env bash
# rdma-core's headers (Debian's librdmacm-dev and libibverbs-dev, unpacked into DIR, so the
# machine's own /usr/include stays as it is): DOCA's doca_rdma.h includes <rdma/rdma_cma.h> when
# they are there, and softdoca's librdmacm, libibverbs and the STA tools are built against them.
# usage: rdmacm-headers.sh DIR   (exit 0 when DIR/usr/include has them)
set -eu
dir=${1:?directory}
[ -f "$dir/usr/include/rdma/rdma_cma.h" ] && exit 0
mkdir -p "$dir/deb"
(cd "$dir/deb" && apt-get download librdmacm-dev libibverbs-dev >/dev/null 2>&1)
for deb in "$dir"/deb/*.deb; do dpkg -x "$deb" "$dir"; done
[ -f "$dir/usr/include/rdma/rdma_cma.h" ]
