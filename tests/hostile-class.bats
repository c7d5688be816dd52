#!/usr/bin/env bats
# A class whose entries attack the grading itself, not the lesson (tests/hostile/class/make-entry.sh builds
# them at test time): a partial clone whose lazy fetch would run its commands, the same as a plain folder, an
# archive whose listing lies about its size, a repository that lists 10^10 files, a zip of 3000 files. Graded
# once in setup_file beside an honest student: each attack must end as a not-graded row that says which limit,
# within its limit, run nothing, leave nothing behind, and the honest student must keep the honest score.

setup_file() {
  load lib/helpers
  ! in_release || return 0
  local c=$BATS_FILE_TMPDIR/class m=$BATS_FILE_TMPDIR/MARK unsafe=()
  (. "$WB_ROOT/grader/lib/sandbox.sh" && sandbox_available) || unsafe=(UNSAFE=1)
  mkdir -p "$c/alice" && cp -R "$WB_ROOT/solutions/01-allocation" "$c/alice/"
  make_entry() { "$WB_ROOT/tests/hostile/class/make-entry.sh" "$@"; }
  make_entry lazy-fetch "$c/lazy.git" "$m"
  make_entry lazy-fetch "$c/plain" "$m"
  make_entry owner-space "$c/bomb.tgz"
  make_entry tree-bomb "$c/tree.git"
  if command -v zip >/dev/null 2>&1; then make_entry many-entries "$c/many.zip"; fi
  local t0=$SECONDS
  # The gradings' work areas (grade-class.sh's mktemp) that exist before: none of this run's may be left after.
  find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'cudawb-*' | sort >"$BATS_FILE_TMPDIR/work-before"
  make -s -C "$WB_ROOT" grade CLASS="$c" LESSON=1 BACKEND=cpu JOBS=2 OUT="$BATS_FILE_TMPDIR/run" "${unsafe[@]}" \
    >"$BATS_FILE_TMPDIR/out" 2>"$BATS_FILE_TMPDIR/err" || echo "status $?" >>"$BATS_FILE_TMPDIR/err"
  echo "$((SECONDS - t0))" >"$BATS_FILE_TMPDIR/seconds"
  find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'cudawb-*' | sort >"$BATS_FILE_TMPDIR/work-after"
}

setup() {
  load lib/helpers
  require_solutions
  RUN=$BATS_FILE_TMPDIR/run
}

# reason NAME: how the student's results were made, from run.log ("not graded: REASON").
reason() { N=$1 awk -F '\t' '$2 == ENVIRON["N"] { print $3 }' "$RUN/run.log"; }

@test "each attack on the grading is a not-graded row that names its limit; the honest student scores 17/17" {
  run cat "$BATS_FILE_TMPDIR/err"
  refute_output --partial "status "
  assert_file_contains "$RUN/gradebook.csv" '^alice,17,17,'
  [[ $(reason lazy) =~ ^not\ graded:\ a\ bare\ repository\ with\ a\ missing\ object:\ [0-9a-f]{40}\ \(01-allocation/alloc.cu\)$ ]] ||
    fail "lazy: $(reason lazy)"
  assert_equal "$(reason plain)" "$(reason lazy)"
  assert_equal "$(reason bomb)" "not graded: too big: more than 50 MiB unpacked"
  assert_equal "$(reason tree)" "not graded: too many files and folders: more than 2000"
  [ ! -e "$BATS_FILE_TMPDIR/class/many.zip" ] || assert_equal "$(reason many)" "not graded: too many files and folders: more than 2000"
  run grep -c $'\tnot graded: ' "$RUN/run.log"
  assert_output "$(($(find "$BATS_FILE_TMPDIR/class" -mindepth 1 -maxdepth 1 | wc -l) - 1))"
}

@test "no command of a submission's git configuration ran, and nothing was left in the work area" {
  assert_file_not_exists "$BATS_FILE_TMPDIR/MARK"
  run comm -13 "$BATS_FILE_TMPDIR/work-before" "$BATS_FILE_TMPDIR/work-after"
  assert_output ""
  # What was written stays small: the run folder, whatever the bombs promised.
  [ "$(du -sm "$RUN" | cut -f 1)" -lt 10 ] || fail "the run folder holds $(du -sh "$RUN")"
  [ "$(cat "$BATS_FILE_TMPDIR/seconds")" -lt 300 ] || fail "the class took $(cat "$BATS_FILE_TMPDIR/seconds") s"
}

@test "a course platform's upload that is a partial clone runs nothing and says why it was not graded" {
  local t=$BATS_TEST_TMPDIR
  "$WB_ROOT/tests/hostile/class/make-entry.sh" lazy-fetch "$t/submission" "$t/MARK"
  run "$WB_ROOT/grader/course/upload.sh" prairielearn "$t/submission" "$t/results.json" 1
  assert_success
  assert_file_not_exists "$t/MARK"
  command -v jq >/dev/null 2>&1 || skip "jq is not installed: results.json not read"
  run jq -r '[.gradable, .score, .message] | @tsv' "$t/results.json"
  assert_output --regexp $'^false\t0\tnot graded: a bare repository with a missing object'
}
