#!/usr/bin/env bash
# run.sh [--backend cpu|gpu] [--out DIR] [NAME...]: builds every program of the corpus (programs.tsv, or the
# NAMEs) as nvcc 13 would, runs it in its own folder within its time limit, and compares what it printed
# with what the H200 printed (expected/NAME.raw), filter.sed applied to both. On the GPU (--backend gpu) it
# records those: `run.sh --backend gpu --out DIR` there, then copy DIR's *.raw into expected/. Prints one line
# per program and the counts: built, ended with status 0, printed what the H200 printed (of those recorded).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cpu_dir=$(cd "$here/../.." && pwd)
backend=cpu out=""
while [ $# -gt 0 ]; do
  case $1 in
    --backend) backend=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -*) echo "usage: run.sh [--backend cpu|gpu] [--out DIR] [NAME...]" >&2; exit 2 ;;
    *) break ;;
  esac
done
case $backend in
  cpu) compiler=("$cpu_dir/bin/nvcc-cpu" -arch=native) ;;  # as on the GPU: __CUDA_ARCH__ 900 in both
  gpu) compiler=(nvcc -arch=native) ;;
  *) echo "run.sh: --backend cpu or gpu" >&2; exit 2 ;;
esac
out=${out:-$cpu_dir/../build/cpu/corpus-$backend}
mkdir -p "$out"
out=$(cd "$out" && pwd)
shopt -s nullglob # a sample has .cu files, .cpp files or both
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ "$backend" != cpu ] || "$cpu_dir/bin/nvcc-cpu" --ensure-runtime >/dev/null || exit 2

# programs: the selected lines of programs.tsv, with tabs as another separator (read would merge the tabs
# around an empty field, tab being white space).
programs() {
  tr '\t' '\037' <"$here/programs.tsv" | while IFS=$'\037' read -r name folder flags args limit order; do
    case $name in '' | '#'*) continue ;; esac
    [ $# -eq 0 ] || [[ " $* " == *" $name "* ]] || continue
    printf '%s\037%s\037%s\037%s\037%s\037%s\n' "$name" "$folder" "$flags" "$args" "$limit" "$order"
  done
}

# build NAME FOLDER FLAGS: the program built as the samples' CMake builds it (extended lambdas, relocatable
# device code for the dynamic-parallelism samples), its compiler's words in OUT/NAME.build.
build() {
  local src=$here/cuda-samples/Samples/$2
  # shellcheck disable=SC2086 # FLAGS is words
  "${compiler[@]}" -O2 --extended-lambda -rdc=true -I "$here/cuda-samples/Common" -I "$src" \
    "$src"/*.cu "$src"/*.cpp $3 -o "$work/$1" >"$out/$1.build" 2>&1
}
export -f build
export here out work
export COMPILER="${compiler[*]}"

# The builds side by side (nvcc takes seconds a program), then the runs one at a time (a GPU's, or the CPU
# backend's threads, to each program alone).
# shellcheck disable=SC2016 # the single-quoted words are expanded by the bash that xargs starts
programs "$@" | cut -d $'\037' -f1-3 | tr '\037' '\n' |
  xargs -d '\n' -n 3 -P "${JOBS:-$(nproc)}" bash -c 'read -r -a compiler <<<"$COMPILER"; shopt -s nullglob; build "$@"' build

total=0 built=0 ended=0 recorded=0 same=0 slowest=0 slowest_name=""
printf '%-26s %-8s %-12s %s\n' program build run "H200's output"
while IFS=$'\037' read -r name folder _ args limit order; do
  total=$((total + 1))
  build=failed run=- verdict=-
  if [ -x "$work/$name" ]; then
    build=ok built=$((built + 1))
    start=$SECONDS
    # shellcheck disable=SC2086 # ARGUMENTS is words
    (cd "$here/cuda-samples/Samples/$folder" && timeout -k 5 "$limit" "$work/$name" $args) >"$out/$name.raw" 2>&1
    status=$? took=$((SECONDS - start))
    if [ "$took" -gt "$slowest" ]; then slowest=$took slowest_name=$name; fi
    case $status in
      0) run="0 (${took} s)" ended=$((ended + 1)) ;;
      124 | 137) run="timed out (${limit} s)" ;;
      *) run="status $status" ;;
    esac
    # ORDER "lines": the lines may come in any order (threads or blocks whose output CUDA leaves unordered)
    filtered() { sed -f "$here/filter.sed" "$1" | if [ "$order" = lines ]; then LC_ALL=C sort; else cat; fi; }
    filtered "$out/$name.raw" >"$out/$name.out"
    if [ -f "$here/expected/$name.raw" ]; then
      recorded=$((recorded + 1))
      filtered "$here/expected/$name.raw" >"$out/$name.expected"
      if cmp -s "$out/$name.expected" "$out/$name.out"; then verdict=same same=$((same + 1)); else verdict=differs; fi
    fi
  fi
  printf '%-26s %-8s %-12s %s\n' "$name" "$build" "$run" "$verdict"
done < <(programs "$@")
echo "$backend backend: $total programs, $built built, $ended ended with status 0, $same of $recorded printed what the H200 printed; slowest: $slowest_name ${slowest} s"
echo "outputs: $out"
