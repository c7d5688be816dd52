# Helpers for the project's own tests: grade a submission in a private folder and read its results.

# shellcheck shell=bash
# Generated test files (tests/gen-lesson-tests.sh) set WB_ROOT before loading this; tests/*.bats do not.
[ -f "${WB_ROOT:-}/grader/check.sh" ] || WB_ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
export WB_ROOT
bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert
bats_load_library bats-file

# The backend the grader will pick here, asked once per test file.
wb_backend() {
  if [ -z "${WB_TEST_BACKEND:-}" ]; then
    # shellcheck disable=SC2016 # expanded by the inner bash
    WB_TEST_BACKEND=$(bash -c '. "$1/grader/lib/backend.sh" && backend_choose "$2" >/dev/null && echo "$WB_BACKEND"' \
      _ "$WB_ROOT" "${BACKEND:-auto}")
    export WB_TEST_BACKEND
  fi
  printf '%s\n' "$WB_TEST_BACKEND"
}

# The student release (make dist) has no solutions/, tests/variants/ or tests/rewrites/: a test that grades
# them cannot run there, and must not pass silently. require_solutions skips it, saying so; a setup_file
# that needs them returns early when in_release (Bats 1.8 cannot skip from setup_file), and its setup()
# calls require_solutions.
in_release() {
  [ ! -d "$WB_ROOT/solutions" ] || [ ! -d "$WB_ROOT/tests/variants" ]
}
require_solutions() {
  ! in_release || skip "solutions/ and the variants are not in the student release"
}

# Skips the test where no GPU and no CPU backend can run the students' programs.
require_backend() {
  [ "$(wb_backend)" != none ] || skip "needs a GPU or the CPU backend to run programs"
}

# submission_from LESSON SOURCE_DIR [PATCH]: a submission folder holding LESSON's files from
# SOURCE_DIR (solutions or exercises), with PATCH applied; prints the folder.
submission_from() {
  local lesson=$1 from=$2 patch=${3:-} dir
  dir=$BATS_TEST_TMPDIR/submission
  mkdir -p "$dir/$lesson"
  cp "$WB_ROOT/$from/$lesson"/* "$dir/$lesson/"
  if [ -n "$patch" ]; then
    patch --quiet -p1 -d "$dir/$lesson" <"$patch" || { echo "cannot apply $patch" >&2; return 1; }
  fi
  printf '%s\n' "$dir"
}

# grade LESSON SUBMISSION_DIR [check.sh options]: grades into the test's own folders.
# Sets status and output (as Bats's run does) and RESULTS, the per-step results file.
grade() {
  local lesson=$1 submission=$2
  shift 2
  RESULTS=$BATS_TEST_TMPDIR/results/$lesson.tsv
  run "$WB_ROOT/grader/check.sh" "$lesson" --submission "$submission" --results "$BATS_TEST_TMPDIR/results" \
    --work "$BATS_TEST_TMPDIR/work" "$@"
}

# step_status N: passed, failed, skipped or needs-gpu, from the last grade's results.
step_status() {
  awk -F '\t' -v n="$1" '$1 == n { print $2 }' "$RESULTS"
}

# The "Fails at: step N" line of a variant's patch.
variant_step() {
  sed -n 's/^Fails at: step \([0-9]*\).*/\1/p' "$1" | head -n 1
}

# repo_copy [DEST]: a copy of the workbook (tracked and untracked files, no build/) as a fresh git repository
# of one commit, for tests of commands that write into the repository; prints its folder (default: the test's
# repo/).
repo_copy() {
  local dest=${1:-$BATS_TEST_TMPDIR/repo}
  mkdir -p "$dest"
  (cd "$WB_ROOT" && git ls-files -z -co --exclude-standard | xargs -0 cp --parents -t "$dest")
  (cd "$dest" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm copy)
  printf '%s\n' "$dest"
}

# fixture_patch NAME: a front-door fixture patch (tests/fixtures/patches/NAME.patch) with @ROOT@ set.
fixture_patch() {
  sed "s#@ROOT@#$WB_ROOT#g" "$WB_ROOT/tests/fixtures/patches/$1.patch" >"$BATS_TEST_TMPDIR/$1.patch"
  printf '%s\n' "$BATS_TEST_TMPDIR/$1.patch"
}

# --- hostile submissions (tests/hostile.bats) ------------------------------------------------------

# In setup_file: the corpus needs the sandbox; without one every case is skipped, saying why.
require_sandbox_or_skip_file() {
  # shellcheck source=grader/lib/sandbox.sh
  . "$WB_ROOT/grader/lib/sandbox.sh"
  if ! sandbox_available; then export HOSTILE_SKIP="no sandbox on this machine: $WB_SANDBOX_WHY"; fi
}

# Checksums of every file of the repository, ignored ones and the built tools included, but for the
# grader's own outputs (results, reports, the work folders of gradings).
fingerprint() {
  (cd "$WB_ROOT" && find . \( -path ./build/check -o -path ./build/results -o -path ./build/results-of \
    -o -path ./build/report.txt -o -path ./build/tests -o -path ./build/class -o -path ./build/run \
    -o -path ./build/backups -o -path ./build/book -o -path ./build/cache \) -prune -o -type f -print0 | sort -z | xargs -0 cksum)
}

# hostile_source NAME ROOT DEST: tests/hostile/NAME.cu with @ROOT@ (the repository it attacks) and @MARK@
# (the file it must not create) filled in, written to DEST.
hostile_source() {
  sed -e "s#@ROOT@#$2#g" -e "s#@MARK@#$MARK#g" "$WB_ROOT/tests/hostile/$1.cu" >"$3"
}

# hostile NAME [BASE LINE]: grades tests/hostile/NAME.cu as lesson 01 (@ROOT@ and @MARK@ filled in), with a
# 3 s time limit, under a 240 s guard; with BASE, the case is appended to that file of the repository, less
# every line equal to LINE. Sets output, status and RESULTS as grade does, and HOSTILE_STATUS: done, or
# "hung" when the guard had to stop the grader. The corpus tests the sandbox, which must hold whatever an
# instructor lets through: the policy on lesson code (grader/policy/), which refuses most cases before they
# run, is off (ALLOW=all) unless HOSTILE_ALLOW names what to let through.
hostile() {
  local dir=$BATS_TEST_TMPDIR/submission
  # A fresh grading each time: a second case in one test must not find the first one's runs.
  rm -rf "$dir" "$BATS_TEST_TMPDIR/work" "$BATS_TEST_TMPDIR/results"
  mkdir -p "$dir/01-allocation"
  hostile_source "$1" "$WB_ROOT" "$dir/01-allocation/alloc.cu"
  if [ $# -ge 3 ]; then
    { grep -vxF -- "$3" "$WB_ROOT/$2"; cat "$dir/01-allocation/alloc.cu"; } >"$dir/case.cu"
    mv "$dir/case.cu" "$dir/01-allocation/alloc.cu"
  fi
  RESULTS=$BATS_TEST_TMPDIR/results/01-allocation.tsv
  WB_TIMEOUT=3 WB_ALLOW=${HOSTILE_ALLOW-all} run timeout 240 "$WB_ROOT/grader/check.sh" 01-allocation --submission "$dir" \
    --results "$BATS_TEST_TMPDIR/results" --work "$BATS_TEST_TMPDIR/work"
  HOSTILE_STATUS="done"
  # shellcheck disable=SC2154 # status is set by Bats's run
  [ "$status" != 124 ] || HOSTILE_STATUS=hung
  export HOSTILE_STATUS
}
