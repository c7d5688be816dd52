# Builds a lesson's program from a copy of the student's files, sourced by the grader's scripts.
# The student's folder is only read: its files are copied into the build folder first.

# shellcheck shell=bash
WB_ROOT=${WB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
WB_BUILD=${WB_BUILD:-$WB_ROOT/build}
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"
# shellcheck source=grader/lib/sandbox.sh
. "$WB_ROOT/grader/lib/sandbox.sh"

# shellcheck disable=SC2054 # -Wall,-Wextra is nvcc's comma list, one argument
WB_CFLAGS=(-O2 -g -lineinfo -Xcompiler -Wall,-Wextra)
WB_COMPILE_TIMEOUT=180
WB_COMPILE_MEMORY_MB=${WB_COMPILE_MEMORY_MB:-4096} # a compile's heap (RLIMIT_DATA)
WB_COMPILE_OUTPUT_MB=${WB_COMPILE_OUTPUT_MB:-256}  # the largest file it may write
# Builds the trace's object NAME (grader/shim/NAME.c: trace, provenance, wrappers, kernel_info, cublas) for a real GPU
# once; prints its path. The CPU backend builds the same sources itself (cpu/Makefile).
shim_object() {
  local obj=$WB_BUILD/tools/shim-$1.o src=$WB_ROOT/grader/shim/$1.c newest tmp
  newest=$(find "$WB_ROOT/grader/shim" -newer "$obj" -print -quit 2>/dev/null || true)
  if [ ! -f "$obj" ] || [ -n "$newest" ]; then
    mkdir -p "${obj%/*}"
    # Built aside and renamed, like the trace's object: gradings run side by side. (The name is taken
    # once: a redirection's $BASHPID is the forked command's.)
    tmp=$obj.$BASHPID
    { nvcc -O2 -c "$src" -o "$tmp.o" >"$tmp.log" 2>&1 && mv -f "$tmp.o" "$obj" && mv -f "$tmp.log" "$obj.log"; } ||
      { cat "$tmp.log" >&2; rm -f "$tmp.o" "$tmp.log"; return 1; }
  fi
  printf '%s\n' "$obj"
}

# trace_object [cublas]: the trace as a program links it on a real GPU (trace, provenance, wrappers, kernel_info, and the
# cuBLAS wrappers with cublas), built once: one object whose only global names are the wrappers
# (grader/shim/link-trace.sh, which the CPU backend's build uses too).
trace_object() {
  local name=trace parts=(trace provenance wrappers kernel_info) objs=() f obj newest
  [ "${1:-}" != cublas ] || { name=trace-cublas; parts+=(cublas); }
  for f in "${parts[@]}"; do objs+=("$(shim_object "$f")") || return 1; done
  obj=$WB_BUILD/tools/$name.o
  newest=$(find "${objs[@]}" "$WB_ROOT/grader/shim/link-trace.sh" -newer "$obj" -print -quit 2>/dev/null || true)
  if [ ! -f "$obj" ] || [ -n "$newest" ]; then
    "$WB_ROOT/grader/shim/link-trace.sh" "$obj" "${objs[@]}" || return 1
  fi
  printf '%s\n' "$obj"
}

# replace_literal FILE FROM TO: every FROM in FILE becomes TO, both taken as plain text (a folder's name is
# data: never part of a sed program).
replace_literal() {
  local tmp=$1.tmp
  awk -v from="$2" -v to="$3" '{
    out = ""
    while ((i = index($0, from)) > 0) { out = out substr($0, 1, i - 1) to; $0 = substr($0, i + length(from)) }
    print out $0
  }' "$1" >"$tmp" && mv "$tmp" "$1"
}

# in_sandbox OUT_DIR CMD...: a compile or link, in the sandbox when there is one (lib/sandbox.sh): it sees
# the grader's copy of the student's files (OUT_DIR/src), kernels/, the toolchain and the trace's objects,
# and writes OUT_DIR/obj only. Not the repository, solutions/ or /etc.
in_sandbox() {
  local out=$1 sandbox=()
  shift
  if sandbox_available; then
    sandbox_own "$out/obj"
    sandbox_command sandbox --ro "$out/src" --rw "$out/obj" --ro "$WB_ROOT/kernels" --ro "$WB_ROOT/cpu" \
      --ro "$WB_ROOT/grader/shim" --ro "$WB_ROOT/grader/policy" --ro "$WB_BUILD/cpu" --ro "$WB_BUILD/tools" \
      --chdir "$out/obj" --
  fi
  # Limits, as for a run: an #include of /dev/zero makes the compiler ask for gigabytes, of /dev/urandom
  # write an endless object file.
  (
    ulimit -d "$((WB_COMPILE_MEMORY_MB * 1024))" -f "$((WB_COMPILE_OUTPUT_MB * 1024))" -t "$((WB_COMPILE_TIMEOUT * 4))"
    # The CPU backend's kernels fault on a misaligned access as a GPU's do (cpu/bin/nvcc-cpu)
    export NVCC_CPU_ALIGN_CHECK=1
    exec timeout "$WB_COMPILE_TIMEOUT" "${sandbox[@]}" "$@" </dev/null
  )
}

