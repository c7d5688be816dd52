#!/usr/bin/env bash
# run.sh: the CPU backend's conformance suite: builds every tests/cases/*.cu with bin/nvcc-cpu, runs it and
# compares with tests/expected/ (see lib.sh for the per-test settings). Ends with "N passed, N failed, N skipped".
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cpu_dir=$(cd "$here/.." && pwd)
cases_dir=$here/cases
work=${CUDAWB_BUILD_DIR:-$(cd "$cpu_dir/.." && pwd)/build/cpu}/tests
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$here/lib.sh"

build() {  # build SRC EXE [LIBS]: exactly the grader's command line
    local arch
    read -r -a arch <<<"$(arch_flags "$1" -arch=native)"
    NVCC_CPU_ALIGN_CHECK=1 "$cpu_dir/bin/nvcc-cpu" ${arch[@]+"${arch[@]}"} -O2 -g -lineinfo -Xcompiler -Wall,-Wextra -I "$cases_dir" -o "$2" "$1" "${@:3}"
}
sanitizer_cmd() { echo "$cpu_dir/bin/compute-sanitizer"; }
# the backend's own tools (cuobjdump) for the cases that run them, as the GPU machine's toolkit has the real ones
export PATH=$cpu_dir/bin:$PATH

run_suite cpu "$work"
