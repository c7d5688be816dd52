#!/usr/bin/env bash
# On a GPU machine: runs measure-use-after-free.cu for every mode and a range of sizes, plain and under
# compute-sanitizer's memcheck, one process each. use-after-free.sh OUTDIR; prints one line per case.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: use-after-free.sh OUTDIR}
mkdir -p "$out"
nvcc -O2 -arch=native -o "$out/uaf" "$here/measure-use-after-free.cu" || exit 1
for mode in free async async-kept async-synced; do
  for bytes in 4096 262144 1048576 2097152 4194304 67108864 1073741824; do
    timeout 60 "$out/uaf" "$mode" "$bytes"
    printf 'memcheck: %s\n' "$(timeout 120 compute-sanitizer --tool memcheck "$out/uaf" "$mode" "$bytes" 2>&1 |
      grep -E 'Invalid|ERROR SUMMARY|synchronize' | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
  done
done
