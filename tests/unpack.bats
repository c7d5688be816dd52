#!/usr/bin/env bats
# grader/class/unpack.sh on entries that attack the grading itself: git repositories that point elsewhere on the
# grader's disk or name commands of their own, and archives whose listing lies about their size.

setup() {
  load lib/helpers
  command -v git >/dev/null 2>&1 || skip "git is not installed"
  G=(git -c user.name=t -c user.email=t@t -c init.defaultBranch=main)
}

@test "a bare repository with objects/info/alternates is refused: git would read another repository's objects" {
  local d=$BATS_TEST_TMPDIR
  # Another repository on the grader's disk (another student's, the solutions), holding the answer.
  mkdir -p "$d/other/01-allocation" && echo 'the answer' >"$d/other/01-allocation/alloc.cu"
  (cd "$d/other" && "${G[@]}" init -q && "${G[@]}" add -A && "${G[@]}" commit -qm answer)
  # The student's bare repository holds only a commit; its objects are the other's, through alternates.
  "${G[@]}" clone -q --bare --shared "$d/other" "$d/student.git"
  assert_file_exists "$d/student.git/objects/info/alternates"
  run "$WB_ROOT/grader/class/unpack.sh" "$d/student.git" "$d/out"
  assert_failure
  assert_output --partial "objects/info/alternates"
  assert_file_not_exists "$d/out/01-allocation/alloc.cu"
  # The environment cannot point git elsewhere either.
  # (GIT_OBJECT_DIRECTORY would make git look for this repository's own commit among the other's objects.)
  mkdir -p "$d/mine/01-allocation" && echo 'my work' >"$d/mine/01-allocation/alloc.cu"
  (cd "$d/mine" && "${G[@]}" init -q && "${G[@]}" add -A && "${G[@]}" commit -qm mine)
  "${G[@]}" clone -q --bare "$d/mine" "$d/plain.git"
  GIT_ALTERNATE_OBJECT_DIRECTORIES=$d/other/.git/objects GIT_OBJECT_DIRECTORY=$d/other/.git/objects \
    run "$WB_ROOT/grader/class/unpack.sh" "$d/plain.git" "$d/out2"
  assert_success
  assert_equal "$(cat "$d/out2/01-allocation/alloc.cu")" 'my work'
}

@test "a bare repository whose alternates is a link, or whose objects/info is one, is refused too" {
  local d=$BATS_TEST_TMPDIR
  mkdir -p "$d/other/01-allocation" && echo 'the answer' >"$d/other/01-allocation/alloc.cu"
  (cd "$d/other" && "${G[@]}" init -q && "${G[@]}" add -A && "${G[@]}" commit -qm answer)
  "${G[@]}" clone -q --bare --shared "$d/other" "$d/a.git"
  mv "$d/a.git/objects/info/alternates" "$d/alt" && ln -s "$d/alt" "$d/a.git/objects/info/alternates"
  run "$WB_ROOT/grader/class/unpack.sh" "$d/a.git" "$d/o1"
  assert_failure
  assert_output --partial "objects/info/alternates"
  "${G[@]}" clone -q --bare --shared "$d/other" "$d/b.git"
  mv "$d/b.git/objects/info" "$d/info" && ln -s "$d/info" "$d/b.git/objects/info"
  run "$WB_ROOT/grader/class/unpack.sh" "$d/b.git" "$d/o2"
  assert_failure
  assert_output --partial "objects/info is a link"
}

# The attacks on the grading itself (tests/hostile/class/make-entry.sh builds each at test time).
make_entry() { "$WB_ROOT/tests/hostile/class/make-entry.sh" "$@"; }

@test "a bare repository that says it is a partial clone runs none of its commands: nothing is fetched" {
  local d=$BATS_TEST_TMPDIR e
  for e in lazy.git lazy; do # the second: a plain folder that declares itself a bare repository
    make_entry lazy-fetch "$d/$e" "$d/MARK"
    # The attack is real: git, asked for the missing blob the plain way, runs the student's command.
    (cd "$d" && git --git-dir="$d/$e" cat-file -p HEAD:01-allocation/alloc.cu) >/dev/null 2>&1 || true
    assert_file_exists "$d/MARK"
    rm -f "$d/MARK"
    run "$WB_ROOT/grader/class/unpack.sh" "$d/$e" "$d/out-$e"
    assert_failure
    assert_output --regexp '^a bare repository with a missing object: [0-9a-f]{40} \(01-allocation/alloc.cu\)$'
    assert_file_not_exists "$d/MARK"
    assert_file_not_exists /tmp/MARK
    assert_equal "$(find "$d/out-$e" -mindepth 1 | wc -l)" 0
  done
}

@test "a .tar.gz whose owner name holds a space is counted as written: 60 MiB of zeros is too big" {
  local d=$BATS_TEST_TMPDIR
  make_entry owner-space "$d/bomb.tgz"
  # GNU tar's verbose listing shifts its size column by the owner's space: a listing would read 0 bytes.
  run tar -tvzf "$d/bomb.tgz"
  assert_output --partial "a b/c d"
  run "$WB_ROOT/grader/class/unpack.sh" "$d/bomb.tgz" "$d/out"
  assert_failure
  assert_output "too big: more than 50 MiB unpacked"
  assert_equal "$(find "$d/out" -mindepth 1 | wc -l)" 0
  # A lower limit stops it sooner, and a file-size limit stands behind the count.
  WB_CLASS_MAX_MB=1 run "$WB_ROOT/grader/class/unpack.sh" "$d/bomb.tgz" "$d/out"
  assert_output "too big: more than 1 MiB unpacked"
}

@test "a repository of 10 KiB whose HEAD lists 10^10 files ends at its limit of files, or of time" {
  local d=$BATS_TEST_TMPDIR t0=$SECONDS
  make_entry tree-bomb "$d/tree.git"
  run "$WB_ROOT/grader/class/unpack.sh" "$d/tree.git" "$d/out"
  assert_failure
  assert_output "too many files and folders: more than 2000"
  # With no limit on files, the time limit ends it.
  WB_CLASS_MAX_FILES=100000000000 WB_CLASS_UNPACK_SECONDS=2 run "$WB_ROOT/grader/class/unpack.sh" "$d/tree.git" "$d/out"
  assert_failure
  assert_output "took too long to unpack: more than 2 s"
  [ $((SECONDS - t0)) -lt 30 ] || fail "the two refusals took $((SECONDS - t0)) s"
  assert_equal "$(find "$d/out" -mindepth 1 | wc -l)" 0
}

@test "a zip of 3000 files is refused at the 2001st written; a zip's symbolic link is refused" {
  local d=$BATS_TEST_TMPDIR
  command -v zip >/dev/null 2>&1 || skip "zip is not installed"
  make_entry many-entries "$d/many.zip"
  run "$WB_ROOT/grader/class/unpack.sh" "$d/many.zip" "$d/out"
  assert_failure
  assert_output "too many files and folders: more than 2000"
  make_entry zip-link "$d/link.zip"
  run "$WB_ROOT/grader/class/unpack.sh" "$d/link.zip" "$d/out"
  assert_failure
  assert_output "unsafe entry (a link, device or other special file): 01-allocation/alloc.cu"
  assert_equal "$(find "$d/out" -mindepth 1 | wc -l)" 0
}
