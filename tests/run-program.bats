#!/usr/bin/env bats
# The grader's way of running a student's program: time limit, output cap, crash report, sandbox,
# clean environment. Plain C fixtures stand in for student programs, so no GPU is needed.

setup() {
  load lib/helpers
  export WB_WORK=$BATS_TEST_TMPDIR/work WB_BACKEND=gpu WB_LESSON=01-allocation
  # shellcheck source=grader/lib/grading.bash
  BATS_TEST_DIRNAME=$WB_ROOT/grader load "$WB_ROOT/grader/lib/grading"
}

# fixture NAME: builds tests/fixtures/programs/NAME.c as the program the grader runs.
fixture() {
  mkdir -p "$WB_WORK/build"
  gcc -O1 -o "$WB_WORK/build/program" "$WB_ROOT/tests/fixtures/programs/$1.c"
}

@test "a normal exit is reported with its status" {
  fixture echo-env
  run_program --name ok -- 3
  [ "$RUN_NORMAL" = 1 ]
  [ "$RUN_STATUS" = 3 ]
  assert_equal "$RUN_HOW" "exited with status 3"
}

@test "a crash is reported with its signal and the usual cause" {
  fixture crash
  run_program --name crash --
  [ "$RUN_NORMAL" = 0 ]
  assert_equal "$RUN_HOW" "was killed by SIGSEGV (exit status 139)"
  run expect_exit 0
  assert_failure
  assert_output --partial "host code read or wrote through a device pointer"
}

@test "a program that never ends is stopped at its limit and reported as timed out" {
  fixture loop
  WB_TIMEOUT=2
  local start=$SECONDS
  run_program --name loop --
  [ $((SECONDS - start)) -lt 10 ]
  assert_equal "$RUN_HOW" "timed out after 2 s and was stopped"
}

@test "on the CPU backend the limit is CPU time: a busy machine does not turn a run into a time-out" {
  fixture spin
  WB_BACKEND=cpu WB_TIMEOUT=2 WB_CPU_CORES=2 WB_CPU_WALL_FACTOR=4
  # The program and two busy loops share one core: 1.5 s of work takes about 4 s, past the 2 s the limit
  # names, but its CPU time stays under it.
  taskset -pc 0 "$BASHPID" >/dev/null || skip "taskset cannot pin this shell to one core"
  taskset -c 0 sh -c 'while :; do :; done' &
  local busy=$!
  taskset -c 0 sh -c 'while :; do :; done' &
  local busy2=$!
  run_program --name spin -- 1.5
  kill "$busy" "$busy2"
  [ "$(cat "$RUN_DIR/elapsed-ms")" -gt 2000 ] || skip "the busy loop did not slow the program down"
  assert_equal "$RUN_HOW" "exited with status 0"
}

@test "on the CPU backend a program that never ends is stopped at its CPU time limit" {
  fixture loop
  WB_BACKEND=cpu WB_TIMEOUT=2 WB_CPU_CORES=1
  run_program --name loop --
  [ "$RUN_NORMAL" = 0 ]
  assert_equal "$RUN_HOW" "timed out after 2 s and was stopped (the CPU backend counts CPU time, 2 s for each of the 1 cores it may use, so that a busy machine cannot cut a run short)"
}

@test "100 MB of output is capped and reported" {
  fixture flood
  run_program --name flood --
  [ "$RUN_NORMAL" = 0 ]
  assert_equal "$RUN_HOW" "printed more than 1024 KiB and was stopped"
  [ "$(stat -c %s "$RUN_DIR/stdout")" -le $((1024 * 1024)) ]
}

@test "the program cannot overwrite the grader's expected outputs" {
  sandbox_available || skip "no sandbox here: $WB_SANDBOX_WHY"
  fixture overwrite
  local target=$WB_ROOT/grader/01-allocation/expected/probe.out before
  before=$(cksum <"$target")
  run_program --name hostile -- "$target"
  assert_equal "$(cksum <"$target")" "$before"
  [ "$RUN_STATUS" = 3 ]
  run grep -Eq "^fopen: (Read-only file system|No such file or directory)$" "$RUN_DIR/stderr"
  assert_success
}

@test "the program writes in its working folder, a scratch folder of its own, and not in its run folder" {
  sandbox_available || skip "no sandbox here: $WB_SANDBOX_WHY"
  fixture overwrite
  run_program --name own -- scratch-file
  [ "$RUN_STATUS" = 0 ]
  run_program --name own-run-folder -- "$WB_WORK/runs/own-run-folder/planted"
  [ "$RUN_STATUS" = 3 ]
  assert_file_not_exists "$WB_WORK/runs/own-run-folder/planted"
}

