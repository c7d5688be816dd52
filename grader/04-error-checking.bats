#!/usr/bin/env bats
# Grader for lesson 04, error-checking macros: one @test per graded step, its points in its name.
# The "# hint:" lines above a step are what `make hint LESSON=4` prints while the step is not passed.

setup_file() {
  load lib/grading
  lesson_setup_file
}

setup() {
  load lib/grading
}

# Every error the grader accepts, as the report line ends ("NAME: STRING"), in this one place.
# Toolkit drift (gpu-facts.md): a launch with more than 1024 threads per block returns 1 cudaErrorInvalidValue
# on CUDA 13.0 and 9 cudaErrorInvalidConfiguration on older toolkits. Both are right.
LAUNCH_ERRORS=("cudaErrorInvalidValue: invalid argument"
  "cudaErrorInvalidConfiguration: invalid configuration argument")
ILLEGAL_ADDRESS="cudaErrorIllegalAddress: an illegal memory access was encountered" # 700, sticky
ASSERT_FAILED="cudaErrorAssert: device-side assert triggered"                       # 710, sticky
OUT_OF_MEMORY="cudaErrorMemoryAllocation: out of memory"                            # 2

SOURCE=errors.cu
# Calls that wait for the device, where an error raised inside a kernel surfaces (cudaMemcpy, not ...Async).
SYNC_CALLS='cudaDeviceSynchronize|cudaStreamSynchronize|cudaEventSynchronize|cudaMemcpy[[:space:]]*\('
# Calls that read the last error, where a launch that could not start is reported.
LAUNCH_CHECKS='cudaGetLastError|cudaPeekAtLastError'

# --- this lesson's helpers: where in the student's own source a report must point ---------------------

# The source the program was built from (a copy of the student's file, taken before the build).
graded_source() { printf '%s\n' "$(wb_work)/build/src/$SOURCE"; }