# policy_traced: the file that lists every call the trace records (calls.def and cublas.def, both backends' lines),
# made again when a table changes; prints its path. The policy allows these calls (grader/policy/allowed).
policy_traced() {
  local file=$WB_BUILD/tools/traced-calls newest
  newest=$(find "$WB_ROOT/grader/shim" -name '*.def' -newer "$file" -print -quit 2>/dev/null || true)
  if [ ! -s "$file" ] || [ -n "$newest" ]; then
    mkdir -p "${file%/*}"
    { "$WB_ROOT/grader/shim/wrapped.sh" --cublas && "$WB_ROOT/grader/shim/wrapped.sh" --cpu --cublas; } |
      sort -u >"$file.$$" && mv "$file.$$" "$file" || return 1
  fi
  printf '%s\n' "$file"
}

# policy_check OUT_DIR OBJECT...: what lesson code may contain (grader/policy/policy.py), checked on the grader's
# copy of the student's files and on the objects compiled from them, in the sandbox, before the link. Its
# refusals, one line each, go to OUT_DIR/policy.log. WB_ALLOW: the constructs and names an instructor lets
# through (ALLOW=dlopen,asm; ALLOW=all: no policy). Fails when the code is refused or cannot be checked.
policy_check() {
  local out=$1 traced py
  shift
  [ "${WB_ALLOW:-}" != all ] || { : >"$out/policy.log"; return 0; }
  # Debian's python3 first. (Not `command -v A B | head -n 1`: under pipefail head's early exit can kill
  # the writer with SIGPIPE, about once in 300 under load, and the whole command with it.)
  if [ -x /usr/bin/python3 ]; then py=/usr/bin/python3; else py=$(command -v python3 || true); fi
  if [ -z "$py" ] || ! traced=$(policy_traced); then
    echo "policy: the grader cannot check the code (it needs python3 and binutils): make doctor" >"$out/policy.log"
    return 1
  fi
  in_sandbox "$out" "$py" -I -S "$WB_ROOT/grader/policy/policy.py" --allowed "$WB_ROOT/grader/policy/allowed" \
    --traced "$traced" --root "$WB_ROOT" --allow "${WB_ALLOW:-}" "$out"/src/* -- "$@" >"$out/policy.log" 2>&1
}

# The build cache: a build that ended ok is kept in WB_BUILD_CACHE_DIR (WB_BUILD/cache/builds/) as KEY/ (the
# program and its logs), KEY a digest of everything the build depends on, so that the same sources built
# again (make check STEP=N after make check, a saved file unchanged, a class's untouched skeletons, the
# tests' repeated gradings) are copied, not compiled. It lies outside every sandbox: no compile reads or
# writes it. WB_BUILD_CACHE=0 turns it off (grader/bench/ times builds); the newest WB_BUILD_CACHE_ENTRIES
# (16: about 100 MB on the CPU backend) are kept.

# build_cache_key OUT_DIR LIB...: prints the digest of what the build of OUT_DIR/src depends on: the student's
# files (names and contents); what the compile may include of ours (kernels/, the CPU backend's headers and
# compiler driver, the trace's sources); the policy and its tables; the compilers, the backend's runtime and
# the tools the policy runs (path, size and time); flags, libraries, allowances, limits, the sandbox and the
# backend's settings in the environment. Fails when the cache is off or a part cannot be read.
build_cache_key() {
  local out=$1 tool tools=() parts runtime=${CUDAWB_BUILD_DIR:-$WB_ROOT/build/cpu} # nvcc-cpu's runtime
  shift
  [ "${WB_BUILD_CACHE:-1}" != 0 ] || return 1
  sandbox_available || true # a build without the sandbox is not one with it
  for tool in "$WB_NVCC" g++ gcc objdump /usr/bin/python3; do
    tools+=("$(command -v "$tool")") || return 1
  done
  parts=$(
    exec 2>/dev/null
    set -o pipefail
    printf '%s\n' build-cache-1 "$WB_BACKEND" "${WB_CFLAGS[*]}" "${WB_ARCH:-}" "${WB_ALLOW:-}" "$*" \
      "$WB_COMPILE_MEMORY_MB $WB_COMPILE_OUTPUT_MB $WB_COMPILE_TIMEOUT" "${WB_SANDBOX_STATE:-}"
    { env | grep -E '^(CUDAWB|NVCC_CPU)_' || true; } | sort
    (cd "$out/src" && sha256sum -- *) &&
      find "$WB_ROOT/kernels" "$WB_ROOT/grader/policy" "$WB_ROOT/grader/shim" "$WB_ROOT/cpu/bin" "$WB_ROOT/cpu/include" \
        -type f -print0 | sort -z | xargs -0 sha256sum &&
      stat -L -c '%n %s %Y' "${tools[@]}" &&
      { [ "$WB_BACKEND" != cpu ] || stat -c '%n %s %Y' "$runtime/libcudawb.a" "$runtime/libcudawb_cublas.a" "$runtime/.built"; }
  ) || return 1
  printf '%s' "$parts" | sha256sum | cut -c1-32
}

# build_cache_get KEY SRC_DIR OUT_DIR: the kept build KEY into OUT_DIR, its messages naming SRC_DIR's files as
# a build of them would; fails when there is none.
build_cache_get() {
  local entry=${WB_BUILD_CACHE_DIR:-$WB_BUILD/cache/builds}/$1 src=$2 out=$3
  [ -f "$entry/complete" ] || return 1
  # Taken whole or not at all (another grading may be removing it as the oldest): the logs emptied again.
  if ! { cp -- "$entry/program" "$out/program.tmp" && cp -- "$entry/compile.log" "$entry/policy.log" "$entry/link.log" \
    "$out/" && mv -f -- "$out/program.tmp" "$out/program"; }; then
    rm -f -- "$out/program.tmp" "$out/program"
    : >"$out/compile.log" && : >"$out/policy.log" && : >"$out/link.log"
    return 1
  fi
  replace_literal "$out/compile.log" "$(cat "$entry/src-dir")/" "$src/"
  echo 0 >"$out/policy-ms"
  echo "$1" >"$out/cached"
  touch "$entry"
  echo ok >"$out/status"
}

# build_cache_put KEY SRC_DIR OUT_DIR: keeps OUT_DIR's build (ended ok) as KEY: written aside, then renamed,
# whole or not at all (gradings run side by side); the oldest beyond WB_BUILD_CACHE_ENTRIES go.
build_cache_put() {
  local root=${WB_BUILD_CACHE_DIR:-$WB_BUILD/cache/builds} tmp
  mkdir -p "$root" && tmp=$(mktemp -d "$root/.new-XXXXXX") || return 0
  if cp -- "$3/program" "$3/compile.log" "$3/policy.log" "$3/link.log" "$tmp/" && printf '%s' "$2" >"$tmp/src-dir" &&
    touch "$tmp/complete" && mv -T -- "$tmp" "$root/$1" 2>/dev/null; then
    find "$root" -mindepth 1 -maxdepth 1 -type d ! -name '.new-*' -printf '%T@ %p\n' | sort -rn |
      tail -n +"$((${WB_BUILD_CACHE_ENTRIES:-16} + 1))" | cut -d' ' -f2- | while IFS= read -r old; do rm -rf -- "$old"; done
  fi
  rm -rf -- "$tmp"
  return 0
}

# build_program LESSON SRC_DIR OUT_DIR: copies LESSON's files from SRC_DIR and builds OUT_DIR/program.
# Writes OUT_DIR/status (ok, missing, not-a-file, compile-error, policy, link-error, no-compiler, timeout) and
# the logs compile.log (the student's files only: what "compiles cleanly" judges), policy.log (what the policy
# refused, also added to compile.log) and link.log. A file is taken only as a regular file, by its name: a
# link, a folder or a device in its place is refused.
build_program() {
  local lesson=$1 src=$2 out=$3 f obj rc libs=() objs=() link=() wrap
  rm -rf "$out" && mkdir -p "$out/src" "$out/obj" "$WB_BUILD/cpu" "$WB_BUILD/tools"
  : >"$out/compile.log"
  : >"$out/link.log"
  : >"$out/policy.log"
  for f in $(lesson_sources "$lesson"); do
    if [ -L "$src/$f" ] || { [ -e "$src/$f" ] && [ ! -f "$src/$f" ]; }; then
      echo "$src/$f is not a plain file (a link, a folder or a device): submit the file itself" >"$out/compile.log"
      echo not-a-file >"$out/status"
      return 1
    fi
    if [ ! -f "$src/$f" ]; then
      echo "the file $src/$f is missing" >"$out/compile.log"
      echo missing >"$out/status"
      return 1
    fi
    cp -- "$src/$f" "$out/src/$f"
  done
  if [ -z "${WB_NVCC:-}" ]; then
    echo "no CUDA compiler: nvcc is not installed and the CPU backend is not built" >"$out/compile.log"
    echo no-compiler >"$out/status"
    return 1
  fi
  grep -qs '#include *<cublas_v2.h>' "$out"/src/* && libs=(-lcublas)
  # The CPU backend's runtime is built (when a source changed) here, outside the read-only sandbox.
  if [ "${WB_BACKEND:-}" = cpu ] && ! "$WB_NVCC" --ensure-runtime >"$out/link.log" 2>&1; then
    cp "$out/link.log" "$out/compile.log"
    echo no-compiler >"$out/status"
    return 1
  fi
  # The same sources built before with the same everything else: that build (the cache, above).
  local key=""
  key=$(build_cache_key "$out" ${libs[@]+"${libs[@]}"}) || key=""
  [ -z "$key" ] || ! build_cache_get "$key" "$src" "$out" || return 0
  for f in "$out"/src/*.cu; do
    obj=$out/obj/$(basename "$f" .cu).o
    in_sandbox "$out" "$WB_NVCC" "${WB_CFLAGS[@]}" ${WB_ARCH:+"$WB_ARCH"} -I "$out/src" \
      -I "$WB_ROOT/kernels" -c "$f" -o "$obj" >>"$out/compile.log" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ]; then
      replace_literal "$out/compile.log" "$out/src/" "$src/"
      [ "$rc" -eq 124 ] && { echo "the compiler ran for more than ${WB_COMPILE_TIMEOUT} s" >>"$out/compile.log"; echo timeout >"$out/status"; return 1; }
      echo compile-error >"$out/status"
      return 1
    fi
    objs+=("$obj")
  done
  # Messages name the student's own file, not the copy built here.
  replace_literal "$out/compile.log" "$out/src/" "$src/"
  # Before anything of the grader's is linked in: what the code contains (grader/README.md, "The policy"),
  # and what checking it took (policy-ms: grader/bench/run.sh).
  local start
  start=$(date +%s%N)
  policy_check "$out" "${objs[@]}"
  rc=$?
  echo "$(( ($(date +%s%N) - start) / 1000000 ))" >"$out/policy-ms"
  if [ "$rc" -ne 0 ]; then
    replace_literal "$out/policy.log" "$out/src/" "$src/"
    [ -s "$out/policy.log" ] || echo "policy: the check of the code did not finish" >"$out/policy.log"
    cat "$out/policy.log" >>"$out/compile.log"
    echo policy >"$out/status"
    return 1
  fi
  # On the GPU the trace (grader/shim/) is linked in here; nvcc-cpu links the same one by itself.
  if [ "${WB_BACKEND:-}" != cpu ]; then
    if [ ${#libs[@]} -gt 0 ]; then
      objs+=("$(trace_object cublas)") || { echo link-error >"$out/status"; return 1; }
      wrap=$("$WB_ROOT/grader/shim/wrapped.sh" --cublas)
    else
      objs+=("$(trace_object)") || { echo link-error >"$out/status"; return 1; }
      wrap=$("$WB_ROOT/grader/shim/wrapped.sh")
    fi
    link=(-Xlinker "--wrap=${wrap//$'\n'/,--wrap=}")
  fi
  if ! in_sandbox "$out" "$WB_NVCC" "${WB_CFLAGS[@]}" ${WB_ARCH:+"$WB_ARCH"} -o "$out/obj/program" \
      "${objs[@]}" "${libs[@]}" "${link[@]}" >"$out/link.log" 2>&1; then
    echo link-error >"$out/status"
    return 1
  fi
  mv "$out/obj/program" "$out/program"
  echo ok >"$out/status"
  [ -z "$key" ] || build_cache_put "$key" "$src" "$out"
}
