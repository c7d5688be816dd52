#!/usr/bin/env bash
# Prints the functions the trace wraps (calls.def, and cublas.def with --cublas), one per line, for GNU ld's
# --wrap: every TRACE and WRAP_ONLY line, keeping the CPU backend's lines (#ifdef CUDAWB_CPU) with --cpu and
# the GPU's (#else) without.
set -euo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cpu=0 files=("$dir/calls.def")
for arg in "$@"; do
  case $arg in
    --cpu) cpu=1 ;;
    --cublas) files+=("$dir/cublas.def") ;;
    *) echo "usage: $0 [--cpu] [--cublas]" >&2; exit 2 ;;
  esac
done
awk -v cpu="$cpu" '
  /^#ifdef CUDAWB_CPU/ { part = "cpu"; next }
  /^#else/ && part == "cpu" { part = "gpu"; next }
  /^#endif/ && part != "" { part = ""; next }
  (part == "cpu" && !cpu) || (part == "gpu" && cpu) { next }
  match($0, /^(TRACE[A-Z_]*\([A-Z]+, *|WRAP_ONLY\()[A-Za-z0-9_]+/) {
    name = substr($0, RSTART, RLENGTH); sub(/^.*[(, ]/, "", name); print name
  }' "${files[@]}"
