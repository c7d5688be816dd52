#!/usr/bin/env bats
# The commands students type: make help, make check with good and bad input, hint, progress, reset, run.

setup() {
  load lib/helpers
}

@test "make help lists every lesson with its title and every command" {
  run make -s -C "$WB_ROOT" help
  assert_success
  assert_output --partial "LESSON=1   01-allocation"
  assert_output --partial "Device allocation"
  for target in check watch hint progress reset run grade gradescope dist test bench book doctor; do
    assert_output --partial "make $target"
  done
}

@test "an unknown lesson is an error that lists the valid ones" {
  run "$WB_ROOT/grader/check.sh" 99
  assert_failure 2
  assert_output --partial 'there is no lesson "99"'
  assert_output --partial "LESSON=1   01-allocation"
}

@test "LESSON=1, LESSON=01 and LESSON=01-allocation name the same lesson" {
  # shellcheck source=grader/lib/lessons.sh
  . "$WB_ROOT/grader/lib/lessons.sh"
  assert_equal "$(lesson_resolve 1)" 01-allocation
  assert_equal "$(lesson_resolve 01)" 01-allocation
  assert_equal "$(lesson_resolve 01-allocation)" 01-allocation
  run lesson_resolve 01-copies
  assert_failure
}

@test "a bad BACKEND or a missing SUBMISSION folder is a one-line error" {
  run "$WB_ROOT/grader/check.sh" 1 --backend quantum
  assert_failure 2
  assert_output --partial "BACKEND must be gpu, cpu or auto"
  run "$WB_ROOT/grader/check.sh" 1 --submission /nonexistent
  assert_failure 2
  assert_output --partial "SUBMISSION=/nonexistent is not a folder"
}

@test "missing Bats helpers get a clear message with the command that installs them" {
  BATS_LIB_PATH=/nonexistent WB_NO_INSTALL=1 run "$WB_ROOT/grader/check.sh" 1
  assert_failure 2
  assert_output --partial "the grader needs bats-support bats-assert bats-file"
  assert_output --partial "apt-get install -y bats-support bats-assert bats-file"
}

@test "a compile error fails step 1 with the compiler's message, and every other step waits for it" {
  require_solutions
  grade 01-allocation "$(submission_from 01-allocation solutions "$(fixture_patch compile-error)")"
  assert_failure
  assert_output --regexp "FAIL  step 1: compiles cleanly"
  assert_output --partial "alloc.cu"
  assert_output --partial "error"
  assert_output --partial "needs step 1 first: the program did not build (compile-error; step 1 shows why)"
  refute_output --partial PASS
  refute_output --partial "build/check"
}

@test "a submission without the lesson's file says which file is missing" {
  mkdir -p "$BATS_TEST_TMPDIR/empty/01-allocation"
  grade 01-allocation "$BATS_TEST_TMPDIR/empty"
  assert_failure
  assert_output --partial "the file $BATS_TEST_TMPDIR/empty/01-allocation/alloc.cu is missing"
}

@test "grading never changes the student's files" {
  local dir before
  dir=$(submission_from 01-allocation exercises)
  before=$(cd "$dir" && find . -type f -exec cksum {} + | sort)
  grade 01-allocation "$dir"
  assert_equal "$(cd "$dir" && find . -type f -exec cksum {} + | sort)" "$before"
}

@test "a crash is reported as a signal, with the line and the allocation it touched" {
  require_solutions
  require_backend
  grade 01-allocation "$(submission_from 01-allocation solutions "$(fixture_patch host-reads-device-pointer)")"
  assert_failure
  assert_output --partial "was killed by SIGSEGV (exit status 139)"
  assert_output --regexp "at alloc.cu:[0-9]+, host code touched alloc#1 \(cudaMalloc of [0-9]+ bytes at alloc.cu:[0-9]+\)"
  assert_output --partial "what it printed last, before it was stopped:"
}

