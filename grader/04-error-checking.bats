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

# The memory checker's step, and its run's arguments: prime sizes drawn per grading (drawn_prime), the same
# for every step that asks the checker (a run that ended with a kernel's fault waits for it: ended_badly).
MEMCHECK_STEP=6
memcheck_args() { drawn_prime memcheck-n 1000 4000; }

# Every error the grader accepts, as the report line ends ("NAME: STRING"), in this one place.
# Toolkit drift (facts/gpu-facts.md): a launch with more than 1024 threads per block returns 1 cudaErrorInvalidValue
# on CUDA 13.0 and 9 cudaErrorInvalidConfiguration on older toolkits. Both are right.
# The calls the TODOs add: a launch check and a wait (a synchronize, or a copy beside the skeleton's
# one). The memory checker and the failure sweep grade how the work is done, so they need it.
LESSON_WORK="cudaMalloc=2 cudaGetLastError|cudaPeekAtLastError=1 cudaDeviceSynchronize|cudaStreamSynchronize|cudaEventSynchronize|cudaMemcpy=2"
LAUNCH_ERRORS=("cudaErrorInvalidValue: invalid argument"
  "cudaErrorInvalidConfiguration: invalid configuration argument")
ILLEGAL_ADDRESS="cudaErrorIllegalAddress: an illegal memory access was encountered" # 700, sticky
ASSERT_FAILED="cudaErrorAssert: device-side assert triggered"                       # 710, sticky
OUT_OF_MEMORY="cudaErrorMemoryAllocation: out of memory"                            # 2

SOURCE=errors.cu
# Calls that wait for the device, where an error raised inside a kernel surfaces (the call text starts so).
SYNC_CALLS='cudaDeviceSynchronize|cudaStreamSynchronize|cudaEventSynchronize|cudaMemcpy[[:space:]]*\('
# Calls that read the last error, where a launch that could not start is reported.
LAUNCH_CHECKS='cudaGetLastError|cudaPeekAtLastError'

# --- this lesson's helpers: where in the student's own file a report must point, from the trace ------

# The source the program was built from (a copy of the student's file, taken before the build).
graded_source() { printf '%s\n' "$WB_WORK/build/src/$SOURCE"; }

# Line N of the graded source, trimmed, for a failure message.
code_at() { sed -n "${1}p" "$(graded_source)" | sed 's/^[[:space:]]*//' | cut -c1-120; }

# The line number of a call record's site in the student's file ("errors.cu:84" -> 84).
line_of() { call_field "$1" line | sed -n "s/^$SOURCE:\([0-9]*\)$/\1/p"; }

