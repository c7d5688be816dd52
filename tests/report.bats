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

@test "the results file gives a failed step's first detail as its reason, a skipped step's skip reason" {
  tap $'1..3\nnot ok 1 step 1: frees (3 points)\n# (in test file grader/01-allocation.bats, line 9)\n# expected: every allocation freed\n# happened: one leak\nok 2 step 2: runs (1 point) # skip cannot run here: no GPU\nnot ok 3 step 3: quiet (1 point)'
  assert_equal "$(cut -f1,2,6 "$BATS_TEST_TMPDIR/results.tsv" | tr '\t\n' ' |')" \
    "1 failed expected: every allocation freed|2 skipped cannot run here: no GPU|3 failed |"
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
  # The skipped step's row says which step it waits for; the failed one's keeps its first detail.
  assert_equal "$(awk -F '\t' '$1 == 3 { print $6 }' "$BATS_TEST_TMPDIR/results.tsv" | cut -c1-19)" "needs step 2 first:"
  assert_equal "$(awk -F '\t' '$1 == 2 { print $6 }' "$BATS_TEST_TMPDIR/results.tsv")" "expected: a cudaMalloc of 4000 bytes"
}

@test "a failed step is shown before the next step's result comes (no wait for a slow step)" {
  # The next step's line comes 3 s later: the failure must be on the screen within the first 2 s.
  { printf '1..3\nok 1 step 1: compiles cleanly (1 point)\nnot ok 2 step 2: allocates (2 points)\n# expected: x\n'; sleep 3; printf 'ok 3 step 3: frees (3 points)\n'; } |
    "$WB_ROOT/grader/report.sh" 01-allocation "$BATS_TEST_TMPDIR/results.tsv" >"$BATS_TEST_TMPDIR/out" &
  sleep 2
  grep -q "FAIL  step 2: allocates" "$BATS_TEST_TMPDIR/out"
  wait || true
  grep -q "PASS  step 3: frees" "$BATS_TEST_TMPDIR/out"
}

@test "one mistake, one step: the same check failed on another run waits for the step that failed it first" {
  tap $'1..3\nok 1 step 1: compiles cleanly (1 point)\nnot ok 2 step 2: sums (3 points)\n# expected: sum of steps: 113239260\n# printed:  sum of steps: 123456789\nnot ok 3 step 3: keeps to the budget (3 points)\n# expected: sum of steps: 160203836\n# printed:  sum of steps: 123456789'
  assert_output --partial "FAIL  step 2: sums"
  assert_output --partial "SKIP  step 3: keeps to the budget"
  assert_output --partial "needs step 2 first: step 2 found the same mistake on another run (expected: sum of steps: 160203836)"
}
