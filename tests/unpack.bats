#!/usr/bin/env bats
# grader/class/unpack.sh on git repositories that point elsewhere on the grader's disk.

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
