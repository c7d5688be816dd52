#!/usr/bin/env bats
# make grade and the upload path against forged earlier results and colliding students (issue 23). Each
# attack is built here, at test time: an upload to Gradescope, and a student of a class, that carry what an
# earlier grading leaves (a hash computed exactly as the grader does, with grader/class/hashes.sh; results/
# with every step passed; a report; a seal made with a key of the attacker's); results of a real earlier
# run edited after grading; two entries that give one student name; two that give one folder (a test-only
# hook shortens the folder's hash). Graded in setup_file: the upload and the class's first run at once, then
# the class again (the second run reuses what it may), then a class of colliding entries alone (nothing in
# it is graded).

setup_file() {
  local f
  load lib/helpers
  # The honest classmate is the reference solution: not in the student release.
  ! in_release || return 0
  export FORGERY_SKIP=""
  for f in zip unzip; do command -v "$f" >/dev/null 2>&1 || { FORGERY_SKIP="$f is not installed (the upload and alice.zip)"; return 0; }; done
  local t=$BATS_FILE_TMPDIR c=$BATS_FILE_TMPDIR/class unsafe=() ag
  (. "$WB_ROOT/grader/lib/sandbox.sh" && sandbox_available) || unsafe=(UNSAFE=1)
  skeleton() { mkdir -p "$1" && cp -R "$WB_ROOT/exercises/01-allocation" "$1/"; }
  solution() { mkdir -p "$1" && cp -R "$WB_ROOT/solutions/01-allocation" "$1/"; }

  # The upload: Gradescope's layout (as tests/course.bats makes it), the untouched skeleton, forged.
  WB_BUILD=$t/build make -s -C "$WB_ROOT" gradescope LESSON=1 >"$t/gradescope.out" 2>&1 || echo "status $?" >>"$t/gradescope.out"
  "$WB_ROOT/cpu/bin/nvcc-cpu" --ensure-runtime
  ag=$t/gs/autograder
  mkdir -p "$ag/source" "$ag/submission" "$ag/results"
  unzip -q "$t/build/gradescope/autograder.zip" -d "$ag/source"
  cp "$ag/source/run_autograder" "$ag/"
  mkdir -p "$ag/source/workbook/build" && cp -a "$WB_ROOT/build/cpu" "$ag/source/workbook/build/"
  skeleton "$ag/submission"
  forge "$ag/submission" "$ag/source/workbook"
  AUTOGRADER_ROOT=$ag "$ag/run_autograder" >"$t/gs.out" 2>&1 &

  # The class, graded with OUT beside it (its parent holds the runs and the class): mallory, the skeleton
  # forged as a finished grading; twin, the same files, honest; carol, the solution; alice/ and alice.zip,
  # one student name twice; and steps.tsv, students.list, which make the class folder look like a run.
  skeleton "$c/mallory" && forge "$c/mallory"
  skeleton "$c/twin"
  solution "$c/carol"
  skeleton "$c/alice"
  solution "$t/src/alice" && (cd "$t/src/alice" && zip -qr "$c/alice.zip" 01-allocation)
  "$WB_ROOT/grader/class/steps.sh" cpu 01-allocation >"$c/steps.tsv"
  printf 'mallory\0%s\0' "$c/mallory" >"$c/students.list"
  make -s -C "$WB_ROOT" grade CLASS="$c" LESSON=1 BACKEND=cpu JOBS=2 OUT="$t/first" "${unsafe[@]}" \
    >"$t/first.out" 2>"$t/first.err" || echo "status $?" >>"$t/first.err"
  wait

  # After grading, results edited in the run folder: carol loses a step, mallory gains every one.
  f=$(folder_of "$t/first" carol)/results/01-allocation.tsv
  awk -F '\t' -v OFS='\t' '$1 == 8 { $2 = "failed"; $3 = 0 } { print }' "$f" >"$f.new" && mv "$f.new" "$f"
  f=$(folder_of "$t/first" mallory)/results/01-allocation.tsv
  awk -F '\t' -v OFS='\t' '{ $2 = "passed"; $3 = $4 } { print }' "$f" >"$f.new" && mv "$f.new" "$f"
  make -s -C "$WB_ROOT" grade CLASS="$c" LESSON=1 BACKEND=cpu JOBS=2 OUT="$t/second" "${unsafe[@]}" \
    >"$t/second.out" 2>"$t/second.err" || echo "status $?" >>"$t/second.err"

  # Two entries whose folders collide: one made-safe name ("x y" and "x_y" are both x_y) and, with the
  # folder's hash cut to one hex digit (the test-only hook), the same digit; nothing else in the class.
  local i=0
  until [ "$(printf 'x y%s' "$i" | sha256sum | cut -c 1)" = "$(printf 'x_y%s' "$i" | sha256sum | cut -c 1)" ]; do i=$((i + 1)); done
  skeleton "$t/class3/x y$i" && skeleton "$t/class3/x_y$i"
  WB_TEST_FOLDER_HASH_CHARS=1 make -s -C "$WB_ROOT" grade CLASS="$t/class3" LESSON=1 BACKEND=cpu OUT="$t/runs3/collide" \
    "${unsafe[@]}" >"$t/collide.out" 2>"$t/collide.err" || echo "status $?" >>"$t/collide.err"
}

