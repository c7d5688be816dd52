#!/usr/bin/env bats
# make dist: the student release, built into a temporary folder; nothing of solutions/, tests/variants/ or
# tests/rewrites/ in it; inside it, make check grades the skeleton (and fails, as it should), and a part of
# make test runs: lesson 1's generated tests (the skeleton's test runs, the solution's skips, saying why),
# and the suites that need the solutions (class, course), which must skip with the reason, not pass.

setup_file() {
  load lib/helpers
  local t=$BATS_FILE_TMPDIR rel
  WB_BUILD=$t/build make -s -C "$WB_ROOT" dist >"$t/dist.out" 2>&1 || echo "status $?" >>"$t/dist.out"
  rel=$t/build/dist/cuda-memory-workbook
  # The CPU backend is built once, here, and copied in (the release builds it on first use otherwise).
  "$WB_ROOT/cpu/bin/nvcc-cpu" --ensure-runtime
  mkdir -p "$rel/build" && cp -a "$WB_ROOT/build/cpu" "$rel/build/"
  # In the release, at once: make check of lesson 1, and a part of make test (without this workbook's
  # WB_ROOT, which the grader's scripts would take for theirs).
  unset WB_ROOT WB_TEST_BACKEND
  (cd "$rel" && make -s check LESSON=1 BACKEND=cpu >"$t/check.out" 2>&1 || echo "status $?" >>"$t/check.out") &
  (cd "$rel" && tests/gen-lesson-tests.sh build/tests/lessons &&
    { BACKEND=cpu bats --tap build/tests/lessons/01-allocation.bats &&
      BACKEND=cpu bats --tap tests/class.bats tests/course.bats; } >"$t/test.out" 2>&1 || echo "status $?" >>"$t/test.out") &
  wait
}

setup() {
  load lib/helpers
  REL=$BATS_FILE_TMPDIR/build/dist/cuda-memory-workbook
}

@test "make dist: the release and its .tar.gz, with RELEASE.md and the workflow, without solutions or variants" {
  run cat "$BATS_FILE_TMPDIR/dist.out"
  refute_output --partial "status "
  assert_file_exists "$REL/RELEASE.md"
  assert_file_exists "$REL/exercises/01-allocation/alloc.cu"
  assert_file_exists "$REL/grader/check.sh"
  assert_file_not_exists "$REL/solutions"
  assert_file_not_exists "$REL/tests/variants"
  assert_file_not_exists "$REL/tests/rewrites"
  run tar -tzf "$BATS_FILE_TMPDIR/build/dist/cuda-memory-workbook.tar.gz"
  assert_line cuda-memory-workbook/.github/workflows/check.yml
  assert_line cuda-memory-workbook/lessons/01-allocation.md
  refute_line --regexp '^cuda-memory-workbook/(solutions|tests/variants|tests/rewrites)/'
  # No file of the release is a solution's source under another name.
  run bash -c 'cd "$1" && find . -type f -exec sha256sum {} + | cut -c 1-64 | sort -u' _ "$REL"
  local sums=$output f
  for f in "$WB_ROOT"/solutions/*/*.cu; do
    refute grep -qx "$(sha256sum <"$f" | cut -c 1-64)" <<<"$sums"
  done
}

@test "the workflow grades each lesson a push changed in a job of its own, on the CPU backend, reporting to the job summary" {
  local w=$REL/.github/workflows/check.yml
  assert_file_contains "$w" '^on: \[push'
  assert_file_contains "$w" 'make check LESSON="$LESSON" BACKEND=cpu'
  assert_file_contains "$w" 'grader/course/changed-lessons.sh "$BASE"'
  assert_file_contains "$w" 'GITHUB_STEP_SUMMARY'
  assert_file_contains "$w" 'if: always()'
  python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed: the workflow's structure not read"
  run python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
c = d["jobs"]["check"]
print(c["needs"], c["strategy"]["matrix"]["lesson"], c["strategy"]["fail-fast"], d["jobs"]["lessons"]["outputs"]["lessons"])' "$w"
  assert_output 'lessons ${{ fromJSON(needs.lessons.outputs.lessons) }} False ${{ steps.changed.outputs.lessons }}'
}

@test "in a course repository made from the release, the workflow's first job picks the lessons a push changed" {
  local repo=$BATS_TEST_TMPDIR/course first second
  cp -a "$REL" "$repo" && rm -rf "$repo/build"
  cd "$repo"
  commit() { git add -A && git -c user.name=t -c user.email=t@t commit -qm "$1" && git rev-parse HEAD; }
  git init -q && first=$(commit release)
  run grader/course/changed-lessons.sh "$first"
  assert_output '[]'
  # GitHub's zeros (a first push): the lessons begun, against the release's pristine copy: none yet
  run grader/course/changed-lessons.sh 0000000000000000000000000000000000000000
  assert_output '[]'
  echo '// begun' >>exercises/01-allocation/alloc.cu
  echo '// begun' >>exercises/03-synchronization/sync.cu
  second=$(commit "lessons 1 and 3")
  run grader/course/changed-lessons.sh "$first"
  assert_output '["01","03"]'
  run grader/course/changed-lessons.sh ""
  assert_output '["01","03"]'
  echo '// more' >>exercises/03-synchronization/sync.cu
  commit "lesson 3 again" >/dev/null
  run grader/course/changed-lessons.sh "$second"
  assert_output '["03"]'
  # a commit this clone does not know: the lessons begun
  run grader/course/changed-lessons.sh 1234567890abcdef1234567890abcdef12345678
  assert_output '["01","03"]'
}

@test "in the release, make check LESSON=1 grades the skeleton: compiles cleanly, nothing more, and fails" {
  run cat "$BATS_FILE_TMPDIR/check.out"
  assert_line --regexp '^ *PASS +step 1: compiles cleanly'
  assert_line --regexp '^lesson 01: 1/[0-9]+ steps passed'
  assert_line "status 2"
}

@test "in the release, lesson 1's generated tests run and the solutions' tests skip, saying they are not there" {
  run cat "$BATS_FILE_TMPDIR/test.out"
  refute_line --regexp '^not ok '
  refute_line --regexp '^status [0-9]+$'
  assert_line --regexp '^ok [0-9]+ 01-allocation: the untouched skeleton compiles cleanly and earns nothing more$'
  assert_line --regexp '^ok [0-9]+ 01-allocation: the reference solution passes every step, each graded alone as a variant.s step is # skip solutions/ and the variants are not in the student release$'
  # class.bats and course.bats: every test skipped, with the reason.
  run grep -cE '^ok [0-9]+ .* # skip solutions/ and the variants are not in the student release$' "$BATS_FILE_TMPDIR/test.out"
  assert [ "$output" -ge 10 ]
  run grep -cE '^ok [0-9]+ ' "$BATS_FILE_TMPDIR/test.out"
  assert [ "$output" -ge 12 ]
}