@test "an infinite loop is stopped at the time limit and reported" {
  require_solutions
  require_backend
  WB_TIMEOUT=3 grade 01-allocation "$(submission_from 01-allocation solutions "$(fixture_patch infinite-loop)")"
  assert_failure
  assert_output --regexp "timed out after [0-9]+ s and was stopped"
  assert_output --regexp "it was at alloc.cu:[0-9]+ when it was stopped"
  # One mistake, one step: the steps after the first that grade the same run are skipped, naming the step
  # that shows how it ended, and that step failed.
  local first
  first=$(awk -F '\t' '$2 == "skipped" && $6 ~ /^needs the run to end first: / { sub(/.*; step /, "", $6); print $6 + 0; exit }' "$RESULTS")
  [ -n "$first" ] || fail "no step says \"needs the run to end first\": $(cat "$RESULTS")"
  [ "$(step_status "$first")" = failed ] || fail "step $first, named, did not fail: $(cat "$RESULTS")"
}

@test "one mistake, one step: a wrong copy direction fails the step that names it, and the steps it spoils wait for it" {
  require_solutions
  require_backend
  grade 02-copies "$(submission_from 02-copies solutions "$WB_ROOT/tests/variants/02-copies/swapped-direction.patch")"
  assert_failure
  # Step 2 names the copy that failed; the steps on the same run wait for it, the memory checker's and the
  # sweep's steps too: nothing else is counted as failed, and nothing blames other code.
  assert_output --partial "the call that failed: the cudaMemcpy at copies.cu:"
  assert_equal "$(awk -F '\t' '$2 == "failed" { printf "%s ", $1 }' "$RESULTS")" "2 "
  assert_equal "$(awk -F '\t' '$2 == "skipped" && $6 ~ /^needs (the run to end|step 2|the steps before it) first/ { printf "%s ", $1 }' "$RESULTS")" \
    "$(awk -F '\t' '$2 == "skipped" { printf "%s ", $1 }' "$RESULTS")"
}

@test "100 MB of output is capped and reported" {
  require_solutions
  require_backend
  grade 01-allocation "$(submission_from 01-allocation solutions "$(fixture_patch flood)")"
  assert_failure
  assert_output --partial "printed more than 1024 KiB and was stopped"
  [ "$(du -sk "$BATS_TEST_TMPDIR/work" | cut -f1)" -lt 20000 ]
}

@test "a submission that overwrites an expected output changes nothing" {
  require_solutions
  require_backend
  local target=$WB_ROOT/grader/01-allocation/expected/probe.out before
  before=$(cksum <"$target")
  # The policy would refuse its fopen before it runs: off here, so that the sandbox is what holds.
  grade 01-allocation "$(submission_from 01-allocation solutions "$(fixture_patch overwrite-expected)")" --allow all
  assert_equal "$(cksum <"$target")" "$before"
  refute_output --partial "grader's own files changed"
}

@test "make hint shows the hints of the steps not passed (of the lesson checked last without LESSON), and make progress lists every step with totals" {
  local repo
  repo=$(repo_copy)
  run make -s -C "$repo" hint LESSON=1
  assert_success
  assert_output --partial "not graded yet"
  assert_output --partial "step 2: allocates a device buffer of exactly n floats"
  run make -s -C "$repo" progress
  assert_success
  assert_output --partial "step 1  not tried"
  mkdir -p "$repo/build/results"
  printf '1\tpassed\t1\t1\tcompiles cleanly\t\n2\tfailed\t0\t2\tallocates\t\n' >"$repo/build/results/01-allocation.tsv"
  run make -s -C "$repo" hint LESSON=1
  refute_output --partial "step 1:"
  assert_output --partial "step 2: allocates a device buffer of exactly n floats (failed)"
  run make -s -C "$repo" progress
  assert_output --regexp "step 1 +passed"
  assert_output --regexp "step 2 +failed"
  assert_output --regexp "step 3 +not tried"
  # Each lesson's totals and the course's; long step names cut so that the points keep their column.
  assert_output --regexp "lesson 01 · .*: 1/8 steps passed, 1/17 points"
  assert_output --regexp "all lessons: 1/[0-9]+ steps passed, 1/[0-9]+ points"
  [ "$(grep -c ' pt$' <<<"$output")" -gt 80 ]
  [ -z "$(grep ' pt$' <<<"$output" | awk '{ print length($0) }' | sort -u | sed -n 2p)" ] || fail "the points are not in one column"
  # Without LESSON, make hint means the lesson checked last.
  run make -s -C "$repo" hint
  assert_success
  assert_output --partial "lesson 01, the one checked last"
  assert_output --partial "step 2: allocates a device buffer of exactly n floats (failed)"
}

