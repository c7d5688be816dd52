#!/usr/bin/env bash
# The student release's files, NUL-separated, relative to the workbook: everything the repository holds
# (git's tracked and not-ignored files; without git, every file but build/) except what gives the answers
# away: solutions/, and the known-wrong variants and correct rewrites of them (tests/variants/,
# tests/rewrites/). make dist and make gradescope ship exactly this list.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -z --cached --others --exclude-standard
else
  find . \( -path ./build -o -path ./.git \) -prune -o -type f -printf '%P\0'
fi | LC_ALL=C sort -zu | while IFS= read -r -d '' f; do
  case $f in solutions/* | tests/variants/* | tests/rewrites/*) continue ;; esac
  [ -f "$f" ] && printf '%s\0' "$f" # a tracked file deleted from the work tree is not shipped
done
