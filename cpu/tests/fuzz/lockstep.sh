#!/usr/bin/env bash
# lockstep.sh [SEED...]: for each seed, writes a program of 12 random kernels (lockstep_gen.cpp), builds it
# with nvcc-cpu, and runs it with the kernels' lockstep copies (the default) and without (CUDAWB_LOCKSTEP=0):
# the two must print the same, and every kernel must have got its copy. Ends with "N passed, N failed".
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cpu_dir=$(cd "$here/../.." && pwd)
work=${CUDAWB_BUILD_DIR:-$(cd "$cpu_dir/.." && pwd)/build/cpu}/fuzz
mkdir -p "$work"
g++ -O2 -o "$work/gen" "$here/lockstep_gen.cpp"
seeds=("$@")
[[ ${#seeds[@]} -gt 0 ]] || seeds=(1 2 3 4 5 6)
passed=0 failed=0
for seed in "${seeds[@]}"; do
    prog=$work/fuzz$seed
    "$work/gen" "$seed" 12 >"$prog.cu"
    copies=$("$cpu_dir/bin/nvcc-cpu" -E "$prog.cu" | grep -c 'if (cudawb_lockstep && ' || true)
    "$cpu_dir/bin/nvcc-cpu" -O2 -o "$prog" "$prog.cu"
    "$prog" >"$prog.lockstep"
    CUDAWB_LOCKSTEP=0 "$prog" >"$prog.threads"
    if [[ $copies -ne 12 ]]; then
        echo "not ok - seed $seed: $copies of 12 kernels got a lockstep copy ($prog.cu)"
        failed=$((failed + 1))
    elif ! diff "$prog.threads" "$prog.lockstep" >"$prog.diff"; then
        echo "not ok - seed $seed: the kernels' results differ run in lockstep and thread by thread ($prog.diff)"
        failed=$((failed + 1))
    else
        echo "ok - seed $seed: 12 random kernels, 4 block shapes each, the same results both ways"
        passed=$((passed + 1))
    fi
done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
