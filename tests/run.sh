#!/usr/bin/env bash
# `make test`: the workbook's own tests. Installs what they need, runs every Bats suite under tests/
# (the lessons' tests are generated from tests/variants/), then the CPU backend's and the book's suites,
# and ends with one line: "N passed, N failed, N skipped". Exit status 0 only when nothing failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
grader/setup.sh --quiet --tests
book_ready=1
grader/setup.sh --quiet --book-tests || book_ready=0

passed=0 failed=0 skipped=0
# tally: reads TAP, echoes it, and adds up its results.
tally() {
  local line
  while IFS= read -r line; do
    printf '%s\n' "$line"
    if [[ $line =~ ^ok\ .*\ \#\ skip ]]; then skipped=$((skipped + 1))
    elif [[ $line =~ ^ok\  ]]; then passed=$((passed + 1))
    elif [[ $line =~ ^not\ ok\  ]]; then failed=$((failed + 1))
    fi
  done
}
# suite NAME COMMAND...: runs a suite that ends with its own "N passed, N failed, N skipped" line.
suite() {
  local name=$1 log summary p f s
  shift
  log=$(mktemp)
  echo "# $name"
  "$@" 2>&1 | tee "$log" || true
  summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 || true)
  if [ -z "$summary" ]; then
    echo "not ok - $name ended without its summary line"
    failed=$((failed + 1))
  else
    read -r p _ f _ s _ <<<"${summary//,/}"
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${s:-0}))
  fi
  rm -f "$log"
}

tests/gen-lesson-tests.sh build/tests/lessons.bats
tally < <(bats --tap tests/*.bats 2>&1 || true)
# The lessons' generated tests grade one program at a time, and a grading leaves a core idle much of the
# time: two halves run side by side (each in folders of its own), and their results are shown in turn.
lesson_half() { bats --tap -f "$1" build/tests/lessons.bats >"$2" 2>&1 || true; }
halves=$(mktemp -d)
lesson_half "^0[0-4]-" "$halves/first" &
lesson_half "^(0[5-9]|[1-9][0-9])-" "$halves/second" &
wait
tally <"$halves/first"
tally <"$halves/second"
rm -rf "$halves"
[ ! -x cpu/tests/run.sh ] || suite "CPU backend conformance (cpu/tests)" cpu/tests/run.sh
[ ! -x cpu/tests/fuzz/lockstep.sh ] || suite "random kernels, lockstep and thread by thread (cpu/tests/fuzz)" cpu/tests/fuzz/lockstep.sh
if [ "$book_ready" = 1 ]; then
  [ ! -x book/test.sh ] || suite "book (book/test.sh)" book/test.sh
else
  echo "ok - the book's suite # skip pandoc is not installed"
  skipped=$((skipped + 1))
fi

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