@test "the program's environment holds nothing of the grader's but the fault-injection settings" {
  fixture echo-env
  WB_SECRET=1 run_program --name env --env CUDAWB_FAIL_ALLOC=2 --
  assert_file_contains "$RUN_DIR/stdout" "^CUDAWB_FAIL_ALLOC=2$"
  # The report's path as the program sees it: a file bound into the sandbox, or the run folder's.
  grep -Eq "^CUDAWB_REPORT=(/wb/report|$RUN_DIR/report)$" "$RUN_DIR/stdout" || fail "$(cat "$RUN_DIR/stdout")"
  run ! grep -q "WB_ROOT" "$RUN_DIR/stdout"
  run ! grep -q "WB_SECRET" "$RUN_DIR/stdout"
}

@test "a second run with the same name reuses the first" {
  fixture echo-env
  run_program --name same -- 5
  fixture crash
  run_program --name same -- 5
  [ "$RUN_STATUS" = 5 ]
}

@test "a line printed for a call may be a later line of its statement, never a line with code of its own" {
  # gcc 13 at -O2 gives a statement over several lines its first line only; a call's __LINE__ can be below it.
  mkdir -p "$WB_WORK/build"
  gcc -O2 -g -o "$WB_WORK/build/program" "$WB_ROOT/tests/fixtures/programs/statement-lines.c"
  local f=statement-lines.c
  same_line "$f:7" "$f:7"
  same_line "$f:7" "$f:9"
  run same_line "$f:7" "$f:10"
  assert_failure
  run same_line "$f:7" "$f:6"
  assert_failure
  run same_line "$f:7" "other.c:9"
  assert_failure
}

@test "a cuBLAS product whose operand runs past its buffer is found from the trace, whatever lies beyond it" {
  RUN_DIR=$BATS_TEST_TMPDIR/run && mkdir -p "$RUN_DIR"
  # A is 4 x 3 floats (48 bytes), B 3 x 5 (60), C 4 x 5 (80); a block of C's last rows starts at alloc#3+64.
  {
    printf '1\tcudaMalloc\talloc\t0\tm.cu:1\t1\tbytes=48 alloc=1 ptr=alloc#1\n'
    printf '2\tcudaMalloc\talloc\t0\tm.cu:2\t1\tbytes=60 alloc=2 ptr=alloc#2\n'
    printf '3\tcudaMalloc\talloc\t0\tm.cu:3\t1\tbytes=80 alloc=3 ptr=alloc#3\n'
    printf '4\tcublasSgemm\top\t0\tm.cu:10\t1\tta=N tb=N mnk=4x5x3 A=alloc#1 lda=4 B=alloc#2 ldb=3 C=alloc#3 ldc=4\n'
    printf '5\tcublasSgemm\top\t0\tm.cu:11\t1\tta=T tb=T mnk=5x4x3 A=alloc#2 lda=3 B=alloc#1 ldb=4 C=alloc#3 ldc=5\n'
    printf '6\tcublasSgemm\top\t0\tm.cu:12\t1\tta=N tb=N mnk=4x5x3 A=alloc#1 lda=5 B=alloc#2 ldb=3 C=alloc#3 ldc=4\n'
    printf '7\tcublasSgemm\top\t0\tm.cu:13\t1\tta=N tb=N mnk=1x5x3 A=alloc#1+12 lda=4 B=alloc#2 ldb=3 C=alloc#3+12 ldc=4\n'
    printf '8\tcublasSgemm\top\t0\tm.cu:14\t1\tta=N tb=N mnk=2x5x3 A=alloc#1+8 lda=4 B=alloc#2 ldb=3 C=alloc#3+12 ldc=4\n'
    printf '9\tcublasSgemm\top\t7\tm.cu:15\t1\tta=N tb=N mnk=4x5x3 A=alloc#1 lda=9 B=alloc#2 ldb=3 C=alloc#3 ldc=4\n'
    printf '10\tcublasSgemv\top\t0\tm.cu:16\t1\tta=T mn=4x3 A=alloc#1 lda=4 x=alloc#3 incx=7 y=alloc#2 incy=-2\n'
    # a pitched buffer (3 rows of a 64-byte pitch: 192 bytes) used with ld = 16 floats, whole (12) and from its
    # second float (15: 4 bytes past); a managed one of unknown size, not judged (14)
    printf '11\tcudaMallocPitch\talloc\t0\tm.cu:17\t1\twidth=48 height=3 alloc=4 ptr=alloc#4 pitch=64\n'
    printf '12\tcublasSgemm\top\t0\tm.cu:18\t1\tta=N tb=N mnk=12x3x3 A=alloc#4 lda=16 B=alloc#2 ldb=3 C=alloc#4 ldc=16\n'
    printf '13\tcudaMallocManaged\talloc\t0\tm.cu:19\t1\talloc=5 ptr=managed#5\n'
    printf '14\tcublasSgemm\top\t0\tm.cu:20\t1\tta=N tb=N mnk=4x5x3 A=managed#5 lda=400 B=alloc#2 ldb=3 C=alloc#3 ldc=4\n'
    printf '15\tcublasSgemm\top\t0\tm.cu:21\t1\tta=N tb=N mnk=16x3x3 A=alloc#4+4 lda=16 B=alloc#2 ldb=3 C=alloc#4 ldc=16\n'
  } >"$RUN_DIR/calls.tsv"
  run library_overruns
  assert_success
  # 6: A, 3 columns 5 apart (14 floats, 56 bytes); 8: C's block of 2 rows from row 3 runs one float past.
  # 10: a gemv of A^T, whose x has m = 4 elements, 7 apart: 22 floats.
  assert_equal "$(cut -f1,8 <<<"$output")" "$(printf '%s\n' \
    "6	A (alloc#1), 3 columns of 4 floats each 5 apart, spans 56 bytes: 8 past the end of its 48-byte allocation" \
    "8	C (alloc#3+12), 5 columns of 2 floats each 4 apart, spans 72 bytes: 4 past the end of its 80-byte allocation" \
    "10	x (alloc#3), 4 floats 7 apart, spans 88 bytes: 8 past the end of its 80-byte allocation" \
    "15	A (alloc#4+4), 3 columns of 16 floats each 16 apart, spans 192 bytes: 4 past the end of its 192-byte allocation")"
}

