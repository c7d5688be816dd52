#!/usr/bin/env bash
# Prints every lesson's steps as passed / failed / skipped / not tried, from the last `make check` of each,
# with each lesson's totals and the course's.
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"
# shellcheck source=grader/lib/steps.sh
. "$WB_ROOT/grader/lib/steps.sh"

all_passed=0 all_steps=0 all_got=0 all_max=0
for id in $(lesson_ids); do
  results=${WB_BUILD:-$WB_ROOT/build}/results/$id.tsv
  when="not graded yet"
  [ -f "$results" ] && when="last graded $(date -r "$results" '+%Y-%m-%d %H:%M')"
  passed=0 steps=0 got=0 max=0 rows=""
  while IFS=$'\t' read -r n name points _hint; do
    status=$(awk -F '\t' -v n="$n" '$1 == n { print $2 }' "$results" 2>/dev/null || true)
    earned=0
    [ "$status" != passed ] || { earned=$points; passed=$((passed + 1)); }
    steps=$((steps + 1)) got=$((got + earned)) max=$((max + points))
    # A long name is cut, so that the points stay in their column.
    [ ${#name} -le 62 ] || name="${name:0:59}..."
    rows+=$(printf '  step %-2s %-10s %-62s %2s/%s pt' "$n" "${status:-not tried}" "$name" "$earned" "$points")$'\n'
  done < <(steps_of "$id")
  printf 'lesson %s · %s (%s): %s/%s steps passed, %s/%s points\n%s' "${id%%-*}" "$(lesson_title "$id")" "$when" \
    "$passed" "$steps" "$got" "$max" "$rows"
  all_passed=$((all_passed + passed)) all_steps=$((all_steps + steps)) all_got=$((all_got + got)) all_max=$((all_max + max))
done
printf '\nall lessons: %s/%s steps passed, %s/%s points\n' "$all_passed" "$all_steps" "$all_got" "$all_max"
