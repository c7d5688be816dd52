#!/usr/bin/env bash
# `make test`: the workbook's own tests. Installs what they need, runs every Bats suite under tests/
# (the lessons' tests are generated from tests/variants/ and tests/rewrites/) side by side, then the CPU
# backend's and the book's suites, and ends with one line: "N passed, N failed, N skipped". Exit status 0
# only when nothing failed.
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

tests/gen-lesson-tests.sh build/tests/lessons
# Every Bats file, two (or WB_TEST_JOBS) at a time when GNU parallel is there (Bats needs it for --jobs): the
# lessons' files first, the longest. The tests of one file run in turn (they share its setup_file). The CPU
# backend is built first, once, rather than by whichever file asks first.
cpu/bin/nvcc-cpu --ensure-runtime
jobs=()
if command -v parallel >/dev/null 2>&1; then
  jobs=(--jobs "${WB_TEST_JOBS:-$(nproc)}" --no-parallelize-within-files)
else
  echo "# note: GNU parallel is not installed (apt-get install -y parallel): the suites run one at a time"
fi
mapfile -t files < <(grep -c '^@test' build/tests/lessons/*.bats | sort -t: -k2,2nr | cut -d: -f1)
timing=$(mktemp)
start=$SECONDS
tally < <(bats --tap --timing "${jobs[@]}" "${files[@]}" tests/*.bats 2>&1 | tee "$timing" || true)
echo "# Bats suites: $((SECONDS - start)) s; the slowest tests:"
# awk reads to the end: head would exit after 8 lines, a sort still writing would die of SIGPIPE and, with
# pipefail, so would this script, before its summary line (it did, once, in a fresh-clone CI run)
sed -n 's/^\(not \)\{0,1\}ok [0-9]* \(.*\) in \([0-9]*\)ms.*/\3 \2/p' "$timing" | sort -rn |
  awk 'NR <= 8 { t = $1; $1 = ""; printf "#   %5.0f s %s\n", t / 1000, substr($0, 2) }'
rm -f "$timing"
# The CPU backend's conformance cases beside its random kernels and the book's suite: two lanes, each
# suite's output shown whole when both are done.
lanes=$(mktemp -d)
start=$SECONDS
{
  [ ! -x cpu/tests/run.sh ] || cpu/tests/run.sh >"$lanes/conformance" 2>&1 || true
} &
{
  [ ! -x cpu/tests/fuzz/lockstep.sh ] || cpu/tests/fuzz/lockstep.sh >"$lanes/fuzz" 2>&1 || true
  [ "$book_ready" != 1 ] || [ ! -x book/test.sh ] || book/test.sh >"$lanes/book" 2>&1 || true
} &
wait
[ ! -f "$lanes/conformance" ] || suite "CPU backend conformance (cpu/tests)" cat "$lanes/conformance"
[ ! -f "$lanes/fuzz" ] || suite "random kernels, lockstep and thread by thread (cpu/tests/fuzz)" cat "$lanes/fuzz"
[ ! -f "$lanes/book" ] || suite "book (book/test.sh)" cat "$lanes/book"
rm -rf "$lanes"
if [ "$book_ready" != 1 ]; then
  echo "ok - the book's suite # skip pandoc is not installed"
  skipped=$((skipped + 1))
fi
echo "# the other suites, two at a time: $((SECONDS - start)) s"
echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
