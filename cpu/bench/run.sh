#!/usr/bin/env bash
# run.sh: the CPU backend's speed ratios (issues 3 and 13, "Speed"), measured in one run:
#   1. vector add over 16M floats through the backend vs the same loop in plain C (one worker thread: per core)
#   2. a 256-thread block reduction with __syncthreads, in elements per second per core (one worker thread),
#      for the one-element-per-thread tree and for the grid-stride form lessons use; and a warp-shuffle one
#   3. building a lesson program with nvcc-cpu vs g++ -O2 on the same code once translated (the time nvcc-cpu
#      adds: its -E pass, the launch rewriter and the driver), best of 5 each
#   4. the naive and the tiled 16x16 float matrix multiply (matmul.cu) at N = 1024 on every core vs the same
#      loops in plain C on one core. BIG=1: the kernels alone at N = 8192, the issue's size (about 45 minutes
#      for the naive one on 2 cores; the plain C loops would take hours)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cpu_dir=$(cd "$here/.." && pwd)
root=$(cd "$cpu_dir/.." && pwd)
build=${CUDAWB_BUILD_DIR:-$root/build/cpu}
work=$build/bench
mkdir -p "$work"
nvcc_cpu=$cpu_dir/bin/nvcc-cpu

"$nvcc_cpu" -O2 -o "$work/bench" "$here/bench.cu"
"$nvcc_cpu" -O2 -o "$work/matmul" "$here/matmul.cu"
# as the grader builds them: with the alignment check (bin/nvcc-cpu, NVCC_CPU_ALIGN_CHECK)
NVCC_CPU_ALIGN_CHECK=1 "$nvcc_cpu" -O2 -o "$work/bench-aligned" "$here/bench.cu"
NVCC_CPU_ALIGN_CHECK=1 "$nvcc_cpu" -O2 -o "$work/matmul-aligned" "$here/matmul.cu"
if [[ ${BIG:-0} == 1 ]]; then
    "$work/matmul" 8192 all noplain | awk -v cores="$(nproc)" '{
        printf "matmul %s %dx%d: %.1f s on %d cores (target < 120 s)\n", substr($1, 8), $2, $2, $3, cores }'
    exit
fi
CUDAWB_CPU_THREADS=1 "$work/bench" >"$work/one-core.txt"
"$work/bench" >"$work/all-cores.txt"
read -r _ backend plain < <(grep '^vector_add' "$work/one-core.txt")
read -r _ tree < <(grep '^reduction ' "$work/one-core.txt")
read -r _ strided < <(grep '^reduction_gridstride' "$work/one-core.txt")
read -r _ warp < <(grep '^warp_reduction' "$work/one-core.txt")
read -r _ backend_all _ < <(grep '^vector_add' "$work/all-cores.txt")
"$work/matmul" 1024 >"$work/matmul.txt"
read -r _ backend_aligned _ < <(CUDAWB_CPU_THREADS=1 "$work/bench-aligned" | grep '^vector_add')
read -r _ _ matmul_aligned _ < <("$work/matmul-aligned" 1024 naive noplain | grep '^matmul_naive')

# best wall time of 5 runs of a command, in seconds
best_of_5() {
    local best="" t i start end
    for i in 1 2 3 4 5; do
        start=$(date +%s%N)
        "$@" >/dev/null 2>&1
        end=$(date +%s%N)
        t=$((end - start))
        if [[ -z $best || $t -lt $best ]]; then best=$t; fi
        : "$i"
    done
    echo "$best"
}

lesson=$root/solutions/01-allocation/alloc.cu
[[ -f $lesson ]] || lesson=$here/bench.cu
"$nvcc_cpu" -E -I "$root/kernels" "$lesson" -o "$work/lesson.ii"
t_cpu=$(best_of_5 "$nvcc_cpu" -O2 -g -lineinfo -Xcompiler -Wall,-Wextra -I "$root/kernels" -o "$work/lesson" "$lesson")
t_gxx=$(best_of_5 g++ -O2 -g -Wall -Wextra -x c++-cpp-output "$work/lesson.ii" -x none "$build/libcudawb.a" \
    -pthread -ldl -o "$work/lesson-gxx")

awk -v w="$warp" -v b="$backend" -v p="$plain" -v ba="$backend_all" -v tr="$tree" -v gs="$strided" -v tc="$t_cpu" \
    -v tg="$t_gxx" -v cores="$(nproc)" -v lesson="${lesson#"$root"/}" 'BEGIN {
    printf "vector add, 16M floats: backend %.2f ms (1 worker; %.2f ms with %d), plain C loop %.2f ms: %.0f%% of plain C (target >= 80%%)\n", b * 1e3, ba * 1e3, cores, p * 1e3, 100 * p / b
    printf "block reduction, 256 threads, __syncthreads: %.1fM elements/s per core grid-stride (target >= 20M); %.1fM one element per thread (target >= 35M: twice the 17.6M of cpu/README)\n", gs / 1e6, tr / 1e6
    printf "warp reduction, __shfl_down_sync: %.1fM elements/s per core (one element per thread)\n", w / 1e6
    printf "building %s: nvcc-cpu %.0f ms, g++ -O2 %.0f ms: %.2fx (target <= 1.5x)\n", lesson, tc / 1e6, tg / 1e6, tc / tg
}'
awk -v cores="$(nproc)" '{
    printf "matmul %s %dx%d: backend %.2f s on %d cores, plain C %.2f s on one: %.0f%% of plain C; x%d for %d (O(n^3)): %.0f s (target < 120 s)\n",
        substr($1, 8), $2, $2, $3, cores, $4, 100 * $4 / $3, (8192 / $2) ^ 3, 8192, $3 * (8192 / $2) ^ 3
}' "$work/matmul.txt"
awk -v b="$backend" -v ba="$backend_aligned" -v ma="$matmul_aligned" '
    $1 == "matmul_naive" { printf "the grader'"'"'s alignment check (misaligned accesses fault as on a GPU): vector add %.2fx, naive matmul %.2fx the time without it\n", ba / b, ma / $3 }' "$work/matmul.txt"
