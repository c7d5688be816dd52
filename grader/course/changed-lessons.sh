#!/usr/bin/env bash
# The lessons a push changed, for a course repository's workflow (make dist's .github/workflows/check.yml,
# which grades each of them in a job of its own): a JSON list of lesson numbers on stdout, ["01","03"], or [].
#   changed-lessons.sh [BASE]   BASE: the commit the push or pull request starts from; the lessons whose
#                               exercise files differ between it and HEAD
# Without a BASE this clone knows (a new branch, the first push, a manual run: GitHub gives zeros or
# nothing), the lessons the student has begun: those whose exercise files differ from the release's
# (pristine.tar.gz), or, without one, every lesson. An untouched skeleton is not graded: it would only fail.
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"
# shellcheck source=grader/lib/pristine.sh
. "$WB_ROOT/grader/lib/pristine.sh"
cd "$WB_ROOT"
base=${1:-}
nums=()
if [[ $base =~ ^[0-9a-f]{7,64}$ && ! $base =~ ^0+$ ]] && git cat-file -e "$base^{commit}" 2>/dev/null; then
  mapfile -t nums < <(git diff --name-only "$base" HEAD -- exercises/ | sed -n 's|^exercises/\([0-9][0-9]\)-[^/]*/.*|\1|p' | sort -u)
elif [ -f "$PRISTINE_TAR" ]; then
  released=$(mktemp -d)
  trap 'rm -rf "$released"' EXIT
  tar -C "$released" -xzf "$PRISTINE_TAR" exercises
  for id in $(lesson_ids); do
    diff -rq "$released/exercises/$id" "exercises/$id" >/dev/null 2>&1 || nums+=("${id%%-*}")
  done
else
  for id in $(lesson_ids); do nums+=("${id%%-*}"); done
fi
# only lessons that exist (a folder removed or renamed is no lesson to grade)
out=()
for n in "${nums[@]}"; do lesson_resolve "$n" >/dev/null 2>&1 && out+=("\"$n\""); done
(IFS=,; printf '[%s]\n' "${out[*]}")