# forge DIR [WORKBOOK]: DIR (a submission: 01-allocation/ inside) made to carry what an earlier grading of it
# leaves: its hash as WORKBOOK's grader computes it (hashes.sh, lesson 1 on the CPU backend), results/
# with every step passed, a report and a log that say so, a state, an entry, and a seal with a key of its own.
forge() {
  local dir=$1 cls=${2:-$WB_ROOT}/grader/class sub grader
  sub=$("$cls/hashes.sh" submission "$dir" 01-allocation)
  grader=$("$cls/hashes.sh" grader cpu 01-allocation)
  printf '%s %s\n' "$sub" "$grader" | sha256sum | cut -c 1-64 >"$dir/hash"
  mkdir -p "$dir/results"
  "$cls/steps.sh" cpu 01-allocation | awk -F '\t' -v OFS='\t' '{ print $2, "passed", $3, $3, $5, "" }' >"$dir/results/01-allocation.tsv"
  echo "lesson 01: 8/8 steps passed (17/17 points) FORGED" >"$dir/report.txt"
  echo graded >"$dir/state"
  printf '%s' "${dir##*/}" >"$dir/entry"
  echo "graded (hash ${sub:0:12})" >"$dir/log"
  head -c 32 /dev/urandom >"$BATS_FILE_TMPDIR/attacker.key" && chmod 600 "$BATS_FILE_TMPDIR/attacker.key"
  /usr/bin/python3 -I "$cls/seal.py" sign "$BATS_FILE_TMPDIR/attacker.key" "$dir" "$sub" "$grader"
}

# folder_of RUN ENTRY: the student folder of RUN that graded ENTRY (its file "entry").
folder_of() {
  local f
  for f in "$1"/*/entry; do
    [ "$(cat "$f")" != "$2" ] || { dirname "$f"; return 0; }
  done
  return 1
}

# log_of RUN ENTRY: that student's line of RUN/run.log, without the folder and the name.
log_of() {
  local f
  f=$(folder_of "$1" "$2") || { echo "no folder for $2 in $1"; return 0; }
  awk -F '\t' -v f="${f##*/}" '$1 == f { print $3 }' "$1/run.log"
}

# total RUN ENTRY: that student's points in RUN/gradebook.csv (by folder: the names are not unique here).
total() {
  local f
  f=$(folder_of "$1" "$2") || { echo "no folder for $2 in $1"; return 0; }
  awk -F ',' -v f="${f##*/}" '{ sub(/\r$/, "") } $NF == f { print $2 }' "$1/gradebook.csv"
}

setup() {
  load lib/helpers
  require_solutions
  [ -z "${FORGERY_SKIP:-}" ] || skip "$FORGERY_SKIP"
}

@test "an upload that carries a forged hash, results, report and seal scores what the skeleton scores" {
  command -v jq >/dev/null 2>&1 || skip "jq is not installed: results.json not parsed"
  run cat "$BATS_FILE_TMPDIR/gradescope.out"
  refute_output --partial "status "
  run jq -r '[.score, ([.tests[] | select(.status == "passed")] | length), .tests[0].status] | @tsv' \
    "$BATS_FILE_TMPDIR/gs/autograder/results/results.json"
  # (On a failure, what the autograder printed and what step 1 said: the verdict's reason.)
  [ "$output" = $'1\t1\tpassed' ] || { cat "$BATS_FILE_TMPDIR/gs.out"; jq -r '.tests[0].output' \
    "$BATS_FILE_TMPDIR/gs/autograder/results/results.json"; }
  assert_output $'1\t1\tpassed'
  run cat "$BATS_FILE_TMPDIR/gs.out"
  assert_line --partial 'lesson 01: 1/8 steps passed (1/17 points)'
  refute_output --partial FORGED
}

