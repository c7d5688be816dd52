#!/usr/bin/env bats
# The policy on lesson code (grader/policy/): every skeleton, solution, rewrite and variant passes it on real
# nvcc's objects, where one is installed (on the CPU backend's, the lessons' tests see to it); each case of tests/hostile/policy/ is
# refused on both, at the line its "// policy: NAME" comment is on, with ALLOW=NAME named; ALLOW=NAME lets it
# through.

setup_file() {
  load lib/helpers
  # The CPU runtime is built once here, not by the parallel compiles below.
  "$WB_ROOT/cpu/bin/nvcc-cpu" --ensure-runtime >/dev/null 2>&1 || true
}

setup() {
  load lib/helpers
}

# The real nvcc, where one is installed (as tests/lint.bats finds it); fails where there is none.
real_nvcc() {
  local nvcc=${WB_REAL_NVCC:-$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)}
  [ -n "$nvcc" ] && [ -x "$nvcc" ] && [ "$nvcc" != "$WB_ROOT/cpu/bin/nvcc-cpu" ] || return 1
  printf '%s\n' "$nvcc"
}

# compile COMPILER DIR: DIR/src/*.cu compiled as the grader compiles them, into DIR/obj/ (COMPILER: cpu, or the
# real nvcc's path). Fails, printing "does not compile", when one does not.
compile() {
  local nvcc=$1 dir=$2 f
  [ "$nvcc" != cpu ] || nvcc=$WB_ROOT/cpu/bin/nvcc-cpu
  mkdir -p "$dir/obj"
  for f in "$dir"/src/*.cu; do
    "$nvcc" -O2 -g -lineinfo -Xcompiler -Wall,-Wextra -arch=sm_90 -I "$dir/src" -I "$WB_ROOT/kernels" -c "$f" \
      -o "$dir/obj/$(basename "$f" .cu).o" >"$dir/compile.log" 2>&1 || { echo "does not compile"; return 1; }
  done
}

# verdict DIR [ALLOW]: the policy's refusals of DIR's sources and objects, as build_program has it check them
# (grader/lib/build.sh's policy_check, in the sandbox); nothing when they pass.
verdict() {
  (
    export WB_BUILD=$WB_ROOT/build WB_ALLOW=${2:-}
    . "$WB_ROOT/grader/lib/build.sh"
    policy_check "$1" "$1"/obj/*.o || true
    cat "$1/policy.log"
  )
}

# every_source_passes COMPILER [--no-variants]: the skeletons, the solutions, and the solutions with every
# rewrite and variant applied (--no-variants: every rewrite), compiled and checked, as many at once as there
# are cores. A source that does not compile must be a variant that fails at step 1.
every_source_passes() {
  local compiler=$1 id p d name dirs=() refused="" running=0 variants=variants
  [ "${2:-}" != --no-variants ] || variants=""
  for id in $(cd "$WB_ROOT/solutions" && ls -d [0-9][0-9]-*); do
    for p in skeleton none "$WB_ROOT/tests/rewrites/$id"/*.patch ${variants:+"$WB_ROOT/tests/variants/$id"/*.patch}; do
      [ "$p" = none ] || [ "$p" = skeleton ] || [ -f "$p" ] || continue
      case $p in
        skeleton) name=$id/skeleton ;;
        none) name=$id/solution ;;
        *) name=$id/$(basename "$(dirname "$(dirname "$p")")")/$(basename "$p" .patch) ;;
      esac
      d=$BATS_TEST_TMPDIR/${name//\//_}
      mkdir -p "$d/src"
      if [ "$p" = skeleton ]; then
        cp "$WB_ROOT/exercises/$id"/*.cu "$d/src/"
      else
        cp "$WB_ROOT/solutions/$id"/* "$d/src/"
      fi
      [ "$p" = none ] || [ "$p" = skeleton ] || patch --quiet -p1 -d "$d/src" <"$p" || fail "cannot apply $p"
      printf '%s\n%s\n' "$name" "$p" >"$d/what"
      dirs+=("$d")
    done
  done
  for d in "${dirs[@]}"; do
    { compile "$compiler" "$d" >"$d/verdict" && verdict "$d" >"$d/verdict"; } &
    running=$((running + 1))
    if [ "$running" -ge "$(nproc)" ]; then wait -n || true; running=$((running - 1)); fi
  done
  wait
  for d in "${dirs[@]}"; do
    name=$(sed -n 1p "$d/what") p=$(sed -n 2p "$d/what")
    if [ "$(cat "$d/verdict")" = "does not compile" ]; then
      [ -f "$p" ] && [ "$(variant_step "$p")" = 1 ] ||
        refused="$refused"$'\n'"$name does not compile: $(head -n 3 "$d/compile.log")"
    elif [ -s "$d/verdict" ]; then
      refused="$refused"$'\n'"$name: $(cat "$d/verdict")"
    fi
  done
  [ -z "$refused" ] || fail "refused by the policy:$refused"
  echo "# ${#dirs[@]} sources checked" >&3
}

# On the CPU backend's objects, every skeleton, solution, rewrite and variant is checked where it is graded: the
# lessons' tests (tests/gen-lesson-tests.sh) build each with build_program, whose policy refusal fails step 1,
# and each test needs step 1 to pass (a variant's own step cannot fail before it). Compiled here again, they
# cost a tenth of make test's time for no verdict of their own.

# With the real nvcc, the correct programs: each compile takes nvcc 2-3 s (cudafe++ and the host compile most
# of it), and the 181 variants were two thirds of this file's time. A variant's objects from the real nvcc are
# policy-checked where it is graded on a GPU (tests/gpu/verdicts.sh: a refusal fails its step 1, and its list
# of failed steps then differs from the CPU backend's).
@test "every skeleton, solution and rewrite passes the policy (real nvcc's objects)" {
  require_solutions
  local nvcc
  nvcc=$(real_nvcc) || skip "no real nvcc installed here (the CPU backend's objects were checked)"
  every_source_passes "$nvcc" --no-variants
}

# hostile_cases COMPILER: each case of tests/hostile/policy/ is refused with a line for each of its markers
# ("// policy: NAME" on line N: "at alloc.cu:N: ...; ... ALLOW=NAME"); with ALLOW naming them all, none of
# those lines is left.
hostile_cases() {
  local compiler=$1 f name d out allow n marker missing=""
  for f in "$WB_ROOT"/tests/hostile/policy/*.cu; do
    name=$(basename "$f" .cu)
    # inline-asm holds an x86-64 system call
    [ "$name" != inline-asm ] || [ "$(uname -m)" = x86_64 ] || continue
    d=$BATS_TEST_TMPDIR/$name
    mkdir -p "$d/src"
    cp "$f" "$d/src/alloc.cu"
    if ! compile "$compiler" "$d" >/dev/null; then
      missing="$missing"$'\n'"$name does not compile: $(head -n 3 "$d/compile.log")"
      continue
    fi
    out=$(verdict "$d")
    allow=""
    while IFS=: read -r n marker; do
      marker=${marker##*// policy: }
      allow=$allow${allow:+,}$marker
      grep -qE "^policy: .* at alloc\.cu:$n: .*; an instructor can allow it: ALLOW=$marker\$" <<<"$out" ||
        missing="$missing"$'\n'"$name: no line for $marker at alloc.cu:$n in:"$'\n'"$out"
    done < <(grep -n '// policy: ' "$f")
    out=$(verdict "$d" "$allow")
    ! grep -qE "ALLOW=($(tr , '|' <<<"$allow"))\$" <<<"$out" ||
      missing="$missing"$'\n'"$name: ALLOW=$allow left:"$'\n'"$out"
  done
  [ -z "$missing" ] || fail "$missing"
}

