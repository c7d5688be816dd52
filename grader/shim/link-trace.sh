#!/usr/bin/env bash
# Links the trace's objects into one, OUT, whose only global names are its wrappers (__wrap_*): the trace's
# own functions and tables become local to it, so that lesson code cannot call them, whatever the policy
# lets through (such a call does not link). Used by the CPU backend's build (cpu/Makefile) and, on a GPU,
# by grader/lib/build.sh (trace_object). Built aside and renamed: gradings run side by side.
#   link-trace.sh OUT OBJECT...
set -euo pipefail
out=$1
shift
tmp=$out.$$
trap 'rm -f "$tmp"' EXIT
"${LD:-ld}" -r -o "$tmp" "$@"
"${OBJCOPY:-objcopy}" --wildcard --keep-global-symbol='__wrap_*' "$tmp"
mv -f "$tmp" "$out"
