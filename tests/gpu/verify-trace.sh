#!/usr/bin/env bash
# On a GPU machine, in one call of under ten minutes: every lesson's solution and skeleton (one after the
# other: two steps time the GPU), then every known-wrong variant and correct rewrite, eight at a time (VT_JOBS) (their
# verdicts do not depend on timing): one line each, with the step it must fail (or "every step") and
# what the grader said. verify-trace.sh OUTDIR [LESSON...]; writes OUTDIR/trace.log (and OUTDIR/parallel.raw as verdicts
# come, so a run cut short keeps what it had). VT_ONLY=variants leaves out the solutions and skeletons. VT_BACKEND=cpu
# runs the same on the CPU backend, for comparison. VT_ONLY=solutions grades the solutions alone (a call's time
# goes to what a student must never see fail); VT_MATCH=REGEX keeps only the variants and rewrites whose
# path matches it.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: verify-trace.sh OUTDIR [LESSON...]}
shift
mkdir -p "$out"
cd "$root" || exit 1
export WB_NO_INSTALL=1
# the Bats and bubblewrap tests/gpu/pack-tools.sh packed, where they were carried to a machine without them
if [ -d "$root/.tools" ]; then
  export PATH=$root/.tools/bats/bin:$root/.tools/bin:$PATH BATS_LIB_PATH=$root/.tools/bats/lib/bats
fi
# shellcheck source=grader/lib/lessons.sh
. grader/lib/lessons.sh
ids=$(lesson_ids)
[ $# -eq 0 ] || ids=$(for l in "$@"; do lesson_resolve "$l"; done)

# one KIND PATCH: grades the solution with PATCH applied; prints its verdict line.
one() {
  local kind=$1 patch=$2 id name step dir verdict
  id=$(basename "$(dirname "$patch")") name=$(basename "$patch" .patch)
  dir=$(mktemp -d /tmp/vt.XXXXXX)
  mkdir -p "$dir/sub/$id" && cp solutions/"$id"/* "$dir/sub/$id/"
  patch -s -p1 -d "$dir/sub/$id" <"$patch"
  grader/check.sh "$id" --submission "$dir/sub" --backend "${VT_BACKEND:-gpu}" --work "$dir/w" --results "$dir/r" >/dev/null 2>&1
  if [ "$kind" = variants ]; then
    step=$(sed -n 's/^Fails at: step \([0-9]*\).*/\1/p' "$patch" | head -n 1)
    verdict="must fail step $step: $(awk -F '\t' -v n="$step" '$1 == n { print $2 }' "$dir/r/$id.tsv")"
  else
    verdict="must pass every step: $(awk -F '\t' '$2 != "passed" { printf "step %s %s; ", $1, $2 }' "$dir/r/$id.tsv")"
  fi
  printf '%s %s %s, %s (steps failed: %s)\n' "$id" "${kind%s}" "$name" "$verdict" \
    "$(awk -F '\t' '$2 == "failed" { printf "%s ", $1 }' "$dir/r/$id.tsv")"
  rm -rf "$dir"
}
export -f one

{
  for id in $ids; do
    [ "${VT_ONLY:-}" != variants ] || break
    for from in solutions exercises; do
      [ "${VT_ONLY:-}" != solutions ] || [ "$from" = solutions ] || continue
      grader/check.sh "$id" --submission "$from" --backend "${VT_BACKEND:-gpu}" --work "/tmp/vt-$from" --results "/tmp/vt-r-$from" |
        tee "$out/$id-$from.report" | tail -n 1 | sed "s|^|$from: |"
      # A solution's failed step, with what the grader said (the reason is the tsv's last field).
      [ "$from" = exercises ] || awk -F '\t' '$2 == "failed" { print "  step " $1 ": " $NF }' "/tmp/vt-r-$from/$id.tsv"
    done
  done
  for id in $ids; do
    [ "${VT_ONLY:-}" != solutions ] || break
    for kind in variants rewrites; do
      for patch in tests/"$kind"/"$id"/*.patch; do
        [ -e "$patch" ] && [[ $patch =~ ${VT_MATCH:-.} ]] && echo "$kind $patch"
      done
    done
  done | xargs -r -P "${VT_JOBS:-8}" -L 1 bash -c "one \"\$0\" \"\$1\"" | tee "$out/parallel.raw" | sort >"$out/parallel.log"
  # Eight at a time, a step that times the GPU can fail for the load alone: a verdict with more failed
  # steps than its one (or any, for a rewrite) is graded again alone, and that verdict is the one kept.
  while IFS= read -r line; do
    read -r id kind name _ <<<"$line"
    name=${name%,}
    step=$(sed -n 's/.*must fail step \([0-9]*\):.*/\1/p' <<<"$line")
    failed=$(sed -n 's/.*(steps failed: \(.*\))$/\1/p' <<<"$line")
    if { [ "$kind" = variant ] && [ "$failed" = "$step " ]; } || { [ "$kind" = rewrite ] && [ -z "$failed" ]; }; then
      echo "$line"
    else
      echo "$(one "${kind}s" "tests/${kind}s/$id/$name.patch") (graded alone)"
    fi
  done <"$out/parallel.log"
} >"$out/trace.log" 2>&1
# The device tool brings back a few files from a run: the full reports travel as one archive.
(cd "$out" && ls ./*.report >/dev/null 2>&1 && tar czf reports.tgz ./*.report && rm -f ./*.report)
cat "$out/trace.log"
