#!/usr/bin/env bash
# Compiles gpunetio_device.cu (doca-gpunetio's CUDA device headers, called as NVIDIA's GPUNetIO
# programs call them) with nvcc, warnings as errors, for the oldest and newest architectures
# NVIDIA's samples build for. Skipped (exit 77) where there is no CUDA toolkit, as in CI.
# usage: check_cuda_headers.sh NVCC|"" CONFIG_INCDIR INCDIR SOURCE
set -euo pipefail
nvcc=$1 config_inc=$2 inc=$3 src=$4
if [ -z "$nvcc" ] || ! [ -x "$nvcc" ]; then
	echo "no nvcc (CUDA toolkit): device headers not checked"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$nvcc" -std=c++17 -rdc=true -DDOCA_ALLOW_EXPERIMENTAL_API -Werror all-warnings \
	-Xcompiler -Wall,-Wextra,-Werror,-Wno-unused-parameter \
	-gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code=sm_90 \
	-I"$config_inc" -I"$inc" -c "$src" -o "$tmp/device.o"
echo "doca-gpunetio device headers compile with $("$nvcc" --version | tail -1)"
