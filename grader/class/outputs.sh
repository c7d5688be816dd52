#!/usr/bin/env bash
# Writes a graded class's outputs into RUN from RUN/steps.tsv and RUN/students.tsv (and each student's
# results): class.tsv (collect.awk), then scores.csv, gradebook.csv, each FOLDER/results.json (Gradescope),
# FOLDER/junit.xml and FOLDER/prairielearn.json, and class.html, all from class.tsv; similar.csv from
# similar.tsv (class.html also lists the entries that are not submissions, RUN/not-submissions.tsv, apart,
# and the identical submissions, RUN/similar.tsv).
#   outputs.sh RUN TITLE
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$1
a=(env LC_ALL=C WB_CLASS_RUN="$run" WB_CLASS_TITLE="$2" awk -f "$here/escape.awk")
[ -f "$run/similar.tsv" ] || : >"$run/similar.tsv" # a run merged before make grade listed them
"${a[@]}" -f "$here/collect.awk" "$run/steps.tsv" "$run/students.tsv" >"$run/class.tsv"
"${a[@]}" -f "$here/scores.awk" "$run/class.tsv" >"$run/scores.csv"
"${a[@]}" -f "$here/gradebook.awk" "$run/class.tsv" >"$run/gradebook.csv"
"${a[@]}" -f "$here/gradescope.awk" "$run/class.tsv"
"${a[@]}" -f "$here/junit.awk" "$run/class.tsv"
"${a[@]}" -f "$here/prairielearn.awk" "$run/students.tsv" "$run/class.tsv"
"${a[@]}" -f "$here/similar.awk" "$run/similar.tsv" >"$run/similar.csv"
WB_CLASS_APART=$run/not-submissions.tsv WB_CLASS_SIMILAR=$run/similar.tsv "${a[@]}" -f "$here/html.awk" "$run/class.tsv" >"$run/class.html"
