#!/usr/bin/env bats
# A class's runs and its course gradebook (grader/class/course.sh): make grade writes each run into
# build/class/CLASS/, and merges every run into one gradebook, each student's latest result per lesson.
# Graded once in setup_file (CPU backend): lesson 1, then lesson 0, then lesson 1 again with bob's late
# resubmission and a late joiner, carol. The class's name is the test's own; its runs are removed after.

setup_file() {
  load lib/helpers
  ! in_release || return 0
  local c unsafe=() lesson
  c=$BATS_FILE_TMPDIR/$(class_name)
  (. "$WB_ROOT/grader/lib/sandbox.sh" && sandbox_available) || unsafe=(UNSAFE=1)
  mkdir -p "$c/alice" "$c/bob"
  for lesson in 00-toolchain 01-allocation; do
    cp -R "$WB_ROOT/solutions/$lesson" "$c/alice/"
    cp -R "$WB_ROOT/exercises/$lesson" "$c/bob/"
  done
  grade() { make -s -C "$WB_ROOT" grade CLASS="$c" BACKEND=cpu "${unsafe[@]}" "$@" >>"$BATS_FILE_TMPDIR/out" 2>&1 || echo "status $?" >>"$BATS_FILE_TMPDIR/out"; }
  grade LESSON=1
  grade LESSON=0
  # The late ones: bob hands in lesson 1 again (the solution), carol joins with lesson 1 only.
  rm -rf "$c/bob/01-allocation" && cp -R "$WB_ROOT/solutions/01-allocation" "$c/bob/"
  mkdir -p "$c/carol" && cp -R "$WB_ROOT/solutions/01-allocation" "$c/carol/"
  grade LESSON=1
}

# class_name: this test file's class, a name no one else's class has.
class_name() { printf 'gradebook-test-%s' "$(basename "$BATS_FILE_TMPDIR" | tr -c 'A-Za-z0-9' '_' | cut -c1-12)${BATS_ROOT_PID:-0}"; }

teardown_file() {
  rm -rf "$WB_ROOT/build/class/$(class_name)" "$WB_ROOT/build/class/$(class_name)-2"
}

setup() {
  load lib/helpers
  require_solutions
  class=$BATS_FILE_TMPDIR/$(class_name)
  runs=$WB_ROOT/build/class/$(class_name)
}

# gradebook_row NAME: NAME's row of the course gradebook, fields tab-separated.
gradebook_row() { tr -d '\r' <"$runs/gradebook.csv" | awk -F, -v n="$1" '$1 == n' | tr , '\t'; }
# column NAME: the gradebook's column of that name.
column() { tr -d '\r' <"$runs/gradebook.csv" | head -n 1 | tr , '\n' | grep -nxF "$1" | cut -d: -f1; }

@test "each run is a folder of its class named by lesson and time, beside latest and the course gradebook" {
  run cat "$BATS_FILE_TMPDIR/out"
  refute_output --partial "status "
  assert_output --partial "course gradebook: "
  run find "$runs" -mindepth 1 -maxdepth 1 -type d -printf '%f\n'
  assert_equal "$(grep -c '^01-[0-9]\{8\}-[0-9]\{6\}' <<<"$output")" 2
  assert_equal "$(grep -c '^00-[0-9]\{8\}-[0-9]\{6\}' <<<"$output")" 1
  # the newest run: the second of lesson 1 (names sort by time within a lesson)
  assert_equal "$(readlink "$runs/latest")" "$(cd "$runs" && printf '%s\n' 01-* | tail -n 1)"
  assert_file_exists "$runs/gradebook.csv"
  assert_file_exists "$runs/course.html"
  assert_equal "$(cat "$runs/class-path")" "$class"
  # the run's own page names the class and the lesson
  run grep -o '<title>[^<]*' "$runs/latest/class.html"
  assert_output --regexp "Class $(class_name), lesson 01, "
}

@test "the course gradebook holds every student's latest result for each lesson, and its rows add up" {
  local alice bob carol c00 c01
  c00=$(column 00-toolchain) c01=$(column 01-allocation)
  alice=$(gradebook_row alice) bob=$(gradebook_row bob) carol=$(gradebook_row carol)
  # alice: two solutions, every point of both lessons
  assert_equal "$(cut -f2 <<<"$alice")" "$(cut -f3 <<<"$alice")"
  # bob's resubmission replaced his lesson 1 only: 17/17 there, the skeleton's points in lesson 0
  assert_equal "$(cut -f"$c01" <<<"$bob")" 17
  [ "$(cut -f"$c00" <<<"$bob")" -lt "$(cut -f"$c00" <<<"$alice")" ] || fail "bob's lesson 0 (a skeleton) scored as alice's"
  # carol, graded on lesson 1 only: lesson 0 counts 0 points, out of the same maximum as everyone's
  assert_equal "$(cut -f"$c01" <<<"$carol")" 17
  assert_equal "$(cut -f"$c00" <<<"$carol")" 0
  assert_equal "$(cut -f3 <<<"$carol")" "$(cut -f3 <<<"$alice")"
  # every row: the step columns add up to the total, the lesson columns too
  run awk -F, 'NR == 1 { for (i = 4; i <= NF; i++) if ($i ~ / step /) step[i] = 1; else if ($i ~ /^[0-9][0-9]-/) les[i] = 1; next }
    { s = l = 0; for (i in step) s += $i; for (i in les) l += $i; if (s != $2 || l != $2) print $1 ": " s ", " l ", " $2 }' \
    <(tr -d '\r' <"$runs/gradebook.csv")
  assert_output ""
  assert_equal "$(awk -F '\t' '$2 == "carol" && $3 == "00-toolchain" { print $6 }' "$runs/course.tsv" | sort -u)" not-graded
}

@test "course.html links each student's lesson to the report of the run that graded it" {
  local href
  run grep -o 'href="[^"]*"' "$runs/course.html"
  assert_equal "$(wc -l <<<"$output")" 5 # alice and bob: two lessons each; carol: one
  while IFS= read -r href; do
    href=${href#href=\"} href=${href%\"}
    assert_file_exists "$runs/$href"
  done <<<"$output"
  assert_output --regexp '"01-[0-9-]+/bob[^"]*/report.txt"'
}

@test "make gradebook merges the same again, and another class of the same name keeps its own runs" {
  cp "$runs/gradebook.csv" "$BATS_TEST_TMPDIR/before.csv"
  run make -s -C "$WB_ROOT" gradebook CLASS="$class"
  assert_success
  assert_output --partial "gradebook.csv"
  run diff "$BATS_TEST_TMPDIR/before.csv" "$runs/gradebook.csv"
  assert_success
  mkdir -p "$BATS_TEST_TMPDIR/other/$(class_name)"
  run make -s -C "$WB_ROOT" gradebook CLASS="$BATS_TEST_TMPDIR/other/$(class_name)"
  assert_failure
  assert_output --partial "no graded run of this class"
  assert_equal "$(cat "$runs-2/class-path")" "$BATS_TEST_TMPDIR/other/$(class_name)"
}
