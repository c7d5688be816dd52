#!/usr/bin/env bash
# Prints the hints for the steps of a lesson not yet passed, from its last `make check`.
#   hint.sh LESSON
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"
# shellcheck source=grader/lib/steps.sh
. "$WB_ROOT/grader/lib/steps.sh"
# Without a lesson: the one checked last (its results file is the newest), as a student mid-lesson means.
if [ $# -eq 0 ]; then
  last=""
  for f in "${WB_BUILD:-$WB_ROOT/build}"/results/[0-9][0-9]-*.tsv; do
    [[ -f $f && $f != *.steps.tsv ]] || continue
    [ -z "$last" ] || [ "$f" -nt "$last" ] && last=$f
  done
  [ -n "$last" ] || { echo "usage: make hint LESSON=N (no lesson was checked yet: make check LESSON=N first)" >&2; exit 2; }
  set -- "$(basename "$last" .tsv)"
  echo "(lesson ${1%%-*}, the one checked last; make hint LESSON=N for another)"
fi
[ $# -eq 1 ] || { echo "usage: make hint LESSON=N" >&2; exit 2; }
id=$(lesson_resolve "$1") || exit 2
results=${WB_BUILD:-$WB_ROOT/build}/results/$id.tsv

[ -f "$results" ] || echo "(lesson ${id%%-*} was not graded yet: every step's hint follows; make check LESSON=$((10#${id%%-*})) grades it)"
shown=0
while IFS=$'\t' read -r n name _points hint; do
  status=$(awk -F '\t' -v n="$n" '$1 == n { print $2 }' "$results" 2>/dev/null || true)
  [ "$status" = passed ] && continue
  printf '\nstep %s: %s%s\n' "$n" "$name" "${status:+ ($status)}"
  printf '%s\n' "$hint" | fold -s -w 96 | sed 's/^/  /'
  shown=$((shown + 1))
done < <(steps_of "$id")
[ "$shown" -gt 0 ] || echo "every step of lesson ${id%%-*} passed at the last check: nothing to hint"
echo
echo "The chapter explains each step: lessons/$id.md (or make book)."
