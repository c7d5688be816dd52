#!/usr/bin/env bats
# The out-of-memory contract's checks, fed with made-up runs: what passes, and what each failure says.

setup() {
  load lib/helpers
  export WB_WORK=$BATS_TEST_TMPDIR/work WB_BACKEND=gpu WB_LESSON=01-allocation
  BATS_TEST_DIRNAME=$WB_ROOT/grader load "$WB_ROOT/grader/lib/grading"
  RUN_DIR=$WB_WORK/runs/fake
  mkdir -p "$RUN_DIR"
  RUN_NORMAL=1 RUN_STATUS=1 RUN_HOW="exited with status 1"
}

# report LIVE [LEAK_LINE]: a report as the trace writes it, in which the second allocation failed.
report() {
  printf 'cudawb-report 2\ncall n=1 fn=cudaMalloc class=alloc status=0 site=alloc.cu:56 bytes=4000000 alloc=1 ptr=alloc#1\ncall n=2 fn=cudaMalloc class=alloc status=2 site=alloc.cu:61 bytes=4 alloc=2 ptr=null injected=1\nalloc-calls 2\ninvalid-frees 0\nlive-handles 0\nlive %s 0\n%s' "$1" "${2:-}" >"$RUN_DIR/report"
}

@test "the contract holds: one error line naming the call and its bytes, exit status 1, nothing left" {
  echo "error: cudaMalloc of 4 bytes failed: out of memory" >"$RUN_DIR/stderr"
  report 0
  run contract_kept
  assert_success
}

@test "exiting with status 0 after a failed allocation breaks the contract" {
  RUN_STATUS=0 RUN_HOW="exited with status 0"
  echo "error: cudaMalloc of 4 bytes failed: out of memory" >"$RUN_DIR/stderr"
  report 0
  run contract_kept
  assert_failure
  assert_output --partial "exited with status 0 (the contract: exit status 1)"
}

@test "an error line that names another call, or other bytes, breaks the contract" {
  echo "error: cudaMemset of 4000000 bytes failed: out of memory" >"$RUN_DIR/stderr"
  report 0
  run contract_kept
  assert_failure
  assert_output --partial "its line does not name the call that failed (cudaMalloc)"
  echo "error: cudaMalloc of 4000000 bytes failed: out of memory" >"$RUN_DIR/stderr"
  run contract_kept
  assert_failure
  assert_output --partial "how many bytes the call was for (4, as in the trace)"
}

@test "an error line without CUDA's string for the error the call returned breaks the contract" {
  echo "error: cudaMalloc of 4 bytes failed: invalid argument" >"$RUN_DIR/stderr"
  report 0
  run contract_kept
  assert_failure
  assert_output --partial "does not end with CUDA's string for error 2"
}

@test "more than one error line on stderr breaks the contract; other lines on stderr do not" {
  printf 'error: cudaMalloc of 4 bytes failed: out of memory\nerror: cleaning up\n' >"$RUN_DIR/stderr"
  report 0
  run contract_kept
  assert_failure
  assert_output --partial "it printed 2 lines starting with"
  printf 'error: cudaMalloc of 4 bytes failed: out of memory\ncleaning up\n' >"$RUN_DIR/stderr"
  run contract_kept
  assert_success
}

@test "memory still allocated at exit breaks the contract and is listed" {
  echo "error: cudaMalloc of 4 bytes failed: out of memory" >"$RUN_DIR/stderr"
  report 1 "leak fn=cudaMalloc bytes=4000000 ptr=alloc#1 site=alloc.cu:58"
  run contract_kept
  assert_failure
  assert_output --partial "cudaMalloc of 4000000 bytes at alloc.cu:58, never freed"
}

@test "a sticky error the trace made (an injected synchronize, and every call after it) excuses the cleanup" {
  echo "error: cudaDeviceSynchronize failed: an illegal memory access was encountered" >"$RUN_DIR/stderr"
  printf 'cudawb-report 2\ncall n=1 fn=cudaMalloc class=alloc status=0 site=alloc.cu:56 bytes=4000000 alloc=1 ptr=alloc#1\ncall n=2 fn=cudaDeviceSynchronize class=sync status=700 site=alloc.cu:70 injected=1\ncall n=3 fn=cudaFree class=free status=700 site=alloc.cu:90 ptr=alloc#1 sticky=1\nalloc-calls 1\ninvalid-frees 0\nlive-handles 0\nlive 1 4000000\nleak fn=cudaMalloc bytes=4000000 ptr=alloc#1 site=alloc.cu:56\nsticky 700 injected=1\n' >"$RUN_DIR/report"
  run contract_kept
  assert_success
}

@test "a sticky error the program brought about itself after the failure does not excuse the cleanup" {
  mkdir -p "$WB_WORK/build/src" && : >"$WB_WORK/build/src/alloc.cu"
  echo "error: cudaMalloc of 4 bytes failed: out of memory" >"$RUN_DIR/stderr"
  printf 'cudawb-report 2\ncall n=1 fn=cudaMalloc class=alloc status=0 site=alloc.cu:56 bytes=4000000 alloc=1 ptr=alloc#1\ncall n=2 fn=cudaMalloc class=alloc status=2 site=alloc.cu:61 bytes=4 alloc=2 ptr=null injected=1\ncall n=3 fn=cudaLaunchKernel class=op status=0 site=alloc.cu:64 kernel=fill args=alloc#1+400000000,1\ncall n=4 fn=cudaDeviceSynchronize class=sync status=700 site=alloc.cu:65\nalloc-calls 2\ninvalid-frees 0\nlive-handles 0\nlive 1 4000000\nleak fn=cudaMalloc bytes=4000000 ptr=alloc#1 site=alloc.cu:56\nsticky 700\n' >"$RUN_DIR/report"
  run contract_kept
  assert_failure
  assert_output --partial "after the injected failure of cudaMalloc at alloc.cu:61, cudaDeviceSynchronize at alloc.cu:65 returned 700 (cudaErrorIllegalAddress: an illegal memory access was encountered), an error the injection did not cause: the leak check cannot be skipped for it"
}