@test "each forbidden construct is refused with its line, and ALLOW lets it through (CPU backend's objects)" {
  hostile_cases cpu
}

@test "each forbidden construct is refused with its line, and ALLOW lets it through (real nvcc's objects)" {
  local nvcc
  nvcc=$(real_nvcc) || skip "no real nvcc installed here (the CPU backend's objects were checked)"
  hostile_cases "$nvcc"
}

@test "ALLOW lets one construct through, not the ones it hides: asm allowed, its syscall instruction is not" {
  [ "$(uname -m)" = x86_64 ] || skip "the case holds an x86-64 system call"
  local d=$BATS_TEST_TMPDIR/asm
  mkdir -p "$d/src"
  cp "$WB_ROOT/tests/hostile/policy/inline-asm.cu" "$d/src/alloc.cu"
  compile cpu "$d"
  run verdict "$d" asm
  assert_output --partial "policy: syscall instruction at alloc.cu:5: a system call made around the C library"
  refute_output --partial "ALLOW=asm"
  run verdict "$d" asm,syscall
  assert_output ""
}

@test "a #line let through still leaves its file name's newline refused, read from the debug information" {
  local d=$BATS_TEST_TMPDIR/line
  mkdir -p "$d/src"
  cp "$WB_ROOT/tests/hostile/policy/line-newline.cu" "$d/src/alloc.cu"
  compile cpu "$d"
  run verdict "$d" line
  assert_output --regexp "^policy: file name alloc.cu.x0acall n=1 fn=cudaFree .* at alloc.cu: a name with a control character"
  assert_output --partial "ALLOW=control-character"
}

