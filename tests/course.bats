#!/usr/bin/env bats
# make gradescope and PrairieLearn's entry point (grader/course/): the autograder zip is built for lesson 1,
# unpacked into a temporary folder laid out like Gradescope's /autograder, and run_autograder grades a
# submission of the solution (its file loose) and one of a known-wrong variant (in its 01-allocation/ folder);
# prairielearn/run grades the variant in a copy of /grade. The three gradings run at once in setup_file.

VARIANT=tests/variants/01-allocation/forgot-to-free.patch

setup_file() {
  load lib/helpers
  ! in_release || return 0
  local t=$BATS_FILE_TMPDIR ag
  WB_BUILD=$t/build make -s -C "$WB_ROOT" gradescope LESSON=1 >"$t/build.out" 2>&1 || echo "status $?" >>"$t/build.out"
  # The CPU backend is built once here and copied in (what setup.sh's last line does on Gradescope).
  "$WB_ROOT/cpu/bin/nvcc-cpu" --ensure-runtime
  # autograder NAME: a copy of Gradescope's layout, $t/NAME/autograder/{source,submission,results,run_autograder}.
  autograder() {
    ag=$t/$1/autograder
    mkdir -p "$ag/source" "$ag/submission" "$ag/results"
    unzip -q "$t/build/gradescope/autograder.zip" -d "$ag/source"
    cp "$ag/source/run_autograder" "$ag/"
    mkdir -p "$ag/source/workbook/build" && cp -a "$WB_ROOT/build/cpu" "$ag/source/workbook/build/"
  }
  autograder solution
  cp "$WB_ROOT/solutions/01-allocation/alloc.cu" "$t/solution/autograder/submission/"
  autograder variant
  cp -R "$WB_ROOT/solutions/01-allocation" "$t/variant/autograder/submission/"
  patch --quiet -p1 -d "$t/variant/autograder/submission/01-allocation" <"$WB_ROOT/$VARIANT"
  # PrairieLearn: /grade/student holds the variant's file loose; the workbook is the zip's.
  mkdir -p "$t/pl/grade/student" "$t/pl/grade/results"
  cp "$t/variant/autograder/submission/01-allocation/alloc.cu" "$t/pl/grade/student/"
  AUTOGRADER_ROOT=$t/solution/autograder "$t/solution/autograder/run_autograder" >"$t/solution.out" 2>&1 &
  AUTOGRADER_ROOT=$t/variant/autograder "$t/variant/autograder/run_autograder" >"$t/variant.out" 2>&1 &
  GRADE_ROOT=$t/pl/grade "$t/solution/autograder/source/workbook/grader/course/prairielearn/run" 1 >"$t/pl.out" 2>&1 &
  wait
}

setup() {
  load lib/helpers
  require_solutions
}

# results NAME: that grading's Gradescope results.json.
results() { printf '%s\n' "$BATS_FILE_TMPDIR/$1/autograder/results/results.json"; }

@test "make gradescope: a zip with setup.sh, run_autograder, the lesson and the workbook, without solutions or variants" {
  run cat "$BATS_FILE_TMPDIR/build.out"
  refute_output --partial "status "
  run unzip -Z1 "$BATS_FILE_TMPDIR/build/gradescope/autograder.zip"
  assert_line setup.sh
  assert_line run_autograder
  assert_line lesson
  assert_line workbook/grader/check.sh
  assert_line workbook/exercises/01-allocation/alloc.cu
  assert_line tools/bats/bin/bats
  refute_line --regexp '^workbook/(solutions|tests/variants|tests/rewrites)/'
  assert_equal "$(unzip -p "$BATS_FILE_TMPDIR/build/gradescope/autograder.zip" lesson)" 01-allocation
}

@test "setup.sh and run_autograder are shellcheck-clean (setup.sh's apt-get is for Gradescope's image, not run here)" {
  command -v shellcheck >/dev/null 2>&1 || skip "shellcheck is not installed"
  run shellcheck "$WB_ROOT/grader/course/gradescope/setup.sh" "$WB_ROOT/grader/course/gradescope/run_autograder" \
    "$WB_ROOT/grader/course/prairielearn/run"
  assert_success
}

