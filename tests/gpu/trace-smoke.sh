#!/usr/bin/env bash
# On a GPU machine: builds tests/gpu/trace-smoke.cu with the trace linked in (as grader/lib/build.sh does)
# and runs it normally and with a failure injected at several calls; prints the reports.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build/trace-smoke}
mkdir -p "$out"
objs=()
for f in trace wrappers kernel_info; do
  nvcc -O2 -c "$root/grader/shim/$f.c" -o "$out/$f.o"
  objs+=("$out/$f.o")
done
wrap=$("$root/grader/shim/wrapped.sh")
nvcc -O2 -g -lineinfo -arch=native -I "$root/kernels" -o "$out/trace-smoke" "$root/tests/gpu/trace-smoke.cu" "${objs[@]}" \
  -Xlinker "--wrap=${wrap//$'\n'/,--wrap=}"
for fail in "" 6 8 12 17; do
  echo "== CUDAWB_FAIL_CALL=$fail"
  CUDAWB_FAIL_CALL=$fail CUDAWB_REPORT="$out/report$fail" "$out/trace-smoke" | tr '\n' ' '
  echo
  grep -v "^fn-calls" "$out/report$fail"
done
echo "== the stacks of the launch records, resolved"
grep 'fn=cudaLaunchKernel' "$out/report" | grep -o 'stack=[^ ]*' | while read -r s; do
  # shellcheck disable=SC2046 # one address per word
  addr2line -f -i -C -e "$out/trace-smoke" $(tr ',' ' ' <<<"${s#stack=}") | paste -sd' '
done
