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
# Submissions that are the same, lesson by lesson, once comments, layout and names are set aside (each
# student's fingerprints, similarity.py), students only: similar.tsv (LESSON, the tokens they wrote, how
# many students, their names, "solution" when the reference solution is the same too) and class.html.
solution_fp=$(mktemp)
if [ -d "$WB_ROOT/solutions" ]; then
  # shellcheck source=grader/lib/lessons.sh
  . "$WB_ROOT/grader/lib/lessons.sh"
  # shellcheck disable=SC2046 # lesson ids are words
  mapfile -t sources < <(lesson_source_paths $(cut -f1 "$out/steps.tsv" | sort -u))
  /usr/bin/python3 -I "$cls/similarity.py" "$WB_ROOT/solutions" "$WB_ROOT/exercises" "${sources[@]}" >"$solution_fp" 2>/dev/null || true
fi
while IFS=$'\t' read -r f name _; do
  [ ! -f "$out/$f/fingerprints" ] || awk -F '\t' -v n="$name" '$2 != "-" && $2 != "" { print $1 "\t" $2 "\t" $3 "\t" n }' "$out/$f/fingerprints"
done <"$out/students.tsv" | LC_ALL=C sort -t $'\t' -k1,2 |
  LC_ALL=C awk -F '\t' -v sol="$solution_fp" 'BEGIN { while ((getline l < sol) > 0) { split(l, a, "\t"); s[a[1] "\t" a[2]] = 1 } }
    function group() { if (n >= 2) print les, tokens, n, names, ((les "\t" fp) in s) ? "solution" : "" }
    { OFS = "\t" }
    $1 != les || $2 != fp { group(); les = $1; fp = $2; tokens = $3; n = 0; names = "" }
    { n++; names = names (n > 1 ? ", " : "") $4 }
    END { group() }' >"$out/similar.tsv"
rm -f "$solution_fp"
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
