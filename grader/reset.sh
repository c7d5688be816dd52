#!/usr/bin/env bash
# Restores a lesson's pristine skeleton, after saving the student's version under build/backups/.
#   reset.sh LESSON
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"
[ $# -eq 1 ] || { echo "usage: make reset LESSON=N" >&2; exit 2; }
id=$(lesson_resolve "$1") || exit 2
cd "$WB_ROOT"

# shellcheck source=grader/lib/pristine.sh
. "$WB_ROOT/grader/lib/pristine.sh"

# The pristine skeleton: in the student release, its pristine copy (make dist ships one; in a course repository
# made from the release, git's refs hold the student's own pushes, not the skeleton); in the workbook's own
# repository, git's version: the one you cloned (origin), else the last commit.
ref=""
if [ -f "$PRISTINE_TAR" ] && tar -tzf "$PRISTINE_TAR" "exercises/$id/" >/dev/null 2>&1; then
  ref=$PRISTINE_TAR
else
  for candidate in origin/HEAD origin/main HEAD; do
    if git rev-parse --verify -q "$candidate^{commit}" >/dev/null 2>&1 &&
      git cat-file -e "$candidate:./exercises/$id" 2>/dev/null; then
      ref=$candidate
      break
    fi
  done
fi
[ -n "$ref" ] || { echo "error: no pristine copy of exercises/$id to restore (no $PRISTINE_TAR, and git has none)" >&2; exit 1; }

backup=build/backups/$id-$(date +%Y%m%d-%H%M%S)
mkdir -p "$backup"
cp -R "exercises/$id/." "$backup/"
if [ "$ref" = "$PRISTINE_TAR" ]; then
  tar -xzf "$PRISTINE_TAR" "exercises/$id/"
else
  git checkout "$ref" -- "exercises/$id"
fi
echo "saved your version in $backup/"
echo "restored exercises/$id/ from $ref"
