#!/usr/bin/env bash
# gpu-compare.sh DIR [SEED...]: on a GPU machine, builds lockstep_gen's program for each seed (default 1-16)
# with the real nvcc, runs it and writes DIR/fuzzSEED.gpu; where DIR/fuzzSEED.cpu is there (the CPU backend's
# output: build/cpu/fuzz/fuzzSEED.lockstep from lockstep.sh, copied in), compares the two. The programs are
# free of races, so a GPU must print exactly what the CPU backend prints. Ends with "N passed, N failed".
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 DIR [SEED...]" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$1"
dir=$(cd "$1" && pwd)
shift
seeds=("$@")
[[ ${#seeds[@]} -gt 0 ]] || mapfile -t seeds < <(seq 1 16)
g++ -O2 -o "$dir/gen" "$here/lockstep_gen.cpp"
for seed in "${seeds[@]}"; do
    "$dir/gen" "$seed" 12 >"$dir/fuzz$seed.cu"
    (nvcc -O2 -arch="${GPU_ARCH:-native}" -o "$dir/fuzz$seed" "$dir/fuzz$seed.cu" >"$dir/fuzz$seed.build" 2>&1 &&
        "$dir/fuzz$seed" >"$dir/fuzz$seed.gpu" 2>&1) &
done
wait
passed=0 failed=0
for seed in "${seeds[@]}"; do
    if [[ ! -s $dir/fuzz$seed.gpu ]]; then
        echo "not ok - seed $seed: no output (see $dir/fuzz$seed.build)"; failed=$((failed + 1))
    elif [[ ! -f $dir/fuzz$seed.cpu ]]; then
        echo "ok - seed $seed: ran on the GPU (no CPU output to compare with) # skip"
    elif cmp -s "$dir/fuzz$seed.cpu" "$dir/fuzz$seed.gpu"; then
        echo "ok - seed $seed: the GPU printed what the CPU backend printed"; passed=$((passed + 1))
    else
        echo "not ok - seed $seed: the GPU and the CPU backend differ"; failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
