#!/bin/bash
# meson's entry to tests/interop/run.sh: skipped (77) unless SOFTDOCA_INTEROP=1, so the default
# test run never boots a VM.
if [[ ${SOFTDOCA_INTEROP:-0} != 1 ]]; then
	echo "SKIP interop: set SOFTDOCA_INTEROP=1 to boot the QEMU guest (docs/interop.md)"
	exit 77
fi
exec "$(dirname "$0")/run.sh" "$@"
