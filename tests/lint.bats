#!/usr/bin/env bats
# The project's shell scripts pass shellcheck (house style: keep it quiet).

setup() {
  load lib/helpers
}

@test "shellcheck finds nothing in the project's shell scripts" {
  command -v shellcheck >/dev/null 2>&1 || skip "shellcheck is not installed"
  cd "$WB_ROOT"
  local files=()
  mapfile -t files < <(
    find grader tests book cpu \( -name '*.sh' -o -name '*.bash' \) -type f 2>/dev/null
    grep -l -s -m1 '^#!/usr/bin/env bash' cpu/bin/* 2>/dev/null
  )
  run shellcheck -x "${files[@]}"
  assert_success
}
