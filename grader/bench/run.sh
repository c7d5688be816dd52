#!/usr/bin/env bash
# The grader's costs, measured in one run on this machine's backend (BACKEND=gpu|cpu|auto), as ratios:
#   1. the trace: each lesson's reference solution built with the trace and run with its report on,
#      against the same program built plainly; REPS runs of each, alternated, medians (target <= 1.2x);
#   2. the sandbox: the same traced program run plainly and in the sandbox (grader/lib/sandbox.sh);
#   3. grading: `make check` of each lesson's solution against its floor, its compiles (one; three in lesson
#      00) plus the runs its steps make (each run's wall time, as run_program measured it);
#   4. the policy on lesson code (grader/policy/): each solution built with it and without (ALLOW=all),
#      alternated, and the check's own time (build_program's policy-ms), medians.
#   run.sh [LESSON...]   (default: every lesson; REPS=5)
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export WB_ROOT
# Every build compiled: a kept build (grader/lib/build.sh's cache) would time a copy, not the work.
export WB_BUILD_CACHE=0
# shellcheck source=grader/lib/build.sh
. "$WB_ROOT/grader/lib/build.sh"
# shellcheck source=grader/lib/backend.sh
. "$WB_ROOT/grader/lib/backend.sh"
"$WB_ROOT/grader/setup.sh" --quiet
backend_choose "${BACKEND:-auto}"
[ "$WB_BACKEND" != none ] || { echo "error: no backend to run programs on: $WB_BACKEND_WHY" >&2; exit 2; }
reps=${REPS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ids=${*:-$(lesson_ids)}

now_ms() { echo $(($(date +%s%N) / 1000000)); }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "backend: $WB_BACKEND ($WB_BACKEND_WHY); $reps runs of each, medians"
echo
printf '%-22s %10s %10s %7s\n' "the trace's cost" "plain ms" "traced ms" ratio
for id in $ids; do
  id=$(lesson_resolve "$id")
  build_program "$id" "$WB_ROOT/solutions/$id" "$work/$id/traced" >/dev/null || { echo "$id: does not build" >&2; continue; }
  mkdir -p "$work/$id/plain"
  # The same compiler, flags and sources, without the trace's objects and --wrap options.
  srcs=("$work/$id/traced/src"/*.cu)
  libs=()
  grep -qs '#include *<cublas_v2.h>' "$work/$id/traced/src"/* && libs=(-lcublas)
  NVCC_CPU_NO_TRACE=1 "$WB_NVCC" "${WB_CFLAGS[@]}" ${WB_ARCH:+"$WB_ARCH"} -I "$work/$id/traced/src" -I "$WB_ROOT/kernels" \
    "${srcs[@]}" -o "$work/$id/plain/program" ${libs[@]+"${libs[@]}"} >/dev/null
  plain=() traced=()
  for ((r = 0; r < reps; r++)); do
    t=$(now_ms); "$work/$id/plain/program" >/dev/null 2>&1 || true; plain+=($(($(now_ms) - t)))
    t=$(now_ms); CUDAWB_REPORT=$work/$id/report "$work/$id/traced/program" >/dev/null 2>&1 || true; traced+=($(($(now_ms) - t)))
  done
  p=$(printf '%s\n' "${plain[@]}" | median) q=$(printf '%s\n' "${traced[@]}" | median)
  printf '%-22s %10s %10s %6.2fx\n' "$id" "$p" "$q" "$(awk -v a="$q" -v b="$p" 'BEGIN { print (b > 0 ? a / b : 0) }')"
done

echo
if sandbox_available; then
  printf '%-22s %10s %10s %7s\n' "the sandbox's cost" "plain ms" "sandbox ms" ratio
  for id in $ids; do
    id=$(lesson_resolve "$id")
    [ -x "$work/$id/traced/program" ] || continue
    sandbox=()
    sandbox_command sandbox --ro "$work/$id/traced" --scratch /wb/run --chdir /wb/run --
    plain=() boxed=()
    for ((r = 0; r < reps; r++)); do
      t=$(now_ms); "$work/$id/traced/program" >/dev/null 2>&1 || true; plain+=($(($(now_ms) - t)))
      t=$(now_ms); "${sandbox[@]}" "$work/$id/traced/program" >/dev/null 2>&1 || true; boxed+=($(($(now_ms) - t)))
    done
    p=$(printf '%s\n' "${plain[@]}" | median) q=$(printf '%s\n' "${boxed[@]}" | median)
    printf '%-22s %10s %10s %6.2fx\n' "$id" "$p" "$q" "$(awk -v a="$q" -v b="$p" 'BEGIN { print (b > 0 ? a / b : 0) }')"
  done
else
  echo "the sandbox's cost: not measured ($WB_SANDBOX_WHY)"
fi

echo
printf '%-22s %10s %10s %7s %6s\n' "grading time" "floor s" "check s" ratio runs
for id in $ids; do
  id=$(lesson_resolve "$id")
  t=$(now_ms)
  "$WB_ROOT/grader/check.sh" "$id" --submission "$WB_ROOT/solutions" --backend "$WB_BACKEND" --work "$work/check-$id" \
    --results "$work/results" >/dev/null 2>&1 || true
  total=$(($(now_ms) - t))
  # check.sh grades into WORK/LESSON/: the build (and lesson 00's builds for other architectures, in folders
  # of their own beside it), and one folder per run
  floor=$(cat "$work/check-$id/$id/build/elapsed-ms" "$work/check-$id/$id"/build/*/elapsed-ms \
    "$work/check-$id/$id"/runs/*/elapsed-ms 2>/dev/null |
    awk '{ s += $1 } END { print s + 0 }' || true)
  runs=$(find "$work/check-$id/$id/runs" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l)
  printf '%-22s %10.1f %10.1f %6.2fx %6s\n' "$id" "$(awk -v v="$floor" 'BEGIN { print v / 1000 }')" \
    "$(awk -v v="$total" 'BEGIN { print v / 1000 }')" "$(awk -v a="$total" -v b="$floor" 'BEGIN { print (b > 0 ? a / b : 0) }')" "$runs"
done

echo
printf '%-22s %10s %10s %10s\n' "the policy's cost" "build ms" "no-policy" "policy ms"
for id in $ids; do
  id=$(lesson_resolve "$id")
  with=() without=() own=()
  for ((r = 0; r < reps; r++)); do
    t=$(now_ms); build_program "$id" "$WB_ROOT/solutions/$id" "$work/$id/policy" >/dev/null || true; with+=($(($(now_ms) - t)))
    own+=("$(cat "$work/$id/policy/policy-ms" 2>/dev/null || echo 0)")
    t=$(now_ms); WB_ALLOW=all build_program "$id" "$WB_ROOT/solutions/$id" "$work/$id/policy" >/dev/null || true
    without+=($(($(now_ms) - t)))
  done
  printf '%-22s %10s %10s %10s\n' "$id" "$(printf '%s\n' "${with[@]}" | median)" "$(printf '%s\n' "${without[@]}" | median)" \
    "$(printf '%s\n' "${own[@]}" | median)"
done