# source_line ERE [FROM]: the number of the first line at or after FROM (default 1) of the graded source
# whose code, comments left out, matches ERE; nothing when no line does. Line numbers are computed from
# the student's file at grading time, so they follow every edit.
source_line() {
  RE=$1 FROM=${2:-1} awk '
    { code = $0; gsub(/\/\*.*\*\//, "", code); sub(/\/\/.*/, "", code) }
    code ~ /^[[:space:]]*(\/\*|\*)/ { next }
    NR >= ENVIRON["FROM"] + 0 && code ~ ENVIRON["RE"] { print NR; exit }' "$(graded_source)"
}

# The first line after LINE that holds code (not blank, not only a comment).
next_code_line() {
  FROM=$(($1 + 1)) awk '
    NR < ENVIRON["FROM"] + 0 { next }
    { code = $0; gsub(/\/\*.*\*\//, "", code); sub(/\/\/.*/, "", code) }
    code ~ /^[[:space:]]*(\/\*|\*)/ || code ~ /^[[:space:]]*$/ { next }
    { print NR; exit }' "$(graded_source)"
}

# Line N of the graded source, trimmed, for a failure message.
code_at() { sed -n "${1}p" "$(graded_source)" | sed 's/^[[:space:]]*//' | cut -c1-120; }

# read_error_line: the last run's one "error: FILE:LINE: CALL failed: NAME: STRING" line on stderr, split
# into ERR_TEXT, ERR_FILE, ERR_AT, ERR_CALL and ERR_WHAT ("NAME: STRING"). Returns 1 with ERR_WHY set
# when there is not exactly one "error: " line, or when it is not in that format.
read_error_line() {
  local count re='^error: ([^:]+):([0-9]+): (.+) failed: (cuda[A-Za-z]+: .*)$'
  count=$(grep -c '^error: ' "$RUN_DIR/stderr" || true)
  ERR_TEXT=$(grep -m1 '^error: ' "$RUN_DIR/stderr" || true)
  ERR_FILE="" ERR_AT="" ERR_CALL="" ERR_WHAT=""
  if [ "$count" -ne 1 ]; then
    ERR_WHY="it printed $count lines starting with \"error: \" on stderr, not one:"$'\n'"$(excerpt "$RUN_DIR/stderr" 6)"
    return 1
  fi
  if [[ ! $ERR_TEXT =~ $re ]]; then
    ERR_WHY="its line is not in the lesson's format: $ERR_TEXT"
    return 1
  fi
  ERR_FILE=${BASH_REMATCH[1]} ERR_AT=${BASH_REMATCH[2]} ERR_CALL=${BASH_REMATCH[3]} ERR_WHAT=${BASH_REMATCH[4]}
}

# The usual cause of a report line that is wrong in a way every step recognises; nothing otherwise.
known_mistake() {
  local code
  if [[ $ERR_WHAT == cudaSuccess:* ]]; then
    echo "CHECK_CUDA runs the call a second time to print its error, and the second call succeeded (a second cudaGetLastError() returns cudaSuccess; a second cudaMalloc allocates): keep the first result in a variable and use only that"
  elif [[ $ERR_WHAT == *": no error" ]]; then
    echo "the error's string comes from another call than the one checked (a second cudaGetLastError() returns cudaSuccess, whose string is \"no error\"): give cudaGetErrorString the error the checked call returned"
  elif [[ $ERR_FILE == */* ]]; then
    echo "FILE must be the file's name without its folders: base_name(__FILE__)"
  elif [ -n "$ERR_AT" ]; then
    code=$(code_at "$ERR_AT")
    if [[ $code == *__LINE__* ]] || [ "$ERR_AT" -lt "$(source_line '^static int run\(' || echo 0)" ]; then
      echo "line $ERR_AT is in the helper that prints the error, not where CHECK_CUDA is used: __LINE__ must be expanded in the macro, at the call"
    fi
  fi
}

# expect_error_line AT CALLS SHOWN CAUSE ACCEPTED...: the last run exited by itself with status 1, and its
# one "error: " line names $SOURCE, line AT, a call whose text starts with the ERE CALLS (SHOWN is that
# call as the expected line shows it) and ends with one of the ACCEPTED "NAME: STRING". CAUSE is the
# step's usual cause, given when no more precise one is known.
expect_error_line() {
  local at=$1 calls=$2 shown=$3 cause=$4 want happened a ok=0 why
  shift 4
  want="error: $SOURCE:$at: $shown failed: $1"
  [ $# -lt 2 ] || want="$want"$'\n'"          (or, from older toolkits: ...: $2)"
  if [ "$RUN_NORMAL" != 1 ] || [ "$RUN_STATUS" -ne 1 ]; then
    [ "$RUN_NORMAL" = 1 ] || cause=$(cause_of_run)
    fail "$(printf 'expected: exit status 1 and one line on stderr:\n          %s\nhappened: it %s; its stderr:\n%s\nusual cause: %s' \
      "$want" "$RUN_HOW" "$(excerpt "$RUN_DIR/stderr" 6)" "$cause")"
  fi
  read_error_line ||
    fail "$(printf 'expected: one line on stderr:\n          %s\nhappened: %s\nusual cause: %s' "$want" "$ERR_WHY" "$cause")"
  for a in "$@"; do [ "$ERR_WHAT" != "$a" ] || ok=1; done
  if [ "$ERR_FILE" = "$SOURCE" ] && [ "$ERR_AT" = "$at" ] && [[ $ERR_CALL =~ ^($calls) ]] && [ "$ok" = 1 ]; then
    return 0
  fi
  happened=$ERR_TEXT
  [ "$ERR_AT" = "$at" ] || happened="$happened"$'\n'"          (line $ERR_AT of $SOURCE is: $(code_at "$ERR_AT"))"
  why=$(known_mistake)
  fail "$(printf 'expected: %s\nhappened: %s\nusual cause: %s' "$want" "$happened" "${why:-$cause}")"
}

# launch_line KERNEL: sets LAUNCH_AT to the line of the provided launch of KERNEL; fails when the
# student's file no longer has it.
launch_line() {
  LAUNCH_AT=$(source_line "$1[[:space:]]*<<<")
  [ -n "$LAUNCH_AT" ] ||
    fail "$(printf 'expected: the launch of %s the skeleton provides (%s<<<...>>>)\nhappened: %s has no such launch\nusual cause: the provided code was edited away (make reset LESSON=4 restores the skeleton, saving yours)' "$1" "$1" "$SOURCE")"
}

# hint: Build it yourself with `make run LESSON=4`. The build uses -Wall -Wextra: a warning about an
# hint: unused variable or label often means a step is not written yet.
@test "step 1: compiles cleanly, without warnings (1 point)" {
  expect_clean_build
}

# hint: One cleanup at the end of run(), reached by every path (goto cleanup), frees both buffers.
# hint: cudaFree(NULL) does nothing, so the cleanup needs no flags; the success path must go through it too.
@test "step 2: runs and frees everything when nothing fails (2 points)" {
  require_program
  run_program --name run --
  expect_exit 0
  expect_output "$(expected_file run.out)" "a step left half written: the program's result lines are provided"
  [ ! -s "$RUN_DIR/stderr" ] ||
    fail "$(printf 'expected: nothing on stderr when nothing fails\nhappened: it printed:\n%s\nusual cause: a check that reports success as a failure (compare with cudaSuccess)' "$(excerpt "$RUN_DIR/stderr" 6)")"
  expect_no_leaks
  expect_no_invalid_frees
  run_program --name run-1000 -- 1000
  expect_exit 0
  expect_output "$(expected_file run-1000.out)" "the size must follow n, the program's argument"
  expect_no_leaks
}

# hint: CHECK_CUDA(call) must run the call once, keep what it returned, and print the line from that
# hint: value: __FILE__, __LINE__ and #call expand where the macro is used. A launch returns nothing:
# hint: CHECK_CUDA(cudaGetLastError()) right after it is where an invalid launch is reported.
@test "step 3: reports an invalid launch at the line that checks it (3 points)" {
  require_program
  local launch check
  launch_line fill
  launch=$LAUNCH_AT
  run_program --name bad-launch -- --bad-launch
  check=$(next_code_line "$launch")
  # A check written on the launch's own line counts as right after it.
  if sed -n "${launch}p" "$(graded_source)" | grep -qE "$LAUNCH_CHECKS"; then
    check=$launch
  fi
  read_error_line || true
  if [ "$ERR_AT" != "$check" ] && ! sed -n "${check}p" "$(graded_source)" | grep -qE "$LAUNCH_CHECKS"; then
    fail "$(printf 'expected: the launch of fill (line %s) checked on the very next line, which then reports:\n          error: %s:%s: cudaGetLastError() failed: %s\nhappened: the next line is "%s", and the program %s; its stderr:\n%s\nusual cause: %s' \
      "$launch" "$SOURCE" $((launch + 1)) "${LAUNCH_ERRORS[0]}" "$(code_at "$check")" "$RUN_HOW" "$(excerpt "$RUN_DIR/stderr" 4)" \
      "the launch is not checked right after it: a later check then finds its error and reports it at its own line, or nothing does and the result is wrong")"
  fi
  expect_error_line "${check:-?}" "$LAUNCH_CHECKS" "cudaGetLastError()" \
    "the launch of fill (line $launch) is not checked right after it: a later check then finds its error and reports it at the wrong line; or CHECK_CUDA does not report and leave" \
    "${LAUNCH_ERRORS[@]}"
  expect_no_leaks
}

# hint: An error inside a kernel (an illegal address, a failed assert) happens after the launch has
# hint: returned: it surfaces at the next call that waits for the device. Wait with
# hint: CHECK_CUDA(cudaDeviceSynchronize()) before reading results back.
@test "step 4: reports a kernel's failure at the call that waits for it (3 points)" {
  require_program
  local mode kernel what launch wait shown
  for mode in out-of-bounds assert; do
    case $mode in
      out-of-bounds) kernel=write_at what=$ILLEGAL_ADDRESS ;;
      assert) kernel=assert_first_is what=$ASSERT_FAILED ;;
    esac
    launch_line "$kernel"
    launch=$LAUNCH_AT
    wait=$(source_line "$SYNC_CALLS" $((launch + 1)))
    shown=$(sed -n "${wait:-1}p" "$(graded_source)" | grep -oE 'cuda[A-Za-z]*Synchronize|cudaMemcpy' | head -n 1)
    case $shown in
      "") shown="cudaDeviceSynchronize()" ;;
      cudaMemcpy) shown="cudaMemcpy(...)" ;;
      *) shown="$shown()" ;;
    esac
    run_program --name "$mode" -- "--$mode"
    expect_error_line "${wait:-?}" "$SYNC_CALLS" "$shown" \
      "the result of the call that waits for the kernels (line ${wait:-?}) is not checked, so the error surfaces at a later call or not at all" \
      "$what"
  done
}

# hint: Out of memory and an invalid launch fail only their own call: clean up and exit 1. An illegal
# hint: address (700) or a failed device assert (710) loses the context: every later call fails the same
# hint: way, cudaFree too. is_sticky() tells them apart, and the cleanup frees only when it may.
@test "step 5: frees after mild errors, not after sticky ones (2 points)" {
  require_program
  local mode after
  run_program --name bad-launch -- --bad-launch
  expect_exit 1
  expect_no_leaks
  for mode in out-of-bounds assert; do
    run_program --name "$mode" -- "--$mode"
    expect_exit 1
    [ -f "$RUN_DIR/report" ] ||
      fail "$(printf 'expected: a leak report at exit\nhappened: none was written; the program %s\nusual cause: %s' "$RUN_HOW" "$(cause_of_run)")"
    after=$(calls class=free | awk -F '\t' '$4 != 0' | grep -c . || true)
    [ "$after" -eq 0 ] ||
      fail "$(printf 'expected: after the sticky error of errors --%s, no more CUDA calls\nhappened: %s free call(s) failed after it:\n%s\nusual cause: is_sticky() does not recognise %s, or the cleanup frees whatever the error was' \
        "$mode" "$after" "$(calls class=free | awk -F '\t' '$4 != 0' | head -n 3 | while IFS= read -r c; do printf '    %s\n' "$(call_text "$c")"; done)" \
        "$([ "$mode" = assert ] && echo "cudaErrorAssert (710)" || echo "cudaErrorIllegalAddress (700)")")"
  done
}

# hint: The memory checker (compute-sanitizer, or the CPU backend's) reports any access outside an
# hint: allocation, even the small overruns a real GPU lets pass: a kernel or copy that reaches one past the end.
@test "step 6: runs clean under the memory checker (2 points)" {
  require_program
  expect_memcheck_clean 1000
}

# hint: When an allocation fails, CHECK_CUDA prints one line ending in ": out of memory", the cleanup
# hint: frees what is already allocated, and run() returns 1. Every cudaMalloc goes through CHECK_CUDA.
@test "step 7: survives running out of device memory (3 points)" {
  require_program
  local calls alloc
  alloc=$(source_line 'cudaMalloc[[:space:]]*\(.*d_data')
  expect_real_oom --format located "error: $SOURCE:${alloc:-?}: cudaMalloc((void **)&d_data, bytes) failed: $OUT_OF_MEMORY" \
    "the return value of cudaMalloc is not checked, or CHECK_CUDA does not leave through the cleanup"
  calls=$(grep -c '^call .* bytes=400000000000 ' "$RUN_DIR/report" || true)
  [ "$calls" -eq 1 ] ||
    fail "$(printf 'expected: one cudaMalloc of 400000000000 bytes\nhappened: the program made %s such calls\nusual cause: CHECK_CUDA evaluates its argument twice (once to test it, once to print it): each use runs the call again' "$calls")"
  expect_error_line "${alloc:-?}" cudaMalloc "cudaMalloc((void **)&d_data, bytes)" \
    "the line must point at the cudaMalloc of d_data, the call that failed" "$OUT_OF_MEMORY"
  fault_sweep --format located
}