@test "the same sources are built once: a copy from the build cache names the new folder's files; a change, or an allowance, builds again" {
  require_solutions
  require_backend
  export WB_BACKEND WB_BUILD_CACHE_DIR=$BATS_TEST_TMPDIR/cache
  WB_BACKEND=$(wb_backend)
  backend_choose "$WB_BACKEND"
  local a=$BATS_TEST_TMPDIR/a b=$BATS_TEST_TMPDIR/b
  mkdir -p "$a" "$b"
  # A warning, so that the message's path shows whose files it names.
  sed 's/^int main(/static int never_used(void) { int x; return 0; }\nint main(/' \
    "$WB_ROOT/solutions/01-allocation/alloc.cu" >"$a/alloc.cu"
  cp "$a/alloc.cu" "$b/alloc.cu"
  build_program 01-allocation "$a" "$WB_WORK/one" || fail "does not build: $(cat "$WB_WORK/one/compile.log")"
  assert_equal "$(cat "$WB_WORK/one/status")" ok
  assert_file_not_exists "$WB_WORK/one/cached"
  assert_file_contains "$WB_WORK/one/compile.log" "^$a/alloc.cu:"
  # The same sources from another folder: the kept build, its messages naming that folder's file.
  build_program 01-allocation "$b" "$WB_WORK/two"
  assert_equal "$(cat "$WB_WORK/two/status")" ok
  assert_file_exists "$WB_WORK/two/cached"
  assert_file_contains "$WB_WORK/two/compile.log" "^$b/alloc.cu:"
  ! grep -qF "$a/" "$WB_WORK/two/compile.log" || fail "the kept build's messages name the first folder"
  cmp "$WB_WORK/one/program" "$WB_WORK/two/program"
  # One byte changed, or another allowance: built again.
  echo '// changed' >>"$b/alloc.cu"
  build_program 01-allocation "$b" "$WB_WORK/three"
  assert_file_not_exists "$WB_WORK/three/cached"
  WB_ALLOW=asm build_program 01-allocation "$a" "$WB_WORK/four"
  assert_file_not_exists "$WB_WORK/four/cached"
  # A build that did not end ok is never kept.
  echo 'this is not C' >>"$b/alloc.cu"
  build_program 01-allocation "$b" "$WB_WORK/five" || true
  build_program 01-allocation "$b" "$WB_WORK/six" || true
  assert_equal "$(cat "$WB_WORK/six/status")" compile-error
  assert_file_not_exists "$WB_WORK/six/cached"
  # The oldest go beyond WB_BUILD_CACHE_ENTRIES.
  assert_equal "$(find "$WB_BUILD_CACHE_DIR" -mindepth 1 -maxdepth 1 | wc -l)" 3
  WB_BUILD_CACHE_ENTRIES=2 WB_ALLOW=dlopen build_program 01-allocation "$a" "$WB_WORK/seven"
  assert_equal "$(find "$WB_BUILD_CACHE_DIR" -mindepth 1 -maxdepth 1 | wc -l)" 2
}
