#!/usr/bin/env bash
# What a program can see of being watched (issue: "watching is invisible"): tests/gpu/measure-watched.cu run
# plainly and under the memory checker, with the grader's clean environment, and the two outputs compared.
#   verify-watched.sh OUTDIR        (VW_BACKEND=cpu: built by nvcc-cpu and run under cpu/bin/compute-sanitizer)
# Writes OUTDIR/watched-{plain,memcheck}.txt and prints their diff: every line of it is something a program
# could tell its runs apart by, unless the policy on lesson code refuses what it takes to see it.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: verify-watched.sh OUTDIR}
mkdir -p "$out"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
if [ "${VW_BACKEND:-gpu}" = cpu ]; then
  "$root/cpu/bin/nvcc-cpu" -o "$bin/watched" "$root/tests/gpu/measure-watched.cu" || exit 1
  sanitizer=$root/cpu/bin/compute-sanitizer
else
  # With the trace linked in, as the grader links it (grader/lib/build.sh): it is what hides the checker's
  # variables from the program.
  # shellcheck source=grader/lib/build.sh
  . "$root/grader/lib/build.sh"
  trace=$(trace_object) || exit 1
  wrap=$("$root/grader/shim/wrapped.sh")
  nvcc -arch=native -c -o "$bin/watched.o" "$root/tests/gpu/measure-watched.cu" &&
    nvcc -arch=native -o "$bin/watched" "$bin/watched.o" "$trace" -Xlinker "--wrap=${wrap//$'\n'/,--wrap=}" || exit 1
  sanitizer=$(command -v compute-sanitizer) || { echo "no compute-sanitizer" >&2; exit 1; }
fi
keep=$(env | grep -E '^(LD_LIBRARY_PATH|CUDA_[A-Z_]*|NVIDIA_[A-Z_]*)=' || true)
# shellcheck disable=SC2086 # the kept variables are words
(cd "$bin" && env -i PATH="$PATH" HOME="$bin" $keep ./watched 5 </dev/null >"$out/watched-plain.txt" 2>&1)
# shellcheck disable=SC2086
(cd "$bin" && env -i PATH="$PATH" HOME="$bin" $keep "$sanitizer" --tool memcheck --leak-check full --error-exitcode 86 \
  ./watched 5 </dev/null >"$out/watched-memcheck.raw" 2>&1)
grep -v '^=========' "$out/watched-memcheck.raw" | sed "s|watched-memcheck.raw|watched-plain.txt|" >"$out/watched-memcheck.txt"
# Sorted (the environment's order is not something lesson code can read: environ is not in the policy's
# list, getenv is), and without the descriptor that reads /proc/self/fd itself.
for f in plain memcheck; do
  grep -v '^fd [0-9]* /proc/[0-9]*/fd$' "$out/watched-$f.txt" | LC_ALL=C sort >"$out/watched-$f.sorted"
done
diff "$out/watched-plain.sorted" "$out/watched-memcheck.sorted" && echo "no difference"