@test "lesson 04's format: the line gives the failed call's own file and line" {
  mkdir -p "$WB_WORK/build/src" && : >"$WB_WORK/build/src/alloc.cu"
  echo "error: alloc.cu:61: cudaMalloc(&d, 4) failed: cudaErrorMemoryAllocation: out of memory" >"$RUN_DIR/stderr"
  report 0
  run contract_kept located
  assert_success
  echo "error: alloc.cu:99: cudaMalloc(&d, 4) failed: cudaErrorMemoryAllocation: out of memory" >"$RUN_DIR/stderr"
  run contract_kept located
  assert_failure
  assert_output --partial "does not give the line of the call that failed (alloc.cu:61)"
}

@test "a double free is reported with the call that made it" {
  mkdir -p "$WB_WORK/build/src" && : >"$WB_WORK/build/src/alloc.cu"
  printf 'cudawb-report 2\ncall n=7 fn=cudaFree class=free status=1 site=alloc.cu:90 ptr=freed#1 invalid=1\ninvalid-frees 1\n' >"$RUN_DIR/report"
  run expect_no_invalid_frees
  assert_failure
  assert_output --partial "cudaFree(freed#1) at alloc.cu:90"
}

@test "a call site is named by the student's file and line, also when nvcc's debug information names its intermediate file" {
  require_solutions
  command -v nvcc >/dev/null 2>&1 && command -v objdump >/dev/null 2>&1 || skip "needs nvcc and objdump"
  local src=$WB_ROOT/solutions/01-allocation/alloc.cu call want wrap
  wrap=$("$WB_ROOT/grader/shim/wrapped.sh")
  mkdir -p "$WB_WORK/build/src" && cp "$src" "$WB_WORK/build/src/"
  # The trace's objects built in this test's own folder: the repository's build/ is held byte-identical by
  # tests running beside this one (tests/hostile.bats).
  nvcc -O2 -g -arch=sm_90 -I "$WB_ROOT/kernels" -o "$WB_WORK/build/program" "$src" \
    "$(WB_BUILD=$BATS_TEST_TMPDIR/tools trace_object)" -Xlinker "--wrap=${wrap//$'\n'/,--wrap=}"
  call=$(objdump -d --no-show-raw-insn "$WB_WORK/build/program" | grep -m1 'call.*<__wrap_cudaMalloc>' | awk '{print $1}' | tr -d :)
  want=alloc.cu:$(grep -n -m1 'cudaMalloc((void \*\*)&d_data' "$src" | cut -d: -f1)
  assert_equal "$(site_text "$(printf '+0x%x' $((0x$call + 4)))")" "$want"
}

@test "one grader can sweep two modes of a program, each under its own run names, failing every call site" {
  require_solutions
  require_backend
  export WB_BACKEND
  WB_BACKEND=$(wb_backend)
  backend_choose "$WB_BACKEND"
  build_program 01-allocation "$WB_ROOT/solutions/01-allocation" "$WB_WORK/build"
  fault_sweep
  fault_sweep --name small 1000
  assert_file_exists "$WB_WORK/runs/sweep-2/report"
  assert_file_exists "$WB_WORK/runs/small-2/report"
  assert_file_contains "$WB_WORK/runs/small-2/stderr" "^error: cudaMalloc of 4000 bytes failed: out of memory$"
  # a memset and a launch are failed too, each with its own error
  grep -qx "error: cudaMemset of 4000 bytes failed: invalid argument" "$WB_WORK"/runs/small-*/stderr
  grep -q 'fn=cudaLaunchKernel .*injected=1' "$WB_WORK"/runs/small-*/report
}

@test "a stream or event still alive at exit is a leak, and the message counts it" {
  printf 'cudawb-report 2\nalloc-calls 1\ninvalid-frees 0\nlive-handles 0\nlive-streams 2\nlive-events 0\nlive 0 0\n' >"$RUN_DIR/report"
  run expect_no_leaks
  assert_failure
  assert_output --partial "still alive at exit: 0 allocation(s), 2 stream(s), 0 event(s), 0 cuBLAS handle(s)"
}

@test "a probe question asked with another call than it names fails the probe's step, not the failure sweep as well" {
  require_solutions
  require_backend
  local dir
  dir=$(submission_from 06-pitched-memory solutions)
  # The question about a NULL pitch pointer asked with a cudaMalloc: unchecked, as a question's call is.
  sed -i 's|^\( *\)cudaMallocPitch((void \*\*)&other, NULL, 256, 4));|\1cudaMalloc((void **)\&other, 1024));|' \
    "$dir/06-pitched-memory/pitched.cu"
  grep -A1 'NULL pitch pointer",' "$dir/06-pitched-memory/pitched.cu" | grep -q 'cudaMalloc((void \*\*)&other, 1024));' ||
    fail "the question was not rewritten"
  grade 06-pitched-memory "$dir" --steps "8 11"
  assert_equal "$(step_status 8)" failed
  assert_equal "$(step_status 11)" passed
}
