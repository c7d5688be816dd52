#!/usr/bin/env bash
# Grades a whole class: CLASS_DIR holds one folder per student, each laid out like exercises/
# (NN-slug/ folders). Writes build/class/scores.csv, one row per student, lesson and step, ready to
# upload, and prints each student's total.
#   grade-class.sh CLASS_DIR [LESSON] [--unsafe]
# Students' code runs in the sandbox (grader/lib/sandbox.sh); where there is none, grading a class is
# refused unless --unsafe says that its code may read and write whatever the grader can.
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"
# shellcheck source=grader/lib/sandbox.sh
. "$WB_ROOT/grader/lib/sandbox.sh"
unsafe=0 args=()
for a in "$@"; do
  if [ "$a" = --unsafe ]; then unsafe=1; else args+=("$a"); fi
done
set -- "${args[@]}"
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: make grade CLASS=DIR [LESSON=N] [UNSAFE=1]   (DIR/STUDENT/NN-slug/...)" >&2
  exit 2
fi
if ! sandbox_available && [ "$unsafe" = 0 ]; then
  echo "error: no sandbox here ($WB_SANDBOX_WHY): a class's code would run with the grader's rights; make grade UNSAFE=1 grades anyway" >&2
  exit 2
fi

# csv_field TEXT: TEXT as one CSV field (RFC 4180): quoted, its quotes doubled, when it needs it.
csv_field() {
  case $1 in
    *[\",$'\n'$'\r']* | " "* | *" ") printf '"%s"' "${1//\"/\"\"}" ;;
    *) printf '%s' "$1" ;;
  esac
}
class=$(cd "$1" && pwd)
lesson=()
[ -z "${2:-}" ] || lesson=("$2")
out=$WB_ROOT/build/class
rm -rf "$out" && mkdir -p "$out"
csv=$out/scores.csv
echo "student,lesson,step,status,points,max_points" >"$csv"

for dir in "$class"/*/; do
  student=$(basename "$dir")
  log=$out/$student.log
  "$WB_ROOT/grader/check.sh" "${lesson[@]}" --submission "$dir" --results "$out/$student" --work "$out/work/$student" \
    >"$log" 2>&1 || true
  got=0 max=0
  for tsv in "$out/$student"/*.tsv; do
    [ -e "$tsv" ] || continue
    id=$(basename "$tsv" .tsv)
    while IFS=$'\t' read -r step status points max_points _name _reason; do
      printf '%s,%s,%s,%s,%s,%s\n' "$(csv_field "$student")" "$id" "$step" "$status" "$points" "$max_points" >>"$csv"
      got=$((got + points))
      [ "$status" = needs-gpu ] || max=$((max + max_points))
    done <"$tsv"
  done
  printf '%-24s %4s / %-4s points   (report: %s)\n' "$student" "$got" "$max" "${log#"$WB_ROOT"/}"
done
rm -rf "$out/work"
echo "scores: ${csv#"$WB_ROOT"/}"
