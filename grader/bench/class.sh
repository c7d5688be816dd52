#!/usr/bin/env bash
# make grade's throughput, measured in one run: N generated submissions (copies of the solutions, and of the
# solutions with a known-wrong variant applied to each lesson: submission k takes every lesson's variant
# k mod its count, so no two are alike and none is reused), graded with JOBS=1, then again with JOBS=2
# (FORCE=1, separate run folders): each run's wall time, submissions and lesson gradings per minute, and the
# speed-up of JOBS=2 over JOBS=1.
#   class.sh [N] [LESSON]   (default N=100, every lesson; BACKEND as for make grade)
# AGAINST=REV instead compares this workbook with the one at git revision REV (its committed files, with a
# build/ of their own, made before the timing): the same class graded by each in turn, twice (REV, this, REV, this), JOBS as make grade
# chooses, and this one's wall time over REV's.
# A full run is long (N x lessons x two runs: hours at the default on two cores); the numbers are only as
# quiet as the machine is.
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Every build compiled: a kept build (grader/lib/build.sh's cache) would time a copy, not the work.
export WB_BUILD_CACHE=0
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"
n=${1:-100} lesson=${2:-}
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "usage: class.sh [N] [LESSON]   (N submissions, default 100)" >&2; exit 2; }
if [ -n "$lesson" ]; then ids=$(lesson_resolve "$lesson") || exit 2; else ids=$(lesson_ids); fi
[ -d "$WB_ROOT/solutions" ] || { echo "error: the benchmark grades copies of solutions/, which is not in the student release" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/cudawb-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The class: submission 0 the solutions; submission k > 0 every lesson's variant (k - 1) mod its count.
for k in $(seq 0 $((n - 1))); do
  s=$work/class/student-$(printf '%04d' "$k")
  for id in $ids; do
    mkdir -p "$s" && cp -R "$WB_ROOT/solutions/$id" "$s/"
    [ "$k" -gt 0 ] || continue
    mapfile -t patches < <(find "$WB_ROOT/tests/variants/$id" -name '*.patch' 2>/dev/null | LC_ALL=C sort)
    [ ${#patches[@]} -gt 0 ] || continue
    patch --quiet -p1 -d "$s/$id" <"${patches[$(((k - 1) % ${#patches[@]}))]}" >/dev/null
  done
done
lessons=$(wc -w <<<"$ids")
unsafe=()
# shellcheck source=grader/lib/sandbox.sh
(. "$WB_ROOT/grader/lib/sandbox.sh" && sandbox_available) || unsafe=(--unsafe)
# grade_with ROOT JOBS OUT LOG: the class graded by the workbook at ROOT; prints the wall time in ms.
grade_with() {
  local start
  start=$(date +%s%N)
  "$1/grader/grade-class.sh" "$work/class" ${lesson:+"$lesson"} ${2:+--jobs "$2"} --force --out "$3" \
    "${unsafe[@]}" >"$4" 2>&1 || { echo "error: make grade ($1) failed:" >&2; tail -n 5 "$4" >&2; exit 1; }
  echo $((($(date +%s%N) - start) / 1000000))
}
if [ -n "${AGAINST:-}" ]; then
  git -C "$WB_ROOT" rev-parse --verify -q "$AGAINST^{commit}" >/dev/null || { echo "error: AGAINST=$AGAINST is not a commit here" >&2; exit 2; }
  mkdir -p "$work/against" && git -C "$WB_ROOT" archive "$AGAINST" | tar -x -C "$work/against"
  echo "make grade, $n submissions x $lessons lesson(s), on $(nproc) cores: $AGAINST ($(git -C "$WB_ROOT" rev-parse --short "$AGAINST")) against this working tree"
  # Untimed first: each workbook builds what it builds on first use (REV's CPU runtime, in its own build/).
  mkdir -p "$work/warm" && cp -R "$work/class/student-0000" "$work/warm/"
  for root in "$work/against" "$WB_ROOT"; do
    "$root/grader/grade-class.sh" "$work/warm" ${lesson:+"$lesson"} --force --out "$work/warm-run-${root##*/}" \
      "${unsafe[@]}" >"$work/warm.log" 2>&1 || { echo "error: make grade ($root) failed:" >&2; tail -n 5 "$work/warm.log" >&2; exit 1; }
  done
  printf '%-8s %-12s %10s\n' round workbook "wall s"
  old=0 new=0
  for round in 1 2; do
    ms=$(grade_with "$work/against" "" "$work/old-$round/run" "$work/old-$round.log")
    printf '%-8s %-12s %10.1f\n' "$round" "$AGAINST" "$(awk -v m="$ms" 'BEGIN { print m / 1000 }')"
    old=$((old + ms))
    ms=$(grade_with "$WB_ROOT" "" "$work/new-$round/run" "$work/new-$round.log")
    printf '%-8s %-12s %10.1f\n' "$round" "this" "$(awk -v m="$ms" 'BEGIN { print m / 1000 }')"
    new=$((new + ms))
  done
  # The same verdicts from both: the gradebooks, less the folder column (its hash's length may differ).
  cmp -s <(cut -d, -f1-3 "$work/old-1/run/gradebook.csv") <(cut -d, -f1-3 "$work/new-1/run/gradebook.csv") ||
    echo "note: the two workbooks' totals differ (gradebook.csv)"
  awk -v a="$old" -v b="$new" 'BEGIN { printf "this working tree takes %.3f of the time %s takes (%.1f s against %.1f s)\n", b / a, ENVIRON["AGAINST"], b / 1000, a / 1000 }'
  exit 0
fi
echo "make grade's throughput: $n submissions x $lessons lesson(s), on $(nproc) cores"
printf '%-6s %10s %16s %20s\n' JOBS "wall s" "submissions/min" "lesson gradings/min"
declare -A wall=()
for jobs in 1 2; do
  wall[$jobs]=$(grade_with "$WB_ROOT" "$jobs" "$work/runs-$jobs/run" "$work/jobs-$jobs.log")
  awk -v j="$jobs" -v ms="${wall[$jobs]}" -v n="$n" -v l="$lessons" \
    'BEGIN { printf "%-6d %10.1f %16.2f %20.2f\n", j, ms / 1000, n * 60000 / ms, n * l * 60000 / ms }'
done
sed -n 's/^\(backend: [^;]*\);.*/\1/p' "$work/jobs-1.log"
awk -v a="${wall[1]}" -v b="${wall[2]}" 'BEGIN { printf "speed-up of JOBS=2 over JOBS=1: %.2fx\n", a / b }'
