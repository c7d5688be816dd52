#!/usr/bin/env bash
# Grades a lesson again each time one of its files is saved, the way rustlings' watch mode works: a short
# summary first (points, the first step not passed and its hint), then the full report.
#   watch.sh LESSON [--submission DIR] [--max-runs N]
# DIR/NN-slug/ holds the code (default exercises/); N: stop after N gradings (for tests).
# A save while a grading runs stops that grading (its verdict would be stale) and grades the new files.
# Stop it with Ctrl-C. It uses inotifywait when inotify-tools is installed, and looks once a second otherwise.
set -uo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"
# shellcheck source=grader/lib/steps.sh
. "$WB_ROOT/grader/lib/steps.sh"

[ $# -ge 1 ] || { echo "usage: make watch LESSON=N" >&2; exit 2; }
id=$(lesson_resolve "$1") || exit 2
shift
max_runs=0 submission=$WB_ROOT/exercises
while [ $# -gt 0 ]; do
  case $1 in
    --submission) submission=$2; shift 2 ;;
    --max-runs) max_runs=$2; shift 2 ;;
    *) echo "error: unknown option $1" >&2; exit 2 ;;
  esac
done
dir=$submission/$id
[ -d "$dir" ] || { echo "error: $dir is not a folder" >&2; exit 2; }
report=$(mktemp)
grading=""
# Ctrl-C stops a grading in flight too (its whole process group: Bats, the build, the program's run).
trap '[ -z "$grading" ] || kill -TERM -- "-$grading" 2>/dev/null; rm -f "$report"; echo; exit 0' INT TERM

# What the files of the lesson look like now: a change of any of them starts a grading.
state() { (cd "$dir" && stat -c '%n %Y %s' -- * 2>/dev/null); }

# The first line: points and the first step not passed, with its hint.
summary() {
  local total first hint
  total=$(tail -n 1 "$report")
  first=$(grep -m1 -E '^  (FAIL|ERROR) ' "$report" | sed -E 's/^  [A-Z]+ +//; s/ +[0-9-]+\/[0-9]+$//' || true)
  printf '%s\n' "$total"
  if [ -n "$first" ]; then
    hint=$(steps_of "$id" | awk -F '\t' -v s="${first%%:*}" '"step " $1 == s { print $4 }')
    printf 'next: %s\n' "$first"
    [ -n "$hint" ] && printf '%s\n' "$hint" | fold -s -w 96 | sed 's/^/  /'
  fi
}

# grade: grades the files as they are now, in a process group of its own; a save before it ends makes its
# verdict stale, so it is stopped there (status 1) and the loop grades the new files at once.
grade() {
  setsid "$WB_ROOT/grader/check.sh" "$id" --submission "$submission" >"$report" 2>&1 &
  grading=$!
  while kill -0 "$grading" 2>/dev/null; do
    if [ "$(state)" != "$last" ]; then
      kill -TERM -- "-$grading" 2>/dev/null
      wait "$grading" 2>/dev/null
      grading=""
      return 1
    fi
    sleep 0.3
  done
  wait "$grading" 2>/dev/null
  grading=""
  return 0
}

runs=0 last=""
while :; do
  now=$(state)
  if [ "$now" != "$last" ]; then
    last=$now
    [ -t 1 ] && printf '\033[H\033[2J'
    printf 'grading %s/ ...\n' "$dir"
    if ! grade; then
      printf 'a file was saved while it was graded: grading the new version\n'
      continue
    fi
    summary
    printf '%s\n' "----------------------------------------------------------------------"
    cat "$report"
    runs=$((runs + 1))
    [ "$max_runs" -gt 0 ] && [ "$runs" -ge "$max_runs" ] && break
    printf '\nwatching %s/ (save a file to grade again; Ctrl-C stops)\n' "$dir"
  fi
  if command -v inotifywait >/dev/null 2>&1; then
    inotifywait -qq -t 60 -e close_write,moved_to,create,delete "$dir" 2>/dev/null
  else
    sleep 1
  fi
done
rm -f "$report"
