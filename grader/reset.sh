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

# The pristine skeleton is the workbook's own version: the one you cloned (origin), else the last commit.
ref=""
for candidate in origin/HEAD origin/main HEAD; do
  if git rev-parse --verify -q "$candidate^{commit}" >/dev/null 2>&1 &&
    git cat-file -e "$candidate:exercises/$id" 2>/dev/null; then
    ref=$candidate
    break
  fi
done
[ -n "$ref" ] || { echo "error: git has no pristine copy of exercises/$id to restore" >&2; exit 1; }

backup=build/backups/$id-$(date +%Y%m%d-%H%M%S)
mkdir -p "$backup"
cp -R "exercises/$id/." "$backup/"
git checkout "$ref" -- "exercises/$id"
echo "saved your version in $backup/"
echo "restored exercises/$id/ from $ref"