@test "a line directive behind a byte order mark, a lone carriage return, a NUL or a comment across lines is refused" {
  local d=$BATS_TEST_TMPDIR/hidden
  mkdir -p "$d/src" "$d/obj"
  printf '\xef\xbb\xbf#line 1 "other.cu"\nint main(void) { return 0; }\n' >"$d/src/alloc.cu"
  run verdict "$d"
  assert_output --partial "policy: #line at alloc.cu:1:"
  printf 'int a;\r#line 9 "other.cu"\nint main(void) { return a; }\n' >"$d/src/alloc.cu"
  run verdict "$d"
  assert_output --partial "policy: #line at alloc.cu:2:"
  printf 'int a;\n\0#line 9 "other.cu"\nint main(void) { return a; }\n' >"$d/src/alloc.cu"
  run verdict "$d"
  assert_output --partial "policy: #line at alloc.cu:2:"
  printf 'int a; /* a comment\n */ # 9 "other.cu"\nint main(void) { return a; }\n' >"$d/src/alloc.cu"
  run verdict "$d"
  assert_output --partial "policy: #line at alloc.cu:2:"
}

@test "GNU's , ## __VA_ARGS__ in an error-checking macro is not token pasting" {
  local d=$BATS_TEST_TMPDIR/va
  mkdir -p "$d/src"
  printf '%s\n' '#include <stdio.h>' '#define SAY(fmt, ...) fprintf(stderr, fmt "\n", ##__VA_ARGS__)' \
    'int main(void) { SAY("%d", 1); SAY("plain"); return 0; }' >"$d/src/alloc.cu"
  compile cpu "$d"
  run verdict "$d"
  assert_output ""
}

@test "a refused submission fails step 1 with the policy's line, every other step cannot run; ALLOW grades it" {
  require_backend
  local dir=$BATS_TEST_TMPDIR/submission
  mkdir -p "$dir/01-allocation"
  cp "$WB_ROOT/tests/hostile/policy/dlopen.cu" "$dir/01-allocation/alloc.cu"
  grade 01-allocation "$dir"
  assert_failure
  assert_output --partial \
    "policy: dlopen at alloc.cu:6: loads code at run time; an instructor can allow it: ALLOW=dlopen"
  assert_equal "$(step_status 1)" failed
  assert_equal "$(awk -F '\t' '$2 == "passed"' "$RESULTS" | wc -l)" 0
  assert_output --partial "needs step 1 first: the program did not build (policy; step 1 shows why)"
  grade 01-allocation "$dir" --allow dlopen
  assert_output --partial "policy: ALLOW=dlopen (let through by the instructor)"
  refute_output --partial "policy: dlopen at"
  assert_equal "$(step_status 1)" passed
}

@test "the Makefile hands ALLOW to make check, run, watch and grade" {
  cd "$WB_ROOT"
  run make -n check LESSON=1 ALLOW=dlopen,asm
  assert_output --partial '--allow "dlopen,asm"'
  run make -n run LESSON=1 ALLOW=dlopen
  assert_output --partial 'WB_ALLOW="dlopen"'
  run make -n watch LESSON=1 ALLOW=dlopen
  assert_output --partial 'WB_ALLOW="dlopen"'
  run make -n grade CLASS=x ALLOW=dlopen
  assert_output --partial '--allow "dlopen"'
}

@test "make grade's grader hash changes with ALLOW: a result graded under other allowances is not reused" {
  local a b
  a=$("$WB_ROOT/grader/class/hashes.sh" grader cpu 01-allocation)
  b=$(WB_ALLOW=dlopen "$WB_ROOT/grader/class/hashes.sh" grader cpu 01-allocation)
  [ "$a" != "$b" ]
}
