#!/usr/bin/env bash
# `make help`: the lessons with their titles, then every command, one line each (read from the Makefile).
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"
echo "CUDA Memory Workbook. Lessons:"
lesson_table
echo
echo "Commands:"
sed -n 's/^\([a-z]*\): *##\(.*\)/\1\t\2/p' "$WB_ROOT/Makefile" |
  while IFS=$'\t' read -r target text; do printf '  make %-11s%s\n' "$target" "$text"; done
echo
first=$(lesson_ids | head -n 1)
echo "Start with: make check LESSON=$((10#${first%%-*}))   (and read lessons/$first.md)"
