#!/usr/bin/env bats
# What an instructor hands out comes from the commit, never from the working tree. In a copy of the workbook
# committed as a git repository of its own, the instructor solves lesson 1's exercise, adds a paragraph to its
# chapter and leaves notes (beside the exercise, at the top, in solutions/), uncommitted: make dist (its folder,
# its .tar.gz, the pristine copy in it), make gradescope (the zip) and make book (both editions) show none of it, name the commit and warn that the working tree differs. Then the release, unpacked where
# there is no git, with a student's solved exercise: its book lists the exercise as released, make dist there
# ships it as released, and make reset LESSON=1 restores it. Everything runs at once in setup_file. The books
# are EPUBs: the same chapters and listings as the HTML pages, in a fifth of the time (2 s of CPU, not 10).


# answer_line SOLUTION SKELETON REGION: the first code line of SOLUTION's REGION (12 characters or more, not a
# comment) that SKELETON nowhere has, without its indentation.
answer_line() {
  awk -v name="$3" '$0 ~ "// end region: " name "$" { inside = 0 } inside { print } $0 ~ "// region: " name "$" { inside = 1 }' "$1" |
    sed -E 's/^[[:space:]]+//' | grep -E '^.{12,}$' | grep -vE '^(//|/\*|\*)' |
    grep -vxF -f <(sed -E 's/^[[:space:]]+//' "$2") | head -n 1
}

setup_file() {
  load lib/helpers
  export RELEASE_SKIP="" BOOK_SKIP="" MARK ANSWER
  if in_release; then
    RELEASE_SKIP="solutions/ and the variants are not in the student release"
    return 0
  fi
  if ! git -C "$WB_ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    RELEASE_SKIP="not a git checkout: the test commits a copy of the workbook's files"
    return 0
  fi
  command -v pandoc >/dev/null 2>&1 || BOOK_SKIP="pandoc is not installed: the book is not built"
  # A line only the solution has, in the region chapter 1 lists as "allocate" (found here: this file ships
  # in the release, and must not hold an answer).
  ANSWER=$(answer_line "$WB_ROOT/solutions/01-allocation/alloc.cu" "$WB_ROOT/exercises/01-allocation/alloc.cu" allocate)
  local t=$BATS_FILE_TMPDIR repo rel
  # The working tree's files, committed: what this test checks is the scripts as they are here.
  repo=$(repo_copy "$t/repo")
  MARK=uncommitted-note-$RANDOM$RANDOM
  cp "$repo/solutions/01-allocation/alloc.cu" "$repo/exercises/01-allocation/alloc.cu"
  echo "$MARK beside the exercise" >"$repo/exercises/01-allocation/NOTES.txt"
  echo "$MARK at the top" >"$repo/instructor-notes.txt"
  echo "$MARK among the solutions" >"$repo/solutions/01-allocation/NOTES.txt"
  printf '\nA paragraph the instructor has not committed: %s.\n' "$MARK" >>"$repo/lessons/01-allocation.md"
  rel=$t/unpacked/cuda-memory-workbook
  {
    make -s -C "$repo" dist >"$t/dist.out" 2>&1 || echo "status $?" >>"$t/dist.out"
    make -s -C "$repo" gradescope LESSON=1 >"$t/gradescope.out" 2>&1 || echo "status $?" >>"$t/gradescope.out"
    # The release where there is no git (GIT_CEILING_DIRECTORIES: none above it either), and a student who
    # solved lesson 1 in it.
    mkdir -p "$t/unpacked" && tar -C "$t/unpacked" -xzf "$repo/build/dist/cuda-memory-workbook.tar.gz"
    cp "$WB_ROOT/solutions/01-allocation/alloc.cu" "$rel/exercises/01-allocation/alloc.cu"
    (
      unset WB_ROOT
      export GIT_CEILING_DIRECTORIES=$t
      cd "$rel" || exit 1
      [ -n "$BOOK_SKIP" ] || make -s book FORMAT=epub >"$t/release-book.out" 2>&1 || echo "status $?" >>"$t/release-book.out"
      WB_BUILD=$t/release-build make -s dist >"$t/release-dist.out" 2>&1 || echo "status $?" >>"$t/release-dist.out"
      make -s reset LESSON=1 >"$t/release-reset.out" 2>&1 || echo "status $?" >>"$t/release-reset.out"
    )
  } &
  if [ -z "$BOOK_SKIP" ]; then
    make -s -C "$repo" book FORMAT=epub >"$t/book.out" 2>&1 || echo "status $?" >>"$t/book.out" &
    make -s -C "$repo" book FORMAT=epub EDITION=instructor >"$t/instructor.out" 2>&1 ||
      echo "status $?" >>"$t/instructor.out" &
  fi
  wait
}

setup() {
  load lib/helpers
  [ -z "$RELEASE_SKIP" ] || skip "$RELEASE_SKIP"
  T=$BATS_FILE_TMPDIR
  REPO=$T/repo
  REL=$T/unpacked/cuda-memory-workbook
  COMMIT=$(git -C "$REPO" rev-parse --short HEAD)
}

# refute_shipped DIR...: no file under DIR holds the answer or the marker of the notes and the paragraph;
# (X)HTML pages also as a reader sees them (tags left out, entities decoded: listings are highlighted).
refute_shipped() {
  local hits
  hits=$(grep -rlF -e "$ANSWER" -e "$MARK" "$@" || true)
  [ -z "$hits" ] || fail "these hold what was not committed: $hits"
  hits=$(find "$@" \( -name '*.html' -o -name '*.xhtml' \) -exec sed -e 's/<[^>]*>//g' -e 's/&lt;/</g' -e 's/&gt;/>/g' \
    -e 's/&quot;/"/g' -e 's/&amp;/\&/g' {} + | grep -F -e "$ANSWER" -e "$MARK" || true)
  [ -z "$hits" ] || fail "a page shows what was not committed: $(head -n 2 <<<"$hits")"
}

