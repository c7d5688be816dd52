# Backend choice, sourced by the grader's scripts: which compiler builds the student's code, what runs
# it, and why. BACKEND=gpu|cpu|auto; auto takes the GPU when a usable device answers, else the CPU backend.

# shellcheck shell=bash
WB_ROOT=${WB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
WB_BUILD=${WB_BUILD:-$WB_ROOT/build}

# The architecture to build for when no GPU can be asked: the H200 the workbook was measured on.
WB_FALLBACK_ARCH=sm_90

# Runs the device query (built once) and prints its line; fails when no GPU answers.
device_query() {
  local exe=$WB_BUILD/tools/device-query tmp
  command -v nvcc >/dev/null 2>&1 || { echo "error - nvcc is not installed"; return 1; }
  if [ ! -x "$exe" ] || [ "$exe" -ot "$WB_ROOT/grader/lib/device-query.cu" ]; then
    mkdir -p "${exe%/*}"
    # Built aside and renamed: gradings that start together (make grade, verify-trace.sh) must never run a
    # half-written query, which "does not answer" and makes the grading skip every step.
    tmp=$exe.$BASHPID
    { nvcc -o "$tmp" "$WB_ROOT/grader/lib/device-query.cu" >/dev/null 2>&1 && mv -f "$tmp" "$exe"; } ||
      { rm -f "$tmp"; echo "error - nvcc could not build the device query"; return 1; }
  fi
  timeout 20 "$exe" 2>/dev/null || return 1
}

# cpu_runtime_ready: on the CPU backend, builds its runtime when missing or older than its sources (or copies
# this machine's earlier build), saying so on stderr: inside a step's build the message would reach only the
# build log, and a first grading would sit silent while it builds.
cpu_runtime_ready() { [ "${WB_BACKEND:-}" != cpu ] || "$WB_NVCC" --ensure-runtime >/dev/null; }
cpu_backend_ready() {
  [ -x "$WB_ROOT/cpu/bin/nvcc-cpu" ]
}

# Sets WB_BACKEND (gpu, cpu or none), WB_BACKEND_WHY, WB_DEVICE, WB_NVCC, WB_ARCH, WB_SANITIZER.
# "none" means: no GPU and no CPU backend; code is still compiled with nvcc, but cannot run.
backend_choose() {
  local want=${1:-auto} query
  WB_DEVICE="" WB_SANITIZER="" WB_SKIP_WHY="" WB_NVCC=nvcc WB_ARCH=-arch=$WB_FALLBACK_ARCH
  case $want in
    gpu|cpu|auto) ;;
    *) echo "error: BACKEND must be gpu, cpu or auto, not \"$want\"" >&2; return 2 ;;
  esac
  if [ "$want" != cpu ] && query=$(device_query); then
    WB_DEVICE=${query#ok }
    WB_BACKEND=gpu
    WB_ARCH=-arch=native
    WB_BACKEND_WHY="a usable GPU answered: $WB_DEVICE"
    WB_SANITIZER=$(command -v compute-sanitizer || true)
    export WB_BACKEND WB_BACKEND_WHY WB_SKIP_WHY WB_DEVICE WB_NVCC WB_ARCH WB_SANITIZER
    return 0
  fi
  query=${query:-error the device query did not answer}
  local why="no usable GPU (${query#error })"
  [ "$want" = cpu ] && why="BACKEND=cpu was asked for"
  if [ "$want" = gpu ]; then
    WB_BACKEND=none
    WB_BACKEND_WHY="BACKEND=gpu, but $why"
    WB_SKIP_WHY="BACKEND=gpu, but no usable GPU here"
  elif cpu_backend_ready; then
    WB_BACKEND=cpu
    WB_NVCC=$WB_ROOT/cpu/bin/nvcc-cpu
    # as on a GPU: the CPU backend's device is compute capability 9.0, and nvcc-cpu builds for it (cpu/README.md)
    WB_ARCH=-arch=native
    WB_SANITIZER=$WB_ROOT/cpu/bin/compute-sanitizer
    WB_BACKEND_WHY="$why: the CPU backend (cpu/) runs the code instead"
  else
    WB_BACKEND=none
    WB_BACKEND_WHY="$why, and the CPU backend (cpu/) is not built yet: steps that run the program are skipped"
    WB_SKIP_WHY="no usable GPU here and the CPU backend is not built yet"
  fi
  command -v "$WB_NVCC" >/dev/null 2>&1 || WB_NVCC=""
  export WB_BACKEND WB_BACKEND_WHY WB_SKIP_WHY WB_DEVICE WB_NVCC WB_ARCH WB_SANITIZER
}

# toolchain_fix NAME: the words lesson 00's program prints for NAME (FIX_NO_DRIVER, FIX_NO_DEVICE,
# FIX_NO_KERNEL_IMAGE), read from their one source, kernels/toolchain.cuh: the #define's string literals,
# over its continuation lines, joined as the compiler joins them.
toolchain_fix() {
  awk -v name="$1" '
    !on && $1 == "#define" && $2 == name { on = 1 }
    on { line = $0; more = sub(/\\[[:space:]]*$/, "", line)
         while (match(line, /"([^"\\]|\\.)*"/)) { text = text substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH) }
         if (!more) { print text; exit } }' "$WB_ROOT/kernels/toolchain.cuh"
}