@test "make reset saves the student's version and restores the skeleton" {
  local repo backup
  repo=$(repo_copy)
  echo "/* my work */" >>"$repo/exercises/01-allocation/alloc.cu"
  run make -s -C "$repo" reset LESSON=1
  assert_success
  backup=$(ls -d "$repo"/build/backups/01-allocation-*)
  assert_file_contains "$backup/alloc.cu" "my work"
  run grep -q "my work" "$repo/exercises/01-allocation/alloc.cu"
  assert_failure
  cmp "$repo/exercises/01-allocation/alloc.cu" "$WB_ROOT/exercises/01-allocation/alloc.cu"
}

@test "make check typed inside an exercise folder grades that lesson" {
  run make -s -C "$WB_ROOT/exercises/02-copies" check BACKEND=cpu
  assert_output --partial "lesson 02 · "
  refute_output --partial "lesson 01 · "
}

@test "make watch grades when a file of the lesson is saved, with the summary first" {
  local dir out watcher
  dir=$(submission_from 01-allocation exercises)
  out=$BATS_TEST_TMPDIR/watch.out
  BACKEND=cpu timeout 300 "$WB_ROOT/grader/watch.sh" 1 --submission "$dir" --max-runs 2 >"$out" 2>&1 &
  watcher=$!
  # Saved while the first grading runs: that grading stops, and the new version is graded at once.
  timeout 120 bash -c 'until grep -q "^grading " "$1"; do sleep 0.1; done' _ "$out"
  echo "/* saved */" >>"$dir/01-allocation/alloc.cu"
  # Saved again once a grading has ended: the watcher grades again.
  timeout 120 bash -c 'until grep -q "^watching " "$1"; do sleep 0.1; done' _ "$out"
  echo "/* saved again */" >>"$dir/01-allocation/alloc.cu"
  wait "$watcher"
  run cat "$out"
  assert_line 'a file was saved while it was graded: grading the new version'
  assert_line --regexp '^lesson 01: [0-9]+/8 steps passed'
  assert_line --regexp '^next: step [0-9]+: '
  [ "$(grep -c '^lesson 01: ' <<<"$output")" = 4 ] || fail "expected two whole gradings (summary and report each): $output"
}

@test "make doctor names the backend auto picks" {
  run make -s -C "$WB_ROOT" doctor
  assert_output --regexp "BACKEND=(auto|gpu|cpu) picks: (gpu|cpu|none)"
}

@test "make grade writes one CSV row per student, lesson and step, into build/class/CLASS/latest/" {
  require_solutions
  local repo
  repo=$(repo_copy)
  mkdir -p "$BATS_TEST_TMPDIR/class/alice" "$BATS_TEST_TMPDIR/class/bob"
  cp -R "$WB_ROOT/solutions/01-allocation" "$BATS_TEST_TMPDIR/class/alice/"
  cp -R "$WB_ROOT/exercises/01-allocation" "$BATS_TEST_TMPDIR/class/bob/"
  run make -s -C "$repo" grade CLASS="$BATS_TEST_TMPDIR/class" LESSON=1
  assert_success
  assert_output --regexp "alice +[0-9]+ / 17"
  assert_output --partial "scores: build/class/class/01-"
  assert_output --partial "course gradebook: build/class/class/gradebook.csv"
  assert_link_exists "$repo/build/class/class/latest"
  local csv=$repo/build/class/class/latest/scores.csv
  # a row per student and step (a failed step's reason holds line breaks, quoted: rows are not lines)
  assert_equal "$(grep -c '^\(alice\|bob\),01-allocation,[0-9]*,' "$csv")" 16
  assert_file_contains "$csv" $'^alice,01-allocation,1,"compiles cleanly, without warnings",passed,1,1,\r$'
  assert_file_contains "$csv" $'^bob,01-allocation,1,"compiles cleanly, without warnings",passed,1,1,\r$'
  assert_file_contains "$csv" "^bob,01-allocation,2,allocates a device buffer of exactly n floats,failed,0,2,"
}

@test "make book renders every chapter into one HTML file" {
  command -v pandoc >/dev/null 2>&1 || skip "pandoc is not installed"
  local repo
  repo=$(repo_copy)
  run make -s -C "$repo" book
  assert_success
  assert_file_exists "$repo/build/book/workbook.html"
  assert_file_contains "$repo/build/book/workbook.html" "Device allocation"
}
