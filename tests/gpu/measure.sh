#!/usr/bin/env bash
# First look at the GPU machine: tools, device, and lesson 01's solution with the shim. Logs to $1.
set -uo pipefail
out=${1:?usage: measure.sh OUTDIR}
mkdir -p "$out" /tmp/m
{
  nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv
  nvcc --version | tail -2; which compute-sanitizer addr2line bwrap bash gcc make; bash --version | head -1
  compute-sanitizer --version | tail -1
  nvcc -arch=native -o /tmp/m/measure tests/gpu/measure-allocation.cu && /tmp/m/measure
  # shellcheck disable=SC2054 # nvcc comma list
  flags=(-O2 -g -lineinfo -arch=native -Xcompiler -Wall,-Wextra -I kernels)
  nvcc "${flags[@]}" -c grader/shim/cudawb_shim.c -o /tmp/m/shim.o
  time nvcc "${flags[@]}" -o /tmp/m/alloc solutions/01-allocation/alloc.cu /tmp/m/shim.o -Xlinker --wrap=cudaMalloc,--wrap=cudaMallocManaged,--wrap=cudaMallocPitch,--wrap=cudaMallocHost,--wrap=cudaHostAlloc,--wrap=cudaFree,--wrap=cudaFreeHost
  for args in "" 1000 --probe 100000000000; do
    echo "== alloc $args"; time CUDAWB_REPORT=/tmp/m/r /tmp/m/alloc $args; echo "rc=$?"; cat /tmp/m/r
  done
  for n in 1 2 3; do
    echo "== inject $n"; CUDAWB_FAIL_ALLOC=$n CUDAWB_REPORT=/tmp/m/r /tmp/m/alloc; echo "rc=$?"; cat /tmp/m/r
  done
  addr2line -e /tmp/m/alloc "$(grep -o 'site=+0x[0-9a-f]*' /tmp/m/r | head -1 | cut -d+ -f2)"
  echo "== sanitizer"; time compute-sanitizer --tool memcheck --leak-check full --error-exitcode 86 /tmp/m/alloc 1000; echo "rc=$?"
  sed 's/cudaFree(d_count);//' solutions/01-allocation/alloc.cu > /tmp/m/leak.cu
  nvcc "${flags[@]}" -o /tmp/m/leak /tmp/m/leak.cu
  compute-sanitizer --tool memcheck --leak-check full --error-exitcode 86 /tmp/m/leak 1000; echo "rc=$?"
} > "$out/measure.log" 2>&1
cat "$out/measure.log"
