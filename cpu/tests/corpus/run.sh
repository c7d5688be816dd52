#!/usr/bin/env bash
# run.sh [--backend cpu|gpu] [--out DIR] [NAME...]: builds every program of the corpus (programs.tsv, or the
# NAMEs) as nvcc 13 would, runs it in its own folder within its time limit, and compares what it printed
# (filter.sed applied) with what the H200 printed (expected/NAME.out). On the GPU (--backend gpu) it records
# those: `run.sh --backend gpu --out expected` there, then copy expected/ back. Prints one line per program and
# the counts: built, ended with status 0, printed what the H200 printed (of the programs it has an output of).
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
  cpu) compiler=("$cpu_dir/bin/nvcc-cpu") ;;
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

total=0 built=0 ended=0 recorded=0 same=0 slowest=0 slowest_name=""
printf '%-26s %-8s %-12s %s\n' program build run "H200's output"
# Tabs as another separator: read would merge the tabs around an empty field (IFS white space).
while IFS=$'\037' read -r name folder flags args limit; do
  case $name in '' | '#'*) continue ;; esac
  [ $# -eq 0 ] || [[ " $* " == *" $name "* ]] || continue
  total=$((total + 1))
  src=$here/cuda-samples/Samples/$folder
  # The samples' own CMake flags: extended lambdas, relocatable device code (the dynamic-parallelism samples).
  # shellcheck disable=SC2206 # FLAGS is words
  cmd=("${compiler[@]}" -O2 --extended-lambda -rdc=true -I "$here/cuda-samples/Common" -I "$src"
    "$src"/*.cu "$src"/*.cpp $flags -o "$work/$name")
  build=failed run=- verdict=-
  if "${cmd[@]}" >"$out/$name.build" 2>&1; then
    build=ok built=$((built + 1))
    start=$SECONDS
    # shellcheck disable=SC2086 # ARGUMENTS is words
    (cd "$src" && timeout -k 5 "$limit" "$work/$name" $args) >"$out/$name.raw" 2>&1
    status=$? took=$((SECONDS - start))
    if [ "$took" -gt "$slowest" ]; then slowest=$took slowest_name=$name; fi
    case $status in
      0) run="0 (${took} s)" ended=$((ended + 1)) ;;
      124 | 137) run="timed out (${limit} s)" ;;
      *) run="status $status" ;;
    esac
    sed -f "$here/filter.sed" "$out/$name.raw" >"$out/$name.out"
    if [ -f "$here/expected/$name.out" ]; then
      recorded=$((recorded + 1))
      if cmp -s "$here/expected/$name.out" "$out/$name.out"; then verdict=same same=$((same + 1)); else verdict=differs; fi
    fi
  fi
  printf '%-26s %-8s %-12s %s\n' "$name" "$build" "$run" "$verdict"
done < <(tr '\t' '\037' <"$here/programs.tsv")
echo "$backend backend: $total programs, $built built, $ended ended with status 0, $same of $recorded printed what the H200 printed; slowest: $slowest_name ${slowest} s"
echo "outputs: $out"