@test "make grade beside the class: a student's forged result is believed neither for them nor for a classmate with the same files" {
  run cat "$BATS_FILE_TMPDIR/first.err"
  refute_output --partial "status "
  local run=$BATS_FILE_TMPDIR/first
  assert_equal "$(total "$run" mallory)" 1
  assert_equal "$(total "$run" twin)" 1
  run log_of "$run" mallory
  assert_output --regexp '^graded \(hash [0-9a-f]{12}\)$'
  run log_of "$run" twin
  assert_output --regexp '^graded \(hash [0-9a-f]{12}\)$'
  run cat "$run"/*/report.txt
  refute_output --partial FORGED
  run grep -c reused "$run/run.log"
  assert_output 0
}

@test "honest classmates keep their honest scores; every graded result is sealed, with a key only the grader reads" {
  local run=$BATS_FILE_TMPDIR/first key=${WB_BUILD:-$WB_ROOT/build}/keys/results.key f
  assert_equal "$(total "$run" carol)" 17
  for f in carol mallory twin; do assert_file_exists "$(folder_of "$run" "$f")/seal"; done
  assert_equal "$(stat -c '%a %s' "$key")" "600 32"
  assert_equal "$(stat -c %a "$(dirname "$key")")" 700
}

@test "two entries with one student name (alice/ and alice.zip): neither is graded, each row names the other, stderr warns" {
  local run=$BATS_FILE_TMPDIR/first a z
  a=$(folder_of "$run" alice) z=$(folder_of "$run" alice.zip)
  [ "$a" != "$z" ] || fail "alice/ and alice.zip share $a"
  assert_equal "$(cat "$a/reason")" "another entry gives the same student name: alice.zip; keep one"
  assert_equal "$(cat "$z/reason")" "another entry gives the same student name: alice/; keep one"
  for f in "$a" "$z"; do
    assert_equal "$(cat "$f/state")" not-graded
    assert_file_not_exists "$f/results"
    assert_file_not_exists "$f/hash"
  done
  # Two rows, one per entry, each with its own folder; the reason on each step of scores.csv.
  run grep -c '^alice,0,17,' "$run/gradebook.csv"
  assert_output 2
  run grep -c '^alice,01-allocation,.*,not-graded,0,[0-9]*,another entry gives the same student name: alice' "$run/scores.csv"
  assert_output 16
  run cat "$BATS_FILE_TMPDIR/first.err"
  assert_line "warning: alice/ is not graded: another entry gives the same student name: alice.zip; keep one"
  assert_line "warning: alice.zip is not graded: another entry gives the same student name: alice/; keep one"
}

@test "each folder is the made-safe name and the whole sha256 of its entry's name (64 hex digits)" {
  local run=$BATS_FILE_TMPDIR/first f n=0
  for f in "$run"/*/entry; do
    n=$((n + 1))
    [[ ${f%/entry} =~ /[A-Za-z0-9_][A-Za-z0-9_-]*-([0-9a-f]{64})$ ]] || fail "${f%/entry}: not a name and 64 hex digits"
    assert_equal "${BASH_REMATCH[1]}" "$(sha256sum <"$f" | cut -c 1-64)"
  done
  assert_equal "$n" "$(find "$BATS_FILE_TMPDIR/class" -mindepth 1 -maxdepth 1 -printf x | wc -c)"
}

@test "a result edited after grading is not reused: graded again, run.log says why" {
  run cat "$BATS_FILE_TMPDIR/second.err"
  refute_output --partial "status "
  local run=$BATS_FILE_TMPDIR/second first
  first=$(folder_of "$BATS_FILE_TMPDIR/first" carol)
  run log_of "$run" carol
  assert_output --regexp "^graded \(hash [0-9a-f]{12}; ignored first/${first##*/}: its seal does not verify\)$"
  assert_equal "$(total "$BATS_FILE_TMPDIR/second" carol)" 17
}

@test "honest reuse: a sealed result is reused, the student's own first, else an identical classmate's" {
  local run=$BATS_FILE_TMPDIR/second twin mallory
  twin=$(folder_of "$BATS_FILE_TMPDIR/first" twin) mallory=$(folder_of "$BATS_FILE_TMPDIR/first" mallory)
  run log_of "$run" twin
  assert_output --regexp "^reused from first/${twin##*/} \(identical hash [0-9a-f]{12}\)$"
  # mallory's own result was edited: ignored; twin's identical files' result is reused, under mallory's name.
  run log_of "$run" mallory
  assert_output --regexp "^reused from first/${twin##*/} \(identical hash [0-9a-f]{12}; ignored first/${mallory##*/}: its seal does not verify\)$"
  assert_equal "$(total "$run" mallory)" 1
  assert_equal "$(total "$run" twin)" 1
  run cat "$(folder_of "$run" mallory)/report.txt"
  assert_output --partial "mallory/"
  refute_output --partial "twin/"
}

@test "two entries that give one folder are both refused, each in a folder of its own" {
  run cat "$BATS_FILE_TMPDIR/collide.err"
  refute_output --partial "status "
  assert_output --regexp "warning: x y[0-9]+/ is not graded: another entry's name gives the same folder \(x_y[0-9]+-[0-9a-f]\): x_y[0-9]+/; rename one"
  assert_output --regexp "warning: x_y[0-9]+/ is not graded: another entry's name gives the same folder \(x_y[0-9]+-[0-9a-f]\): x y[0-9]+/; rename one"
  local run=$BATS_FILE_TMPDIR/runs3/collide
  run awk -F '\t' '{ print $3 }' "$run/run.log"
  assert_line --regexp "^not graded: another entry's name gives the same folder .*; rename one$"
  assert_equal "${#lines[@]}" 2
  run find "$run" -mindepth 1 -maxdepth 1 -type d -name 'x_y*-refused-*'
  assert_equal "${#lines[@]}" 2
}