@test "Gradescope: every test has its fields, the score is their sum, the solution's loose file scores 17/17" {
  command -v jq >/dev/null 2>&1 || skip "jq is not installed: results.json not parsed"
  local f
  for f in "$(results solution)" "$(results variant)"; do
    run jq -e '(.tests | length) == 8 and (.score == ([.tests[].score] | add))
      and all(.tests[]; has("name") and has("score") and has("max_score") and has("output")
        and (.status == "passed" or .status == "failed") and .visibility == "visible" and .score <= .max_score)' "$f"
    assert_success
  done
  run jq -r '[.score, ([.tests[].max_score] | add), ([.tests[] | select(.status == "passed")] | length)] | @tsv' "$(results solution)"
  assert_output $'17\t17\t8'
  run cat "$BATS_FILE_TMPDIR/solution.out"
  assert_line --partial 'lesson 01: 8/8 steps passed (17/17 points)'
}

@test "Gradescope: the variant loses exactly its step (the one its patch names), with the reason" {
  command -v jq >/dev/null 2>&1 || skip "jq is not installed: results.json not parsed"
  local n
  n=$(variant_step "$WB_ROOT/$VARIANT")
  run jq -r '.tests[] | select(.status == "failed") | .name' "$(results variant)"
  assert_output --regexp "^01-allocation step $n: "
  run jq -r --arg n "01-allocation step $n:" '.tests[] | select(.name | startswith($n)) | [.score, (.output | length > 10)] | @tsv' \
    "$(results variant)"
  assert_output $'0\ttrue'
  run jq -r '.score' "$(results variant)"
  assert [ "$output" -lt 17 ]
}

@test "PrairieLearn: results.json gradable, score = points / maximum, the variant's step failed, the report as output" {
  command -v jq >/dev/null 2>&1 || skip "jq is not installed: results.json not parsed"
  local f=$BATS_FILE_TMPDIR/pl/grade/results/results.json n
  n=$(variant_step "$WB_ROOT/$VARIANT")
  run jq -e '.gradable == true and .score > 0 and .score < 1 and (.tests | length) == 8
    and ((.score - ([.tests[].points] | add) / ([.tests[].max_points] | add)) | fabs) < 1e-5
    and all(.tests[]; has("name") and has("points") and has("max_points") and has("output") and has("message"))' "$f"
  assert_success
  run jq -r '.tests[] | select(.points < .max_points) | .name' "$f"
  assert_output --regexp "^01-allocation step $n: "
  run jq -r .output "$f"
  assert_line --partial "FAIL  step $n:"
}

@test "an upload with nothing lesson-shaped: Gradescope scores 0 with the reason, PrairieLearn says not gradable" {
  command -v jq >/dev/null 2>&1 || skip "jq is not installed: results.json not parsed"
  local wb=$BATS_FILE_TMPDIR/solution/autograder/source/workbook t=$BATS_TEST_TMPDIR
  mkdir -p "$t/empty" && echo hello >"$t/empty/notes.txt"
  run "$wb/grader/course/upload.sh" prairielearn "$t/empty" "$t/pl.json" 1
  assert_success
  run jq -r '[.gradable, .score, .message] | @tsv' "$t/pl.json"
  assert_output --regexp $'^false\t0\tnot graded: nothing lesson-shaped'
  run "$wb/grader/course/upload.sh" gradescope "$t/empty" "$t/gs.json" 1
  assert_success
  run jq -r '[.score, ([.tests[].score] | add), (.tests[0].output | test("nothing lesson-shaped"))] | @tsv' "$t/gs.json"
  assert_output $'0\t0\ttrue'
}

@test "a grading that cannot run at all still leaves a results file that says why, with no points" {
  command -v jq >/dev/null 2>&1 || skip "jq is not installed: results.json not parsed"
  local wb=$BATS_FILE_TMPDIR/solution/autograder/source/workbook t=$BATS_TEST_TMPDIR
  run "$wb/grader/course/upload.sh" gradescope "$BATS_FILE_TMPDIR/solution/autograder/submission" "$t/gs.json" 99
  assert_success
  run jq -r '[.score, (.tests | length), .output] | @tsv' "$t/gs.json"
  assert_output $'0\t0\tthe autograder failed: there is no lesson 99'
  run "$wb/grader/course/upload.sh" prairielearn "$t/nowhere" "$t/pl.json" 1
  run jq -r '[.gradable, .score, .message] | @tsv' "$t/pl.json"
  assert_output --regexp $'^false\t0\tthe autograder failed: the submission .*/nowhere is not a folder$'
}
