#!/usr/bin/env bats
# grader/report.sh: Bats's TAP in, the student's report and the results file out.

setup() {
  load lib/helpers
}

tap() {
  run "$WB_ROOT/grader/report.sh" 01-allocation "$BATS_TEST_TMPDIR/results.tsv" <<<"$1"
}

@test "every step passed: the summary counts steps and points, and the exit status is 0" {
  tap $'1..2\nok 1 step 1: compiles cleanly (1 point)\nok 2 step 2: frees (3 points)'
  assert_success
  assert_line "lesson 01: 2/2 steps passed (4/4 points)"
}

@test "a failed step shows its reason without Bats's trace lines, and the exit status is 1" {
  tap $'1..2\nok 1 step 1: compiles cleanly (1 point)\nnot ok 2 step 2: frees (3 points)\n# (in test file grader/01-allocation.bats, line 9)\n#   `expect_no_leaks\' failed\n# expected: every allocation freed'
  assert_failure
  assert_output --partial "FAIL  step 2: frees"
  assert_output --partial "expected: every allocation freed"
  refute_output --partial "in test file"
  refute_output --partial "failed'"
  assert_line "lesson 01: 1/2 steps passed (1/4 points)"
}

@test "a skipped step is not a pass" {
  tap $'1..2\nok 1 step 1: compiles cleanly (1 point)\nok 2 step 2: frees (3 points) # skip cannot run here: no GPU'
  assert_failure
  assert_output --partial "SKIP  step 2: frees"
  assert_line "lesson 01: 1/2 steps passed (1/4 points)"
}

@test "a step that needs a GPU is counted apart and does not fail the lesson" {
  tap $'1..2\nok 1 step 1: compiles cleanly (1 point)\nok 2 step 2: pinned copies are faster (2 points) # skip needs a GPU: a bandwidth ratio'
  assert_success
  assert_line "lesson 01: 1/1 steps passed, 1 needs a GPU (1/1 points)"
}

@test "the results file has one line per step with its status and points" {
  tap $'1..2\nok 1 step 1: compiles cleanly (1 point)\nnot ok 2 step 2: frees (3 points)'
  assert_equal "$(cut -f1-4 "$BATS_TEST_TMPDIR/results.tsv" | tr '\t\n' ' |')" "1 passed 1 1|2 failed 0 3|"
}

@test "a grader that runs no step is an error, not a pass" {
  tap "1..0"
  assert_failure
  assert_output --partial "the grader ran no step"
}

@test "the results file gives a failed step's whole message as its reason, escaped, a skipped step's skip reason" {
  tap $'1..3\nnot ok 1 step 1: frees (3 points)\n# (in test file grader/01-allocation.bats, line 9)\n# expected: every allocation freed\n# happened: one leak\\here\nok 2 step 2: runs (1 point) # skip cannot run here: no GPU\nnot ok 3 step 3: quiet (1 point)'
  assert_equal "$(cut -f1,2,6 "$BATS_TEST_TMPDIR/results.tsv" | tr '\t\n' ' |')" \
    '1 failed expected: every allocation freed\nhappened: one leak\\here|2 skipped cannot run here: no GPU|3 failed |'
}

@test "one mistake, one step: a failed step naming code an earlier failed step named waits for it" {
  tap $'1..4\nok 1 step 1: compiles cleanly (1 point)\nnot ok 2 step 2: allocates (2 points)\n# expected: a cudaMalloc of 4000 bytes\n# happened: cudaMalloc(bytes=8) returned 0 at alloc.cu:56\nnot ok 3 step 3: clears (2 points)\n# expected: a cudaMalloc of 400 bytes\n# happened: cudaMalloc(bytes=8) returned 0 at alloc.cu:56\nnot ok 4 step 4: frees (3 points)\n# happened: cudaFree at alloc.cu:90 returned 1'
  assert_failure
  assert_output --partial "FAIL  step 2: allocates"
  assert_output --partial "SKIP  step 3: clears"
  assert_output --partial "needs step 2 first: step 2 found a mistake at alloc.cu:56"
  # Other code is another mistake: step 4 fails in its own right.
  assert_output --partial "FAIL  step 4: frees"
  assert_line "lesson 01: 1/4 steps passed (1/8 points)"
  assert_equal "$(cut -f1,2 "$BATS_TEST_TMPDIR/results.tsv" | tr '\t\n' ': ')" "1:passed 2:failed 3:skipped 4:failed "
  # The skipped step's row says which step it waits for; the failed one's keeps its messages, escaped.
  assert_equal "$(awk -F '\t' '$1 == 3 { print $6 }' "$BATS_TEST_TMPDIR/results.tsv" | cut -c1-19)" "needs step 2 first:"
  assert_equal "$(awk -F '\t' '$1 == 2 { print $6 }' "$BATS_TEST_TMPDIR/results.tsv")" \
    'expected: a cudaMalloc of 4000 bytes\nhappened: cudaMalloc(bytes=8) returned 0 at alloc.cu:56'
}

@test "a failed step is shown as the next step begins, not when its result comes, and keeps messages that come late" {
  # Bats's stream (lib/bats-stream): the failed step's messages come 1.5 s after its result, as on a loaded
  # machine; the next step begins at 2.5 s and ends at 5 s. The failure, messages and all, must be on the
  # screen before the next step's result.
  { printf '1..3\nbegin 1 step 1\nok 1 step 1: compiles cleanly (1 point)\nbegin 2 step 2\nnot ok 2 step 2: allocates (2 points)\n'
    sleep 1.5; printf '# expected: x\n# happened: y\n'; sleep 1; printf 'begin 3 step 3\n'; sleep 2.5; printf 'ok 3 step 3: frees (3 points)\n'; } |
    "$WB_ROOT/grader/report.sh" 01-allocation "$BATS_TEST_TMPDIR/results.tsv" >"$BATS_TEST_TMPDIR/out" &
  sleep 4
  run cat "$BATS_TEST_TMPDIR/out"
  assert_line --partial "FAIL  step 2: allocates"
  assert_line --partial "happened: y"
  refute_output --partial "step 3"
  wait || true
  grep -q "PASS  step 3: frees" "$BATS_TEST_TMPDIR/out"
  assert_equal "$(awk -F '\t' '$1 == 2 { print $6 }' "$BATS_TEST_TMPDIR/results.tsv")" 'expected: x\nhappened: y'
}

@test "one mistake, one step: the same check failed on another run waits for the step that failed it first" {
  tap $'1..3\nok 1 step 1: compiles cleanly (1 point)\nnot ok 2 step 2: sums (3 points)\n# expected: sum of steps: 113239260\n# printed:  sum of steps: 123456789\nnot ok 3 step 3: keeps to the budget (3 points)\n# expected: sum of steps: 160203836\n# printed:  sum of steps: 123456789'
  assert_output --partial "FAIL  step 2: sums"
  assert_output --partial "SKIP  step 3: keeps to the budget"
  assert_output --partial "needs step 2 first: step 2 found the same mistake (expected: sum of steps: 160203836)"
}
