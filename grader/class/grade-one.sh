#!/usr/bin/env bash
# Grades one student of a class into RUN/FOLDER/, on its own (its own work and results folders), so that
# several run at once. Writes there:
#   name        the student's name, as bytes (the entry's name minus its archive extension)
#   entry       the entry's file name in the class folder
#   state       graded, reused (an earlier run's results for an identical hash) or not-graded
#   reason      why not graded (not-graded only)
#   results/    check.sh's NN-slug.tsv files;  report.txt  what check.sh printed
#   seal        the result's HMAC (seal.py), keyed with the instructor's secret: only a sealed result is
#               ever reused
#   hash        the submission's lesson files and the grader's, hashed (written last: its presence says
#               that the results beside it are complete)
#   log         one line: how these results were made ("graded", "reused from RUN/FOLDER")
#   fingerprints  per lesson, what the student wrote once comments, layout and names are set aside
#               (similarity.py), for merge.sh's list of identical submissions
#   grade-one.sh [--refuse REASON] ENTRY RUN FOLDER [LESSON]   (LESSON as check.sh takes it; none: every
#                lesson; --refuse: not graded, for REASON)
# A FOLDER that has a state already (refused by grade-class.sh before the gradings) is left as it is.
# Environment: WB_CLASS_IDS (the lesson ids graded), WB_CLASS_BACKEND (gpu or cpu), WB_CLASS_GRADER_HASH
# (hashes.sh grader), WB_CLASS_WORK (the run's work area), WB_CLASS_PARENT (where earlier runs are),
# WB_CLASS_KEY (the key that seals results), WB_CLASS_FORCE=1 (grade again even when unchanged),
# WB_CLASS_UPLOAD=1 (the entry is a course platform's upload: a folder not lesson-shaped is read for the
# lessons' files by name), WB_ALLOW (what the policy on lesson code lets through, for the whole class).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=grader/class/names.sh
. "$here/names.sh"
refuse=""
[ "$1" != --refuse ] || { refuse=$2; shift 2; }
entry=$1 run=$2 folder=$3
shift 3
out=$run/$folder work=$WB_CLASS_WORK/$folder
[ ! -e "$out/state" ] || exit 0
mkdir -p "$out" "$work"
base=${entry##*/}
name=$(student_name "$base")
printf '%s' "$name" >"$out/name"
printf '%s' "$base" >"$out/entry"

# not_graded: the folder says why not (the first line of $out/reason), and the grading ends.
not_graded() {
  echo not-graded >"$out/state"
  [ -s "$out/reason" ] || echo "could not be unpacked" >"$out/reason"
  head -n 1 "$out/reason" | tr -d '\r' >"$out/reason.tmp" && mv "$out/reason.tmp" "$out/reason"
  printf 'not graded: %s\n' "$(cat "$out/reason")" >"$out/report.txt"
  echo "not graded: $(cat "$out/reason")" >"$out/log"
  rm -rf "$work"
  exit 0
}
[ -z "$refuse" ] || { printf '%s\n' "$refuse" >"$out/reason"; not_graded; }
# The lessons' own files, ID/FILE: what an upload is read for, and what similarity.py fingerprints.
# shellcheck source=grader/lib/lessons.sh
. "$here/../lib/lessons.sh"
# shellcheck disable=SC2086 # ids are words
mapfile -t sources < <(lesson_source_paths $WB_CLASS_IDS)
wanted=()
[ -z "${WB_CLASS_UPLOAD:-}" ] || wanted=("${sources[@]}")
unpacked=0
root=$("$here/unpack.sh" "$entry" "$work/submission" "${wanted[@]}" 2>"$out/reason") || unpacked=$?
if [ "$unpacked" -ne 0 ]; then
  # unpack.sh says why in one line; should it stop without a word, its status is the clue.
  [ -s "$out/reason" ] || echo "could not be unpacked (unpack.sh stopped with status $unpacked, saying nothing)" >"$out/reason"
  not_graded
fi
root=${root%/}
# shellcheck disable=SC2086 # ids are words
sub=$("$here/hashes.sh" submission "$root" $WB_CLASS_IDS)
# What the student wrote, fingerprinted lesson by lesson (similarity.py): merge.sh lists the submissions
# that are the same once comments, layout and names are set aside.
/usr/bin/python3 -I "$here/similarity.py" "$root" "$here/../../exercises" "${sources[@]}" >"$out/fingerprints" 2>/dev/null ||
  : >"$out/fingerprints"
hash=$(printf '%s %s\n' "$sub" "$WB_CLASS_GRADER_HASH" | sha256sum | cut -c 1-64)
seal() { /usr/bin/python3 -I "$here/seal.py" "$@"; }

# Earlier results of an identical submission with the same grader, newest first (by their hash file,
# written when they were complete), the student's own before a classmate's: looked for only in the
# instructor's own runs, the folders beside this run that grade-class.sh made (its steps.tsv and
# students.list are there), and in them only in the students' folders it listed; never in the class
# folder, in a folder that holds it or is inside it, nor in this run. Nothing a submission carries is read
# as a result; a hash file alone proves nothing (anyone can compute one), the seal does. The class folder
# and the runs' parent are compared as the file system has them, links resolved.
class=$(cd "$(dirname "$entry")" && pwd -P) parent=$(cd "$WB_CLASS_PARENT" && pwd -P)
candidates() {
  local r f h line
  case $parent/ in "$class"/*) return 0 ;; esac
  for r in "$parent"/*; do
    if [ "$r" -ef "$run" ] || [ -L "$r" ] || [ ! -d "$r" ] || [ ! -f "$r/steps.tsv" ] || [ ! -f "$r/students.list" ]; then
      continue
    fi
    case $r/ in "$class"/*) continue ;; esac
    case $class/ in "$r"/*) continue ;; esac
    while IFS= read -r -d '' f && IFS= read -r -d '' _; do
      h=$r/$f/hash line=""
      if [[ $f =~ ^[A-Za-z0-9_][A-Za-z0-9_-]*$ ]] && [ -f "$h" ] && [ ! -L "$h" ]; then IFS= read -r line <"$h" || true; fi
      [ "$line" != "$hash" ] || printf '%s %s %s\n' "$([ "$f" = "$folder" ] && echo 1 || echo 0)" "$(stat -c %Y "$h")" "$r/$f"
    done <"$r/students.list"
  done | LC_ALL=C sort -k 1,1nr -k 2,2nr
}
# The first candidate whose seal verifies, checked on its copy in $out/earlier (seal.py take); the others
# are ignored, and the log says so.
from="" ignored=""
if [ "${WB_CLASS_FORCE:-0}" != 1 ]; then
  while read -r _ _ f; do
    if why=$(seal take "$WB_CLASS_KEY" "$f" "$out/earlier" "$sub" "$WB_CLASS_GRADER_HASH" 2>&1); then
      from=$f
      break
    fi
    ignored="$ignored; ignored ${f#"$parent"/}: $(head -n 1 <<<"$why")"
  done < <(candidates)
fi
# in_report FROM TO: the report with every FROM replaced by TO, as text.
in_report() {
  FROM=$1 TO=$2 LC_ALL=C awk '{ out = ""; while ((i = index($0, ENVIRON["FROM"])) > 0) {
      out = out substr($0, 1, i - 1) ENVIRON["TO"]; $0 = substr($0, i + length(ENVIRON["FROM"])) }; print out $0 }' \
    "$out/report.txt" >"$out/report.tmp" && mv "$out/report.tmp" "$out/report.txt"
}
if [ -n "$from" ]; then
  rm -rf "$out/results"
  mv "$out/earlier/results" "$out/results"
  mv "$out/earlier/report.txt" "$out/report.txt"
  # Another student's identical files: the report names this one's entry.
  prev=$(cat "$out/earlier/entry")
  rm -rf "$out/earlier"
  [ -z "$prev" ] || [ "$prev" = "$base" ] || in_report "$prev/" "$base/"
  echo reused >"$out/state"
  printf 'reused from %s (identical hash %s%s)\n' "${from#"$parent"/}" "${hash:0:12}" "$ignored" >"$out/log"
else
  rm -rf "$out/results"
  mkdir -p "$out/results"
  "$WB_ROOT/grader/check.sh" "$@" --submission "$root" --results "$out/results" --work "$work/grading" \
    --backend "$WB_CLASS_BACKEND" --allow "${WB_ALLOW:-}" >"$out/report.txt" 2>&1 </dev/null || true
  # The report names the student's entry, not the work area it was unpacked into.
  in_report "$root/" "$base/"
  echo graded >"$out/state"
  printf 'graded (hash %s%s)\n' "${hash:0:12}" "$ignored" >"$out/log"
fi
rm -rf "$work"
seal sign "$WB_CLASS_KEY" "$out" "$sub" "$WB_CLASS_GRADER_HASH"
printf '%s\n' "$hash" >"$out/hash"
