#!/usr/bin/env bash
# gpu-compare.sh LOGDIR: builds the same test programs with the real nvcc (-arch=native), runs them on the
# GPU and compares with the same tests/expected/ files as the CPU backend; everything goes to LOGDIR/
# (summary.txt, and each program's build log, stdout and stderr). Needs bash and the CUDA toolkit only
# (compute-sanitizer on PATH for the memcheck tests). GPU_ARCH=sm_90 builds for that instead of -arch=native.
set -euo pipefail

[[ $# -eq 1 ]] || { echo "usage: $0 LOGDIR" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cases_dir=$here/cases
mkdir -p "$1"
logdir=$(cd "$1" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$here/lib.sh"

build() {  # the grader's command line with the real compiler (and its trace, for a case marked test-shim)
    local arch shim=()
    read -r -a arch <<<"$(arch_flags "$1" "-arch=${GPU_ARCH:-native}")"
    [[ -z $(meta "$1" shim) ]] || shim=("${shim_link[@]}")
    nvcc ${arch[@]+"${arch[@]}"} -O2 -g -lineinfo -Xcompiler -Wall,-Wextra -I "$cases_dir" -o "$2" "$1" \
        ${shim[@]+"${shim[@]}"} "${@:3}"
}
# The grader's trace, built as the grader builds it on a GPU (trace_object in grader/lib/build.sh: its parts
# linked into one object), for the cases that read its report: that object and the linker's --wrap list.
shim_link=()
shim_objects() {
    local obj wrap root=$here/../..
    obj=$(WB_BUILD="$logdir/shim" bash -c '. "$1/grader/lib/build.sh" && trace_object' _ "$root") || return 1
    wrap=$("$root/grader/shim/wrapped.sh")
    shim_link+=("$obj" -Xlinker "--wrap=${wrap//$'\n'/,--wrap=}")
}
sanitizer_cmd() { echo compute-sanitizer; }

command -v nvcc >/dev/null || { echo "gpu-compare.sh: nvcc is not on PATH" >&2; exit 2; }
{
    nvcc --version | tail -2
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
    status=0
    shim_objects || { echo "gpu-compare.sh: the grader's trace does not build" >&2; exit 2; }
    run_suite gpu "$logdir" || status=$?
    exit "$status"
} 2>&1 | tee "$logdir/summary.txt"
exit "${PIPESTATUS[0]}"
