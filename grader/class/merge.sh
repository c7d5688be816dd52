#!/usr/bin/env bash
# Ends a class's run once every grading has: students.tsv from each student's folder, every output
# (outputs.sh), run.log, the "latest" link, and each student's total on stdout. grade-class.sh runs it after
# its own gradings; with SCHEDULER=slurm, it is the job that waits for the array's tasks (afterany).
#   merge.sh RUN WORK TITLE   (RUN/students.list: FOLDER NUL ENTRY NUL per student; WORK: where each
#                              grading's stderr went, WORK/FOLDER.err)
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WB_BUILD=${WB_BUILD:-$WB_ROOT/build}
cls=$WB_ROOT/grader/class
# shellcheck source=grader/class/progress.sh
. "$cls/progress.sh"
out=$1 work=$2 title=$3
parent=$(dirname "$out")
folders=() entries=()
while IFS= read -r -d '' f && IFS= read -r -d '' e; do folders+=("$f") entries+=("$e"); done <"$out/students.list"

# Each student's name, as bytes (a grading that failed early wrote none: the entry's name then).
names=()
for i in "${!folders[@]}"; do
  names[i]=${entries[i]##*/}
  [ ! -f "$out/${folders[i]}/name" ] || IFS= read -r -d '' "names[i]" <"$out/${folders[i]}/name" || true
done

# Only submissions are students: an entry that holds no lesson (a notes file, a folder of other things) is
# listed apart, in not-submissions.tsv and on class.html, with why; it has no row and is in no statistic. An
# upload (a course platform's, one student) keeps its row: its platform must be told the score and why.
# The outputs, all from one table: students.tsv and each student's results become class.tsv (outputs.sh).
declare -A apart=()
: >"$out/not-submissions.tsv"
for i in "${!folders[@]}"; do
  f=${folders[i]}
  state=$(cat "$out/$f/state" 2>/dev/null || echo not-graded) reason=""
  [ "$state" != not-graded ] || reason=$(cat "$out/$f/reason" 2>/dev/null || echo "the grading did not finish (see run.log)")
  if [ "$state" = not-graded ] && [ -z "${WB_CLASS_UPLOAD:-}" ] &&
    [[ $reason == "nothing lesson-shaped"* || $reason == "not a folder, .tar"* ]]; then
    apart[$f]=1
    printf '%s\t%s\t%s\n' "$f" "$(tsv_escape "${names[i]}")" "$(tsv_escape "$reason")" >>"$out/not-submissions.tsv"
    continue
  fi
  printf '%s\t%s\t%s\t%s\n' "$f" "$(tsv_escape "${names[i]}")" "$state" "$(tsv_escape "$reason")"
done >"$out/students.tsv"
"$cls/outputs.sh" "$out" "$title"
for i in "${!folders[@]}"; do
  f=${folders[$i]}
  printf '%s\t%s\t%s\n' "$f" "$(tsv_escape "${names[i]}")" "$(cat "$out/$f/log" 2>/dev/null || head -c 300 "$work/$f.err")"
done >"$out/run.log"
# latest: a link to this run, among its class's runs (build/class/CLASS/, class_runs), or beside an OUT=DIR
# whose parent holds other runs already (a parent that is not a folder of runs gets no link). A class's
# runs folder also gets the course gradebook, every run merged (course.sh).
course=0
[ ! -f "$parent/class-path" ] || course=1
if [ ! -e "$parent/latest" ] || [ -L "$parent/latest" ]; then
  if [ "$course" = 1 ] || [ -L "$parent/latest" ] ||
    [ "$(find "$parent" -mindepth 2 -maxdepth 2 -name steps.tsv -printf x | wc -c)" -ge 2 ]; then
    ln -sfn "$(basename "$out")" "$parent/latest"
  fi
fi

# Each student's total, as before; then where everything is.
declare -A got=() max=()
while IFS=$'\t' read -r f g m; do got[$f]=$g max[$f]=$m; done < <(
  LC_ALL=C awk -F '\t' '{ t[$1] += $7; m[$1] += $8 } END { for (f in t) print f "\t" t[f] "\t" m[f] }' "$out/class.tsv")
for i in "${!folders[@]}"; do
  f=${folders[i]}
  if [ -n "${apart[$f]:-}" ]; then
    printf '%-24s not a submission, not counted   (why: %s)\n' "$(shown "${names[i]}")" "${out#"$WB_ROOT"/}/$f/report.txt"
    continue
  fi
  printf '%-24s %4s / %-4s points   (report: %s)\n' "$(shown "${names[i]}")" "${got[$f]}" "${max[$f]}" "${out#"$WB_ROOT"/}/$f/report.txt"
done
echo "scores: ${out#"$WB_ROOT"/}/scores.csv, gradebook.csv, class.html"
[ "$course" = 0 ] || WB_ROOT=$WB_ROOT "$cls/course.sh" "$parent"
