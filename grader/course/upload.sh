#!/usr/bin/env bash
# Grades one student's upload, as a course platform hands it over, into one results file: make grade's
# pipeline (grader/grade-class.sh) on a class of one, so that the file is the one its writers wrote
# (FOLDER/results.json for Gradescope, FOLDER/prairielearn.json for PrairieLearn; grader/class/*.awk).
#   upload.sh gradescope|prairielearn SUBMISSION RESULT_FILE [LESSON]
# SUBMISSION is a folder: the NN-slug/ folders (at its top or in the one folder that wraps them; a git
# work tree is graded as its files are), or the exercise files loose (alloc.cu, copies.cu, ...: each is
# put in its lesson's folder by its name; the shallowest of a name wins). Without a sandbox here (a
# container without user namespaces) the student's code runs with the grader's rights: the platform's
# container, one per upload, is then the only wall, and this says so in the grading's output.
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export WB_ROOT
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"
format=$1 sub=$2 result=$3 lesson=${4:-}
case $format in gradescope) file=results.json ;; prairielearn) file=prairielearn.json ;;
  *) echo "usage: upload.sh gradescope|prairielearn SUBMISSION RESULT_FILE [LESSON]" >&2; exit 2 ;; esac
mkdir -p "$(dirname "$result")"
work=$(mktemp -d "${TMPDIR:-/tmp}/cudawb-upload.XXXXXX")
trap 'rm -rf "$work"' EXIT

# fail WHY: a results file that says the grading itself failed (the platform shows it; no points).
fail() {
  echo "error: $1" >&2
  # (awk's program from stdin: with -f escape.awk, a program on the command line would be read as a file.)
  WHY="the autograder failed: $1" LC_ALL=C awk -v f="$format" -f "$WB_ROOT/grader/class/escape.awk" -f /dev/stdin >"$result" <<'AWK'
BEGIN {
  m = json(ENVIRON["WHY"])
  if (f == "gradescope") printf "{\"score\": 0, \"output\": %s, \"tests\": []}\n", m
  else printf "{\"gradable\": false, \"score\": 0, \"message\": %s, \"output\": %s, \"tests\": []}\n", m, m
}
AWK
  exit 0
}
[ -d "$sub" ] || fail "the submission $sub is not a folder"
[ -z "$lesson" ] || lesson_resolve "$lesson" >/dev/null 2>&1 || fail "there is no lesson $lesson"

unsafe=()
# shellcheck source=grader/lib/sandbox.sh
if ! (. "$WB_ROOT/grader/lib/sandbox.sh" && sandbox_available); then
  echo "note: no sandbox here: the student's code runs with the grader's rights (the platform's container is the only wall)"
  unsafe=(--unsafe)
fi
# The class of one: the upload, read inside the sandbox like any class entry (grader/class/unpack.sh, with
# its limits), lesson-shaped as it is, else its loose files put in their lessons' folders by name.
# --no-reuse: an upload is always graded; nothing is ever taken as an earlier result (the upload may carry
# files named like one).
if ! "$WB_ROOT/grader/grade-class.sh" --upload "$sub" ${lesson:+"$lesson"} --jobs 1 --no-reuse --out "$work/run" "${unsafe[@]}" 2>"$work/err"; then
  cat "$work/err" >&2
  fail "make grade stopped: $(grep -v '^\[' "$work/err" | tail -n 2 | tr '\n' ' ')"
fi
cat "$work/err" >&2
out=$(find "$work/run" -mindepth 2 -maxdepth 2 -name "$file" -print -quit)
[ -n "$out" ] || fail "make grade wrote no $file"
cp "$out" "$result"
# The student's report, for the platform's log.
cat "$(dirname "$out")/report.txt"
