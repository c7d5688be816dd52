#!/usr/bin/env bash
# Prints every lesson's steps as passed / failed / skipped / not tried, from the last `make check` of each.
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"
# shellcheck source=grader/lib/steps.sh
. "$WB_ROOT/grader/lib/steps.sh"

for id in $(lesson_ids); do
  results=$WB_ROOT/build/results/$id.tsv
  when="not graded yet"
  [ -f "$results" ] && when="last graded $(date -r "$results" '+%Y-%m-%d %H:%M')"
  printf 'lesson %s · %s (%s)\n' "${id%%-*}" "$(lesson_title "$id")" "$when"
  while IFS=$'\t' read -r n name points _hint; do
    status=$(awk -F '\t' -v n="$n" '$1 == n { print $2 }' "$results" 2>/dev/null || true)
    printf '  step %-2s %-10s %-64s %s pt\n' "$n" "${status:-not tried}" "$name" "$points"
  done < <(steps_of "$id")
done
