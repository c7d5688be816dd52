#!/usr/bin/env bash
# Builds the student's program for a lesson and runs it with the given arguments, as the grader would
# build and run it but without a time limit, so that its output and errors are seen as they happen.
#   run.sh LESSON [ARGS...]
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export WB_ROOT
# shellcheck source=grader/lib/build.sh
. "$WB_ROOT/grader/lib/build.sh"
# shellcheck source=grader/lib/backend.sh
. "$WB_ROOT/grader/lib/backend.sh"
[ $# -ge 1 ] || { echo "usage: make run LESSON=N [ARGS='...']" >&2; exit 2; }
id=$(lesson_resolve "$1") || exit 2
shift
backend_choose "${BACKEND:-auto}" || exit 2
cpu_runtime_ready || exit 2
out=$WB_BUILD/run/$id
if ! build_program "$id" "$WB_ROOT/exercises/$id" "$out"; then
  cat "$out/compile.log" "$out/link.log" >&2
  echo "error: exercises/$id/ did not build ($(cat "$out/status"))" >&2
  exit 1
fi
cat "$out/compile.log" >&2
if [ "$WB_BACKEND" = none ]; then
  echo "built $out/program, but it cannot run here: $WB_BACKEND_WHY" >&2
  exit 1
fi
echo "running: exercises/$id/ $* (backend: $WB_BACKEND)" >&2
# In the grader's sandbox (no time limit: Ctrl-C stops it), in a scratch folder that is gone afterwards.
sandbox=()
if sandbox_available; then
  sandbox_command sandbox --ro "$out" --scratch /wb/run --chdir /wb/run --
else
  echo "note: no sandbox ($WB_SANDBOX_WHY): your program runs with your own rights" >&2
fi
status=0
"${sandbox[@]}" "$out/program" "$@" </dev/null || status=$?
echo "exit status: $status" >&2
exit "$status"