# unpack TAR DIR: TAR (.tar.gz, or .zip or .epub) unpacked into DIR, and every pristine.tar.gz in it beside itself.
unpack() {
  local p
  mkdir -p "$2"
  case $1 in *.zip | *.epub) unzip -q "$1" -d "$2" ;; *) tar -C "$2" -xzf "$1" ;; esac
  while IFS= read -r -d '' p; do
    mkdir -p "$p.d" && tar -C "$p.d" -xzf "$p"
  done < <(find "$2" -name pristine.tar.gz -print0)
}

# assert_committed FILE: FILE is lesson 1's exercise as committed (the skeleton).
assert_committed() {
  git -C "$REPO" show HEAD:exercises/01-allocation/alloc.cu | cmp - "$1"
}

# assert_warned OUTPUT_FILE: the output names the commit and warns about the solved exercise and the note.
assert_warned() {
  run cat "$1"
  refute_output --partial "status "
  assert_output --partial "from commit $COMMIT"
  assert_output --partial "warning: the working tree differs from commit $COMMIT"
  assert_output --regexp "modified +exercises/01-allocation/alloc\.cu"
  assert_output --regexp "untracked +exercises/01-allocation/NOTES\.txt"
}

@test "an answer line is found in the solution's region allocate, and chapter 1 lists that region" {
  [ -n "$ANSWER" ] || fail "no line of the solution's region allocate is missing from the skeleton"
  assert_file_contains "$WB_ROOT/lessons/01-allocation.md" 'include="exercises/01-allocation/alloc.cu" region="allocate"'
}

@test "make dist ships the commit: no solved exercise, note or uncommitted paragraph in the folder, the .tar.gz or the pristine copy" {
  unpack "$REPO/build/dist/cuda-memory-workbook.tar.gz" "$T/dist-unpacked"
  refute_shipped "$REPO/build/dist/cuda-memory-workbook" "$T/dist-unpacked"
  assert_committed "$REPO/build/dist/cuda-memory-workbook/exercises/01-allocation/alloc.cu"
  assert_file_exists "$T/dist-unpacked/cuda-memory-workbook/pristine.tar.gz.d/exercises/01-allocation/alloc.cu"
  assert_file_contains "$REPO/build/dist/cuda-memory-workbook/RELEASE.md" "^Built from commit $COMMIT"
  assert_warned "$T/dist.out"
  assert_output --regexp "untracked +instructor-notes\.txt"
  refute_output --partial "solutions/01-allocation/NOTES.txt" # never shipped: no warning about it
}

@test "make gradescope ships the commit: nothing uncommitted in the zip's workbook or its pristine copy" {
  unpack "$REPO/build/gradescope/autograder.zip" "$T/zip"
  refute_shipped "$T/zip"
  assert_committed "$T/zip/workbook/exercises/01-allocation/alloc.cu"
  assert_warned "$T/gradescope.out"
}

@test "make book (student edition) renders the commit: the skeleton's listings, not the solved exercise, notes or paragraph" {
  [ -z "$BOOK_SKIP" ] || skip "$BOOK_SKIP"
  unpack "$REPO/build/book/workbook.epub" "$T/epub"
  refute_shipped "$T/epub"
  # The listing of region allocate is there, from the skeleton.
  run grep -rlF "TODO(step 2): allocate d_data" "$T/epub"
  assert_success
  assert_warned "$T/book.out"
  assert_output --regexp "modified +lessons/01-allocation\.md"
}

@test "make book EDITION=instructor renders the commit too: the committed solutions, not a note left among them" {
  [ -z "$BOOK_SKIP" ] || skip "$BOOK_SKIP"
  unpack "$REPO/build/book-instructor/workbook.epub" "$T/instructor-epub"
  run grep -rlF "$MARK" "$T/instructor-epub"
  assert_failure
  run grep -rlF "solutions/01-allocation/alloc.cu" "$T/instructor-epub"
  assert_success
  run cat "$T/instructor.out"
  refute_output --partial "status "
  assert_output --partial "from commit $COMMIT"
  assert_output --regexp "untracked +solutions/01-allocation/NOTES\.txt"
}

@test "in the release (no git), make book lists the exercises as released, not the student's solved file, and says so" {
  [ -z "$BOOK_SKIP" ] || skip "$BOOK_SKIP"
  unpack "$REL/build/book/workbook.epub" "$T/release-epub"
  refute_shipped "$T/release-epub"
  run grep -rlF "TODO(step 2): allocate d_data" "$T/release-epub"
  assert_success
  run cat "$T/release-book.out"
  refute_output --partial "status "
  assert_output --partial "from this folder (not a git checkout), exercises and chapters from its pristine.tar.gz"
  assert_output --regexp "modified +exercises/01-allocation/alloc\.cu"
}

@test "in the release, make dist ships the exercises as released, and make reset LESSON=1 restores the skeleton" {
  assert_committed "$T/release-build/dist/cuda-memory-workbook/exercises/01-allocation/alloc.cu"
  run cat "$T/release-dist.out"
  refute_output --partial "status "
  assert_output --partial "from this folder (not a git checkout), exercises and chapters from its pristine.tar.gz"
  assert_committed "$REL/exercises/01-allocation/alloc.cu"
  run cat "$T/release-reset.out"
  refute_output --partial "status "
  assert_output --partial "restored exercises/01-allocation/ from pristine.tar.gz"
  # The student's version is saved.
  grep -qF "$ANSWER" "$REL"/build/backups/01-allocation-*/alloc.cu
}
