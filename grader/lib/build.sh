# Builds a lesson's program from a copy of the student's files, sourced by the grader's scripts.
# The student's folder is only read: its files are copied into the build folder first.

# shellcheck shell=bash
WB_ROOT=${WB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
WB_BUILD=${WB_BUILD:-$WB_ROOT/build}
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"

# shellcheck disable=SC2054 # -Wall,-Wextra is nvcc's comma list, one argument
WB_CFLAGS=(-O2 -g -lineinfo -Xcompiler -Wall,-Wextra)
WB_COMPILE_TIMEOUT=180
# Builds the trace's object NAME (grader/shim/NAME.c: trace, wrappers, kernel_info, cublas) for a real GPU
# once; prints its path. The CPU backend builds the same sources itself (cpu/Makefile).
shim_object() {
  local obj=$WB_BUILD/tools/shim-$1.o src=$WB_ROOT/grader/shim/$1.c newest
  newest=$(find "$WB_ROOT/grader/shim" -newer "$obj" -print -quit 2>/dev/null || true)
  if [ ! -f "$obj" ] || [ -n "$newest" ]; then
    mkdir -p "${obj%/*}"
    nvcc -O2 -c "$src" -o "$obj" >"$obj.log" 2>&1 || { cat "$obj.log" >&2; return 1; }
  fi
  printf '%s\n' "$obj"
}

# build_program LESSON SRC_DIR OUT_DIR: copies LESSON's files from SRC_DIR and builds OUT_DIR/program.
# Writes OUT_DIR/status (ok, missing, compile-error, link-error, no-compiler, timeout) and the logs
# compile.log (the student's files only: what "compiles cleanly" judges) and link.log.
build_program() {
  local lesson=$1 src=$2 out=$3 f obj rc libs=() objs=() link=() wrap
  rm -rf "$out" && mkdir -p "$out/src"
  : >"$out/compile.log"
  : >"$out/link.log"
  for f in $(lesson_sources "$lesson"); do
    if [ ! -f "$src/$f" ]; then
      echo "the file $src/$f is missing" >"$out/compile.log"
      echo missing >"$out/status"
      return 1
    fi
    cp "$src/$f" "$out/src/$f"
  done
  if [ -z "${WB_NVCC:-}" ]; then
    echo "no CUDA compiler: nvcc is not installed and the CPU backend is not built" >"$out/compile.log"
    echo no-compiler >"$out/status"
    return 1
  fi
  grep -qs '#include *<cublas_v2.h>' "$out"/src/* && libs=(-lcublas)
  for f in "$out"/src/*.cu; do
    obj=$out/$(basename "$f" .cu).o
    timeout "$WB_COMPILE_TIMEOUT" "$WB_NVCC" "${WB_CFLAGS[@]}" ${WB_ARCH:+"$WB_ARCH"} -I "$out/src" \
      -I "$WB_ROOT/kernels" -c "$f" -o "$obj" >>"$out/compile.log" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ]; then
      sed -i "s#$out/src/#$src/#g" "$out/compile.log"
      [ "$rc" -eq 124 ] && { echo "the compiler ran for more than ${WB_COMPILE_TIMEOUT} s" >>"$out/compile.log"; echo timeout >"$out/status"; return 1; }
      echo compile-error >"$out/status"
      return 1
    fi
    objs+=("$obj")
  done
  # Messages name the student's own file, not the copy built here.
  sed -i "s#$out/src/#$src/#g" "$out/compile.log"
  # On the GPU the trace (grader/shim/) is linked in here; nvcc-cpu links the same one by itself.
  if [ "${WB_BACKEND:-}" != cpu ]; then
    for f in trace wrappers kernel_info; do
      objs+=("$(shim_object "$f")") || { echo link-error >"$out/status"; return 1; }
    done
    if [ ${#libs[@]} -gt 0 ]; then
      objs+=("$(shim_object cublas)") || { echo link-error >"$out/status"; return 1; }
      wrap=$("$WB_ROOT/grader/shim/wrapped.sh" --cublas)
    else
      wrap=$("$WB_ROOT/grader/shim/wrapped.sh")
    fi
    link=(-Xlinker "--wrap=${wrap//$'\n'/,--wrap=}")
  fi
  if ! timeout "$WB_COMPILE_TIMEOUT" "$WB_NVCC" "${WB_CFLAGS[@]}" ${WB_ARCH:+"$WB_ARCH"} -o "$out/program" \
      "${objs[@]}" "${libs[@]}" "${link[@]}" >"$out/link.log" 2>&1; then
    echo link-error >"$out/status"
    return 1
  fi
  echo ok >"$out/status"
}
