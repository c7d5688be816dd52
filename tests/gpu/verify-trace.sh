#!/usr/bin/env bash
# On a GPU machine: the trace's share of issue 7's verification, in one call of under ten minutes:
# every lesson's solution and skeleton (make check), then each lesson's known-wrong variants, one line
# per variant: the step it must fail and what the grader said of that step. Writes OUTDIR/trace.log.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: verify-trace.sh OUTDIR}
mkdir -p "$out"
cd "$root" || exit 1
export PATH=$root/.tools/bats/bin:$root/.tools/bin:$PATH BATS_LIB_PATH=$root/.tools/bats/lib/bats WB_NO_INSTALL=1
# shellcheck source=grader/lib/lessons.sh
. grader/lib/lessons.sh
for id in $(lesson_ids); do
  for from in solutions exercises; do
    grader/check.sh "$id" --submission "$from" --backend gpu --work "/tmp/vt/$from" --results "/tmp/vt/r-$from" |
      tail -n 1 | sed "s|^|$from: |"
  done
  for patch in tests/variants/"$id"/*.patch; do
    step=$(sed -n 's/^Fails at: step \([0-9]*\).*/\1/p' "$patch" | head -n 1)
    rm -rf /tmp/vt/sub && mkdir -p /tmp/vt/sub/"$id" && cp solutions/"$id"/* /tmp/vt/sub/"$id"/
    patch -s -p1 -d /tmp/vt/sub/"$id" <"$patch"
    grader/check.sh "$id" --submission /tmp/vt/sub --backend gpu --work /tmp/vt/w --results /tmp/vt/r >/dev/null 2>&1
    printf '%s %s: must fail step %s; step %s %s\n' "$id" "$(basename "$patch" .patch)" "$step" "$step" \
      "$(awk -F '\t' -v n="$step" '$1 == n { print $2 }' /tmp/vt/r/"$id".tsv)"
  done
done >"$out/trace.log" 2>&1
cat "$out/trace.log"
