#!/usr/bin/env bash
# Grades one student of a class into RUN/FOLDER/, on its own (its own work and results folders), so that
# several run at once. Writes there:
#   name        the student's name, as bytes (the entry's name minus its archive extension)
#   entry       the entry's file name in the class folder
#   state       graded, reused (an earlier run's results for an identical hash) or not-graded
#   reason      why not graded (not-graded only)
#   hash        the submission's lesson files and the grader's, hashed (written last: its presence says
#               that the results beside it are complete)
#   results/    check.sh's NN-slug.tsv files;  report.txt  what check.sh printed
#   log         one line: how these results were made ("graded", "reused from RUN/FOLDER")
#   grade-one.sh [--refuse REASON] ENTRY RUN FOLDER [LESSON]   (LESSON as check.sh takes it; none: every
#                lesson; --refuse: not graded, for REASON)
# A FOLDER that has a state already (refused by grade-class.sh before the gradings) is left as it is.
# Environment: WB_CLASS_IDS (the lesson ids graded), WB_CLASS_BACKEND (gpu or cpu), WB_CLASS_GRADER_HASH
# (hashes.sh grader), WB_CLASS_WORK (the run's work area), WB_CLASS_PARENT (where earlier runs are),
# WB_CLASS_FORCE=1 (grade again even when unchanged).
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
root=$("$here/unpack.sh" "$entry" "$work/submission" 2>"$out/reason") || not_graded
root=${root%/}
# shellcheck disable=SC2086 # ids are words
hash=$("$here/hashes.sh" submission "$root" $WB_CLASS_IDS)
hash=$(printf '%s %s\n' "$hash" "$WB_CLASS_GRADER_HASH" | sha256sum | cut -c 1-64)

# The latest earlier run (the newest hash file: written when its results were complete) that graded an
# identical submission with the same grader; the "latest" link is not followed, this run is left out.
earlier="" same=""
if [ "${WB_CLASS_FORCE:-0}" != 1 ]; then
  while IFS= read -r line; do
    f=${line#* }
    case $f in "$run"/*) continue ;; esac
    earlier=$f
    [ "$(basename "$(dirname "$f")")" != "$folder" ] || same=$f
  done < <(find "$WB_CLASS_PARENT" -mindepth 3 -maxdepth 3 -type f -name hash -exec grep -lxF -- "$hash" {} + 2>/dev/null |
    while IFS= read -r f; do printf '%s %s\n' "$(stat -c %Y "$f")" "$f"; done | LC_ALL=C sort -n)
  # The same student's result, where an identical one is theirs.
  earlier=${same:-$earlier}
fi
# in_report FROM TO: the report with every FROM replaced by TO, as text.
in_report() {
  FROM=$1 TO=$2 LC_ALL=C awk '{ out = ""; while ((i = index($0, ENVIRON["FROM"])) > 0) {
      out = out substr($0, 1, i - 1) ENVIRON["TO"]; $0 = substr($0, i + length(ENVIRON["FROM"])) }; print out $0 }' \
    "$out/report.txt" >"$out/report.tmp" && mv "$out/report.tmp" "$out/report.txt"
}
if [ -n "$earlier" ]; then
  from=$(dirname "$earlier")
  rm -rf "$out/results"
  cp -R "$from/results" "$out/results"
  cp "$from/report.txt" "$out/report.txt"
  # Another student's identical files: the report names this one's entry.
  prev=$(cat "$from/entry" 2>/dev/null || true)
  [ -z "$prev" ] || [ "$prev" = "$base" ] || in_report "$prev/" "$base/"
  echo reused >"$out/state"
  printf 'reused from %s (identical hash %s)\n' "${from#"$WB_CLASS_PARENT"/}" "${hash:0:12}" >"$out/log"
else
  mkdir -p "$out/results"
  "$WB_ROOT/grader/check.sh" "$@" --submission "$root" --results "$out/results" --work "$work/grading" \
    --backend "$WB_CLASS_BACKEND" >"$out/report.txt" 2>&1 </dev/null || true
  # The report names the student's entry, not the work area it was unpacked into.
  in_report "$root/" "$base/"
  echo graded >"$out/state"
  printf 'graded (hash %s)\n' "${hash:0:12}" >"$out/log"
fi
rm -rf "$work"
printf '%s\n' "$hash" >"$out/hash"
