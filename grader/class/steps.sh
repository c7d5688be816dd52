#!/usr/bin/env bash
# The one table of what a class is graded on, read from the graders' step names: for each lesson and step,
# its points (the "(P points)" of `@test "step N: NAME (P points)"`), whether it can be graded on this
# backend, and its name. A step whose test calls require_real_gpu measures a GPU's speed: on any backend
# but gpu it is "not graded here", and counts in no one's maximum.
#   steps.sh BACKEND LESSON_ID...   prints: LESSON <tab> STEP <tab> POINTS <tab> HERE(1|0) <tab> NAME
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
backend=$1
shift
for id in "$@"; do
  LC_ALL=C awk -v id="$id" -v gpu="$([ "$backend" = gpu ] && echo 1 || echo 0)" '
    function flush() { if (step != "") printf "%s\t%s\t%s\t%d\t%s\n", id, step, points, (gpu || !needs), name }
    /^@test "step [0-9]+: .* \([0-9]+ points?\)" *\{/ {
      flush()
      s = $0; sub(/^@test "step /, "", s); sub(/" *\{.*$/, "", s)
      step = s; sub(/:.*/, "", step)
      points = s; sub(/.*\(/, "", points); sub(/ points?\)$/, "", points)
      name = s; sub(/^[0-9]+: /, "", name); sub(/ \([0-9]+ points?\)$/, "", name)
      needs = 0; next
    }
    /^@test / { flush(); step = ""; next }
    step != "" && /^[ \t]*require_real_gpu/ { needs = 1 }
    END { flush() }' "$WB_ROOT/grader/$id.bats"
done
