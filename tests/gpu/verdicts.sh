#!/usr/bin/env bash
# verdicts.sh BACKEND OUTFILE [JOBS] [LESSON...]: grades every lesson's solution, skeleton, known-wrong variants
# (tests/variants/) and rewrites (tests/rewrites/) whole, as make check does, JOBS at a time (default: the
# number of CPUs), and writes one line per submission to OUTFILE, sorted:
#   LESSON <tab> solution|skeleton|variant|rewrite <tab> NAME <tab> expected step <tab> failed steps <tab> needs-gpu steps
# Run it on each backend and compare the two files with compare-verdicts.sh: the issue asks for the same lists
# of failed steps on the GPU as on the CPU backend. REGRADE=FILE grades only the "LESSON kind NAME" lines of
# FILE (with JOBS 1, alone: gradings that share a GPU can disturb each other's memory fill). REPORTS=DIR keeps
# each grading's report there as LESSON.KIND.NAME.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
backend=${1:?usage: verdicts.sh cpu|gpu OUTFILE [JOBS] [LESSON...]}
outfile=${2:?usage: verdicts.sh cpu|gpu OUTFILE [JOBS] [LESSON...]}
jobs=${3:-$(nproc)}
shift $(($# < 3 ? $# : 3))
# shellcheck source=grader/lib/lessons.sh
. "$root/grader/lib/lessons.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# one LESSON KIND NAME: grades one submission in its own folder and prints its verdict line.
one() {
  local id=$1 kind=$2 name=$3 dir expected='' patch=''
  dir=$(mktemp -d "$scratch/g.XXXXXX")
  mkdir -p "$dir/sub/$id"
  case $kind in
    skeleton) cp "$root/exercises/$id"/* "$dir/sub/$id/" ;;
    solution) cp "$root/solutions/$id"/* "$dir/sub/$id/" ;;
    variant | rewrite)
      patch=$root/tests/${kind}s/$id/$name.patch
      cp "$root/solutions/$id"/* "$dir/sub/$id/"
      patch --quiet -p1 -d "$dir/sub/$id" <"$patch" || { printf '%s\t%s\t%s\t\tcannot apply\t\n' "$id" "$kind" "$name"; return; }
      [ "$kind" = rewrite ] || expected=$(sed -n 's/^Fails at: step \([0-9]*\).*/\1/p' "$patch" | head -n 1) ;;
  esac
  "$root/grader/check.sh" "$id" --submission "$dir/sub" --backend "$backend" --work "$dir/work" \
    --results "$dir/results" >"$dir/log" 2>&1
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$kind" "$name" "$expected" \
    "$(awk -F '\t' '$2 == "failed" { printf "%s%s", s, $1; s = " " }' "$dir/results/$id.tsv" 2>/dev/null)" \
    "$(awk -F '\t' '$2 == "needs-gpu" { printf "%s%s", s, $1; s = " " }' "$dir/results/$id.tsv" 2>/dev/null)"
  [ -z "${REPORTS:-}" ] || cp "$dir/log" "$REPORTS/$id.$kind.$name.txt"
  rm -rf "$dir"
}
export -f one
export root backend scratch

list=$scratch/list
if [ -n "${REGRADE:-}" ]; then
  cut -f1-3 "$REGRADE" >"$list"
else
  ids=("$@")
  [ ${#ids[@]} -gt 0 ] || mapfile -t ids < <(lesson_ids)
  for id in "${ids[@]}"; do
    printf '%s\tsolution\t-\n%s\tskeleton\t-\n' "$id" "$id"
    for kind in variant rewrite; do
      for patch in "$root/tests/${kind}s/$id"/*.patch; do
        [ -e "$patch" ] && printf '%s\t%s\t%s\n' "$id" "$kind" "$(basename "$patch" .patch)"
      done
    done
  done >"$list"
fi
# Lines land in OUTFILE.part as gradings end, so that a run cut short still leaves what it graded.
tr '\t' '\n' <"$list" | xargs -d '\n' -n 3 -P "$jobs" bash -c 'one "$@"' one >"$outfile.part"
sort "$outfile.part" >"$outfile" && rm -f "$outfile.part"
echo "$(wc -l <"$outfile") submissions graded on the $backend backend into $outfile"
