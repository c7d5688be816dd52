#!/usr/bin/env bash
# On a GPU machine: grades one timed step of a lesson's solution N times in a row and prints the ratio each
# graded run measured, to choose the step's threshold (one that held in N of N runs).
#   repeat-step.sh LESSON STEP N
# REPEAT_WORK=DIR: the --work folder of a grading of the solution just made (check.sh ... --work DIR), whose
# build is used instead of grading once more first.
# The step runs from a copy of the lesson's grader whose MIN_SPEEDUP is out of reach, so every run fails and
# its message carries the ratio the grader computed from the trace ("..., 6.12x").
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
lesson=${1:?usage: repeat-step.sh LESSON STEP N} step=${2:?} n=${3:?}
cd "$root" || exit 1
export WB_NO_INSTALL=1
# the Bats and bubblewrap tests/gpu/pack-tools.sh packed, where they were carried to a machine without them
if [ -d "$root/.tools" ]; then
  export PATH=$root/.tools/bats/bin:$root/.tools/bin:$PATH BATS_LIB_PATH=$root/.tools/bats/lib/bats
fi
# shellcheck source=grader/lib/lessons.sh
. grader/lib/lessons.sh
id=$(lesson_resolve "$lesson") || exit 2
if [ -n "${REPEAT_WORK:-}" ]; then
  work=$(mktemp -d /tmp/repeat.XXXXXX) && ln -s "$REPEAT_WORK" "$work/w"
else
  work=$(mktemp -d /tmp/repeat.XXXXXX)
  # One whole grading first: it builds the program and checks the backend, as make check does.
  grader/check.sh "$id" --submission solutions --backend gpu --work "$work/w" --results "$work/r" | tail -n 1
fi
sed 's/^MIN_SPEEDUP=.*/MIN_SPEEDUP=1000000/' "grader/$id.bats" >"grader/$id.repeat.bats"
trap 'rm -f "$root/grader/$id.repeat.bats"' EXIT
# shellcheck source=grader/lib/backend.sh
. grader/lib/backend.sh
backend_choose gpu || exit 2
export WB_LESSON=$id WB_SUBMISSION=$root/solutions WB_WORK=$work/w/$id
for i in $(seq "$n"); do
  ratio=$(cd "$WB_WORK" && bats -f "step $step:" "$root/grader/$id.repeat.bats" 2>&1 | grep -o '[0-9.]*x$' | tail -n 1)
  echo "run $i: ${ratio:-no ratio (the step failed before its ratio)}"
done