# fault_run MODE: errors --MODE, whose kernel fails on purpose (out-of-bounds: 700, assert: 710). On a GPU
# it runs alone (lib/gpu-turns.sh): on an H100 shared with fifteen other gradings, a failed assert's wait
# (cudaDeviceSynchronize) once outlasted the 20 s limit, twice in one grading; alone it returns in 0.5 s
# (tests/gpu/README.md, 2026-12-07).
fault_run() { run_program --name "$1" --alone -- "--$1"; }

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
  if [[ $ERR_WHAT == cudaSuccess:* ]]; then
    echo "CHECK_CUDA runs the call a second time to print its error, and the second call succeeded (a second cudaGetLastError() returns cudaSuccess; a second cudaMalloc allocates): keep the first result in a variable and use only that"
  elif [[ $ERR_WHAT == *": no error" ]]; then
    echo "the error's string comes from another call than the one checked (a second cudaGetLastError() returns cudaSuccess, whose string is \"no error\"): give cudaGetErrorString the error the checked call returned"
  elif [[ $ERR_FILE == */* ]]; then
    echo "FILE must be the file's name without its folders: base_name(__FILE__)"
  elif [ -n "$ERR_AT" ] && [ -z "$(calls "line=$SOURCE:$ERR_AT")" ]; then
    echo "line $ERR_AT is not where any CUDA call was made: __LINE__ must be expanded in the macro, where CHECK_CUDA is used, not in a helper it calls"
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
  if [ "$ERR_FILE" = "$SOURCE" ] && same_line "$SOURCE:$at" "$SOURCE:$ERR_AT" && [[ $ERR_CALL =~ ^($calls) ]] && [ "$ok" = 1 ]; then
    return 0
  fi
  happened=$ERR_TEXT
  [ "$ERR_AT" = "$at" ] || happened="$happened"$'\n'"          (line $ERR_AT of $SOURCE is: $(code_at "$ERR_AT"))"
  why=$(known_mistake)
  fail "$(printf 'expected: %s\nhappened: %s\nusual cause: %s' "$want" "$happened" "${why:-$cause}")"
}

# hint: Build it yourself with `make run LESSON=4`. The build uses -Wall -Wextra: a warning about an
# hint: unused variable or label often means a step is not written yet.
@test "step 1: compiles cleanly, without warnings (1 point)" {
  expect_clean_build
}

# hint: One cleanup at the end of run(), reached by every path (goto cleanup), frees both buffers.
# hint: cudaFree(NULL) does nothing, so the cleanup needs no flags; the success path must go through it too.
@test "step 2: runs and frees everything when nothing fails (2 points)" {
  local n buf fill count copy scale
  require_program
  n=$(chosen_n)
  run_program --name "run-$n" -- "$n"
  expect_exit 0
  printf 'allocated %s bytes for %s floats\nfilled with 1: %s of %s elements are 1\n' $((n * 4)) "$n" "$n" "$n" >"$RUN_DIR/want.out"
  expect_output "$RUN_DIR/want.out" "a step left half written: the program's result lines are provided"
  [ ! -s "$RUN_DIR/stderr" ] ||
    fail "$(printf 'expected: nothing on stderr when nothing fails\nhappened: it printed:\n%s\nusual cause: a check that reports success as a failure (compare with cudaSuccess)' "$(excerpt "$RUN_DIR/stderr" 6)")"
  buf=$(calls --first fn=cudaMalloc "bytes=$((n * 4))" status=0)
  [ -n "$buf" ] || fail "expected: a cudaMalloc of $((n * 4)) bytes; happened: $(calls_of cudaMalloc)"
  expect_call cudaLaunchKernel kernel=count_equal "args=$(call_field "$buf" ptr),*" status=0 --because "the provided count of the ones was edited away"
  # The line "filled with 1" is the device's: fill, then count_equal after it, its counter copied back after
  # that, and the line printed after the copy.
  fill=$(calls --first fn=cudaLaunchKernel kernel=fill "args=$(call_field "$buf" ptr),$n,*" status=0)
  count=$(calls fn=cudaLaunchKernel kernel=count_equal "args=$(call_field "$buf" ptr),*" status=0 |
    awk -F '\t' -v f="$(call_field "$fill" n)" '$1 > f + 0' | head -n 1)
  copy=$(calls "fn=cudaMemcpy*" "src=$(call_field "$count" args | sed 's/.*,//')" status=0 |
    awk -F '\t' -v c="$(call_field "$count" n)" '$1 > c + 0 && $2 ~ /^cudaMemcpy(Async)?$/' | head -n 1)
  [ -n "$fill" ] && [ -n "$count" ] && [ -n "$copy" ] && follows "$(call_field "$fill" n)" "$(call_field "$count" n)" &&
    follows "$(call_field "$count" n)" "$(call_field "$copy" n)" ||
    fail "$(printf 'expected: fill over the %s floats of %s, count_equal after it, and its counter copied back after that\nhappened: the launches and copies were:\n%s\n%s\nusual cause: the provided code was edited away (make reset LESSON=4 restores the skeleton)' \
      "$n" "$(call_field "$buf" ptr)" "$(calls_of cudaLaunchKernel)" "$(calls_of cudaMemcpy)")"
  expect_waited "the copy of the count back" "filled with 1: " \
    "the count was read before the copy that brings it back had finished" "$(call_field "$copy" n)"
  expect_no_leaks
  expect_no_invalid_frees
  # The provenance run (lib/grading.bash): the counter scaled on its way back; the line must print it so.
  provenance_run "provenance-$n" i32 "$n"
  copy=$(calls "fn=cudaMemcpy*" moved=DeviceToHost bytes=4 status=0 | tail -n 1)
  scale=$(call_field "$copy" scale)
  expect_provenance "filled with 1: $((n * ${scale:-1})) of $n elements are 1" "the counter copied back by ${scale:-1}"
}

# hint: CHECK_CUDA(call) must run the call once, keep what it returned, and print the line from that
# hint: value: __FILE__, __LINE__ and #call expand where the macro is used. A launch returns nothing:
# hint: CHECK_CUDA(cudaGetLastError()) right after it is where an invalid launch is reported.
@test "step 3: reports an invalid launch at the line that checks it (3 points)" {
  local launch check mode unchecked
  require_program
  run_program --name bad-launch -- --bad-launch
  launch=$(calls --first fn=cudaLaunchKernel kernel=fill block=1025x1x1)
  [ -n "$launch" ] ||
    fail "$(printf 'expected: the provided launch of fill with 1025 threads per block (errors --bad-launch)\nhappened: no such launch; the program %s\nusual cause: the provided code was edited away (make reset LESSON=4 restores the skeleton, saving yours)' "$RUN_HOW")"
  check=$(calls | awk -F '\t' -v l="$(call_field "$launch" n)" '$1 > l { print; exit }')
  if [ "$(call_field "$check" class)" != error ]; then
    fail "$(printf 'expected: the launch of fill (%s) checked right after it, with CHECK_CUDA(cudaGetLastError())\nhappened: the next CUDA call is %s; the program %s, its stderr:\n%s\nusual cause: the launch is not checked right after it: a later check then finds its error and reports it at its own line, or nothing does' \
      "$(call_field "$launch" line)" "${check:+$(call_text "$check")}" "$RUN_HOW" "$(excerpt "$RUN_DIR/stderr" 4)")"
  fi
  expect_error_line "$(line_of "$check")" "$LAUNCH_CHECKS" "$(call_field "$check" fn)()" \
    "the launch's check (line $(line_of "$check")) is not what reports it: CHECK_CUDA must print its line and leave through the cleanup" \
    "${LAUNCH_ERRORS[@]}"
  expect_no_leaks
  # Every launch of every mode is checked right after it: the next CUDA call reads the error state.
  for mode in out-of-bounds assert; do
    fault_run "$mode"
    unchecked=$(calls | awk -F '\t' 'prev != "" && $3 != "error" { print prev } { prev = ($2 == "cudaLaunchKernel") ? $0 : "" }' | head -n 1)
    [ -z "$unchecked" ] ||
      fail "$(printf 'expected: every launch checked right after it, with CHECK_CUDA(cudaGetLastError())\nhappened: in errors --%s, %s is followed by another CUDA call\nusual cause: a launch without its check: its error then surfaces at a later check, which reports it at the wrong line' "$mode" "$(call_text "$unchecked")")"
  done
}

# hint: An error inside a kernel (an illegal address, a failed assert) happens after the launch has
# hint: returned: it surfaces at the next call that waits for the device. Wait with
# hint: CHECK_CUDA(cudaDeviceSynchronize()) before reading results back.
@test "step 4: reports a kernel's failure at the call that waits for it (3 points)" {
  require_program
  local mode code what first fn
  for mode in out-of-bounds assert; do
    case $mode in
      out-of-bounds) code=700 what=$ILLEGAL_ADDRESS ;;
      assert) code=710 what=$ASSERT_FAILED ;;
    esac
    fault_run "$mode"
    # The first call that returned the kernel's error: the wait that found it.
    first=$(calls --first "status=$code")
    fn=$(call_field "$first" fn)
    if [ -z "$first" ] || { [ "$(call_field "$first" class)" != sync ] && [ "$fn" != cudaMemcpy ]; }; then
      fail "$(printf 'expected: with --%s, a call that waits for the kernels (cudaDeviceSynchronize, or a blocking cudaMemcpy) returns %s\nhappened: %s\nusual cause: no call waits for the kernels before the results are read, so the error surfaces late or not at all' \
        "$mode" "${what%%:*}" "${first:+the first call to return it was $(call_text "$first")}$([ -n "$first" ] || echo "no call returned it; the program $RUN_HOW")")"
    fi
    expect_error_line "$(line_of "$first")" "$SYNC_CALLS" "$fn$([ "$fn" = cudaMemcpy ] && echo '(...)' || echo '()')" \
      "the result of the call that waits for the kernels (line $(line_of "$first")) is not checked, so the error surfaces at a later call or not at all" \
      "$what"
  done
}

# hint: Out of memory and an invalid launch fail only their own call: clean up and exit 1. An illegal
# hint: address (700) or a failed device assert (710) loses the context: every later call fails the same
# hint: way, cudaFree too. is_sticky() tells them apart, and the cleanup frees only when it may.
@test "step 5: frees after mild errors, not after sticky ones (2 points)" {
  require_program
  local mode after sync leaks
  run_program --name bad-launch -- --bad-launch
  expect_exit 1
  expect_no_leaks
  for mode in out-of-bounds assert; do
    fault_run "$mode"
    expect_exit 1
    [ -f "$RUN_DIR/report" ] ||
      fail "$(printf 'expected: a leak report at exit\nhappened: none was written; the program %s\nusual cause: %s' "$RUN_HOW" "$(cause_of_run)")"
    after=$(calls class=free | awk -F '\t' '$4 != 0' | grep -c . || true)
    [ "$after" -eq 0 ] ||
      fail "$(printf 'expected: after the sticky error of errors --%s, no more CUDA calls\nhappened: %s free call(s) failed after it (first returned by %s):\n%s\nusual cause: is_sticky() does not recognise %s, or the cleanup frees whatever the error was' \
        "$mode" "$after" "$(call_site_text "$(calls | awk -F '\t' '$4 == 700 || $4 == 710 { print; exit }')")" \
        "$(calls class=free | awk -F '\t' '$4 != 0' | head -n 3 | while IFS= read -r c; do printf '    %s\n' "$(call_text "$c")"; done)" \
        "$([ "$mode" = assert ] && echo "cudaErrorAssert (710)" || echo "cudaErrorIllegalAddress (700)")")"
  done
  # Whether an error is sticky comes from the error, not from the mode the program was run in: the normal
  # run with its first synchronize failing with 700 (injected, sticky as a real one: every call after it
  # fails), and --out-of-bounds with its second allocation failing with out of memory (mild: free the first).
  run_program --name "run-$(chosen_n)" -- "$(chosen_n)"
  sync=$(call_field "$(calls --first class=sync)" nth)
  [ -n "$sync" ] || fail "expected: a synchronizing call in the normal run (step 4 needs one); happened: none"
  run_program --name sticky-in-the-normal-run --env "CUDAWB_FAIL_NTH=$sync" -- "$(chosen_n)"
  expect_exit 1
  after=$(calls class=free | awk -F '\t' '$4 != 0' | grep -c . || true)
  [ "$after" -eq 0 ] ||
    fail "$(printf 'expected: after a sticky error (700, injected at %s in the normal run), no more CUDA calls\nhappened: %s free call(s) failed after it:\n%s\nusual cause: stickiness decided by the mode the program runs in, not by the error it got: is_sticky(err)' \
      "$(call_site_text "$(calls "n=$sync")")" "$after" "$(calls class=free | awk -F '\t' '$4 != 0' | head -n 3 | while IFS= read -r c; do printf '    %s\n' "$(call_text "$c")"; done)")"
  run_program --name mild-in-out-of-bounds --env CUDAWB_FAIL_ALLOC=2 -- --out-of-bounds
  expect_exit 1
  leaks=$(leaks_beyond "")
  [ -z "$leaks" ] ||
    fail "$(printf 'expected: after a mild error (out of memory, injected at the second allocation of errors --out-of-bounds), everything allocated freed\nhappened: still alive at exit:\n%s\nusual cause: stickiness decided by the mode the program runs in, not by the error it got: is_sticky(err)' "$leaks")"
}

# hint: The memory checker (compute-sanitizer, or the CPU backend's) reports any access outside an
# hint: allocation, even the small overruns a real GPU lets pass: a kernel or copy that reaches one past the end.
@test "step 6: runs clean under the memory checker (2 points)" {
  require_program
  expect_memcheck_clean
}

# hint: When an allocation fails, CHECK_CUDA prints one line ending in ": out of memory", the cleanup
# hint: frees what is already allocated, and run() returns 1. Every cudaMalloc goes through CHECK_CUDA.
@test "step 7: survives running out of device memory (3 points)" {
  require_program
  local calls failed
  expect_real_oom --format located "error: $SOURCE:LINE: cudaMalloc((void **)&d_data, bytes) failed: $OUT_OF_MEMORY" \
    "the return value of cudaMalloc is not checked, or CHECK_CUDA does not leave through the cleanup"
  calls=$(calls fn=cudaMalloc bytes=400000000000 | awk -F '\t' '{ t += $6 } END { print t + 0 }')
  if [ "$calls" -ne 1 ]; then
    local msg twice
    msg=$(printf 'expected: one cudaMalloc of 400000000000 bytes\nhappened: the program made %s such calls, at %s\nusual cause: CHECK_CUDA evaluates its argument twice (once to test it, once to print it): each use runs the call again' "$calls" "$(calls fn=cudaMalloc bytes=400000000000 | cut -f5 | sort -u | paste -sd' ')")
    # A macro that runs its call again shows first in step 3's run (reused): its launch check, made twice.
    run_program --name bad-launch -- --bad-launch
    twice=$(calls | awk -F '\t' '($2 == fn && $5 == at && failed) || ($6 > 1 && $4 != 0) { print $5; exit } { fn = $2; at = $5; failed = ($4 != 0) }')
    [ -z "$twice" ] ||
      skip "needs step 3 first: CHECK_CUDA runs its call again after it failed, as step 3's run shows at $twice; that one fix is this step's too"
    fail "$msg"
  fi
  failed=$(failed_call)
  expect_error_line "$(line_of "$failed")" cudaMalloc "cudaMalloc(...)" \
    "the line must point at the cudaMalloc that failed" "$OUT_OF_MEMORY"
  fault_sweep --format located --lesson-work
}
