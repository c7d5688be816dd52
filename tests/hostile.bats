#!/usr/bin/env bats
# Hostile submissions (tests/hostile/): each is graded as lesson 01 and must get a verdict within its
# limit, leave the repository and the grader byte-identical (ignored files included), leave no process,
# forge no line of the report, and show what its own case expects.

setup_file() {
  load lib/helpers
  require_sandbox_or_skip_file
  # The grader's own build products (the trace's objects, the device query, the CPU runtime) are made
  # by the first build: made here, before the fingerprint, they are held to it like every other file.
  (
    export WB_ROOT WB_BUILD=$WB_ROOT/build
    . "$WB_ROOT/grader/lib/build.sh" && . "$WB_ROOT/grader/lib/backend.sh"
    backend_choose "${BACKEND:-auto}" && build_program 01-allocation "$WB_ROOT/solutions/01-allocation" "$BATS_FILE_TMPDIR/build"
  ) >/dev/null 2>&1 || true
  # The key that seals make grade's results (made on its first use): read-solutions-at-run-time tries it.
  /usr/bin/python3 -I "$WB_ROOT/grader/class/seal.py" key "$WB_ROOT/build/keys/results.key" || true
  # What must not change: every file of the repository but the grader's own outputs, and git's.
  fingerprint >"$BATS_FILE_TMPDIR/before"
}

setup() {
  load lib/helpers
  [ -z "${HOSTILE_SKIP:-}" ] || skip "$HOSTILE_SKIP"
  MARK=hostile-$BATS_TEST_NUMBER-$$
}

teardown() {
  # Whatever a case managed to leave, it must not outlive this test.
  pkill -KILL -f "$BATS_TEST_TMPDIR" 2>/dev/null || true
  rm -f "$WB_ROOT/$MARK" "/tmp/$MARK" /dev/shm/"$MARK"* 2>/dev/null || true
}

# What the case printed in every run the grader made of it (the report shows little of it), as run
# output: what it managed to do is read here.
case_printed() {
  run cat "$BATS_TEST_TMPDIR"/work/01-allocation/runs/*/stdout
  [ -n "$output" ] || fail "the case printed nothing in any run: it did not run"
}

# The checks every case must pass, after hostile NAME graded it.
expect_contained() {
  assert_equal "$HOSTILE_STATUS" done
  [ -z "$(pgrep -f "$BATS_TEST_TMPDIR/work" || true)" ] || fail "processes of the case are still running: $(pgrep -af "$BATS_TEST_TMPDIR/work")"
  fingerprint >"$BATS_TEST_TMPDIR/after"
  diff "$BATS_FILE_TMPDIR/before" "$BATS_TEST_TMPDIR/after" >&2 || fail "the repository changed"
  [ ! -e "$WB_ROOT/$MARK" ] && [ ! -e "/tmp/$MARK" ] || fail "the case created a file outside its sandbox"
  [ -z "$(ls /dev/shm/ 2>/dev/null | grep -F "$MARK" || true)" ] || fail "the case left files in /dev/shm"
  # Where runs get cgroups (WB_CGROUP_BASE), none is left behind.
  [ -z "${WB_CGROUP_BASE:-}" ] || [ -z "$(find "$WB_CGROUP_BASE" -maxdepth 1 -name 'cudawb-*')" ] ||
    fail "cgroups of runs are left: $(find "$WB_CGROUP_BASE" -maxdepth 1 -name 'cudawb-*' -exec cat {}/cgroup.events \;)"
  refute_output --partial "step 99"
  refute_output --partial "forged"
  # One result per step of lesson 01, no more.
  assert_equal "$(cut -f1 "$RESULTS" | tr '\n' ' ')" "1 2 3 4 5 6 7 8 "
}

@test "root inside the sandbox cannot remount or write the repository" {
  hostile remount-and-write-repo
  expect_contained
  case_printed
  assert_output --partial "remount: -1"
  refute_output --partial "wrote the"
}

@test "forged TAP lines on inherited descriptors do not reach the report" {
  hostile forge-on-inherited-fds
  expect_contained
  assert_equal "$(awk -F '\t' '$2 == "passed"' "$RESULTS" | wc -l)" 1
  # Under compute-sanitizer (the memory-checker run on a GPU) the program has the sanitizer's own
  # descriptors, opened inside the sandbox: writing there reaches no report (checked above).
  run bash -c 'for d in "$1"/work/01-allocation/runs/*/; do [ "${d%/}" = "$1/work/01-allocation/runs/memcheck" ] || cat "$d/stdout"; done' _ "$BATS_TEST_TMPDIR"
  assert_output --partial "tried every descriptor"
  refute_output --partial "wrote on fd"
}

@test "a report of CUDA calls edited by the program itself is not believed (its seal gives it away)" {
  hostile edit-the-trace solutions/01-allocation/alloc.cu '    cudaFree(d_data);'
  expect_contained
  # Nothing the program did is believed: it earns the compile step alone, and the report says why.
  assert_output --partial "the grader's library did not write"
  assert_equal "$(awk -F '\t' '$2 == "passed"' "$RESULTS" | wc -l)" 1
  case_printed
  assert_output --partial "edited the report"
  # Its constructor runs before the trace's: the key was already taken and overwritten.
  assert_output --partial "key seen: no"
  refute_output --partial "key seen: yes"
}

@test "the trace's own functions cannot be called: with the policy off, a call to them does not link" {
  hostile call-the-trace solutions/01-allocation/alloc.cu "(no line taken out)"
  expect_contained
  assert_equal "$(cat "$BATS_TEST_TMPDIR/work/01-allocation/build/status")" link-error
  assert_output --partial "undefined reference to"
  assert_output --partial "tr_begin"
  assert_equal "$(awk -F '\t' '$2 == "passed"' "$RESULTS" | wc -l)" 0
  [ ! -d "$BATS_TEST_TMPDIR/work/01-allocation/runs" ] || fail "the program ran"
}

@test "the seal's key is in no command line, environment, file, descriptor or readable memory of the program" {
  hostile steal-the-key solutions/01-allocation/alloc.cu '    cudaFree(d_data);'
  expect_contained
  local failed
  failed=$(awk -F '\t' '$2 == "failed" { printf "%s ", $1 }' "$RESULTS")
  run cat "$BATS_TEST_TMPDIR"/work/01-allocation/runs/*/stderr
  assert_output --partial "scanner sees a planted key: yes"
  assert_output --partial "key found: no"
  refute_output --partial "key found: yes"
  refute_output --partial "no seal to test"
  refute_output --partial "cut short"
  # It earns what the same leak earns without the search: the search changed nothing.
  hostile plain-leak solutions/01-allocation/alloc.cu '    cudaFree(d_data);'
  assert_equal "$failed" "$(awk -F '\t' '$2 == "failed" { printf "%s ", $1 }' "$RESULTS")"
  [ -n "$failed" ] || fail "the leak failed no step"
}

@test "a #line file name with newlines adds no record to the report: the leak is still seen" {
  hostile line-directive-injection
  expect_contained
  run grep -c '^call ' "$BATS_TEST_TMPDIR/work/01-allocation/runs/run/report"
  assert_output 1
  run grep -E '^(live 0 0|call n=2 fn=cudaFree)' "$BATS_TEST_TMPDIR/work/01-allocation/runs/run/report"
  assert_failure
  [ "$(awk -F '\t' '$1 == 6 { print $2 }' "$RESULTS")" = failed ] || fail "the leak step passed: $(cat "$RESULTS")"
}

@test "a rewritten status file is neither believed nor run" {
  hostile rewrite-run-status
  expect_contained
  assert_output --partial "exited with status 3"
}

@test "a double-forked, setsid child does not outlive the run" {
  hostile setsid-survivor
  expect_contained
  sleep 1
  [ -z "$(pgrep -f "$BATS_TEST_TMPDIR" || true)" ]
}

@test "a fork storm is stopped by the process limit, and killed with the run" {
  hostile fork-storm
  expect_contained
}

@test "no /dev/tty, no keystrokes pushed into the student's shell" {
  hostile tty-and-tiocsti
  expect_contained
  grep -qx "open /dev/tty: -1" "$BATS_TEST_TMPDIR/work/01-allocation/runs/run/stdout"
}

@test "escape sequences and carriage returns are shown, not obeyed" {
  hostile escape-sequences
  expect_contained
  refute_output --partial $'\e'
  refute_output --partial $'\r'
  assert_output --partial '\e[2J\e[Herror: cudaMalloc'
  assert_output --partial '\r\e[32mPASS'
}

@test "the compiler cannot include the reference solution through kernels/.." {
  hostile include-the-solution
  expect_contained
  assert_output --regexp "step 1 .*|compile"
  assert_equal "$(cat "$BATS_TEST_TMPDIR/work/01-allocation/build/status")" compile-error
}

@test "the compiler cannot include the reference solution by its path" {
  hostile include-the-solution-by-path
  expect_contained
  assert_equal "$(cat "$BATS_TEST_TMPDIR/work/01-allocation/build/status")" compile-error
}

@test "the compiler cannot read /etc/shadow or /etc/passwd into its messages" {
  hostile include-etc-shadow
  expect_contained
  refute_output --partial "root:"
  assert_equal "$(cat "$BATS_TEST_TMPDIR/work/01-allocation/build/status")" compile-error
}

@test "an #include of an endless file stops at the compiler's memory limit" {
  hostile include-dev-zero
  expect_contained
  assert_equal "$(cat "$BATS_TEST_TMPDIR/work/01-allocation/build/status")" compile-error
  assert_output --regexp "out of memory|memory exhausted"
}

@test "the running program cannot read the solutions, the grader, the results' key or the system's secrets" {
  hostile read-solutions-at-run-time
  expect_contained
  case_printed
  refute_output --partial "READ "
}

@test "the network is closed" {
  hostile network
  expect_contained
  case_printed
  refute_output --partial "CONNECTED"
  refute_output --partial "SENT"
}

@test "a memory hog is stopped by the heap limit" {
  WB_MEMORY_MB=512 hostile memory-hog
  expect_contained
  case_printed
  assert_output --regexp "took ([0-9]|[1-9][0-9]|[1-4][0-9][0-9]|50[0-9]|51[0-2]) MiB"
}

@test "shared memory, which the heap limit misses, is stopped by the run's cgroup" {
  local group
  . "$WB_ROOT/grader/lib/sandbox.sh"
  WB_MEMORY_MB=512 WB_MAX_PROCS=256 sandbox_cgroup_open group ||
    skip "no cgroup v2 with the memory controller that the grader may use here: only RLIMIT_DATA limits memory"
  sandbox_cgroup_close "$group"
  WB_MEMORY_MB=512 hostile shared-memory-hog
  expect_contained
  case_printed
  refute_output --regexp "took ([6-9][0-9]{2}|[0-9]{4,}) MiB"
  run cat "$BATS_TEST_TMPDIR"/work/01-allocation/runs/*/status
  assert_output --partial "used more than 512 MiB of host memory"
}

@test "writing gigabytes stops at the scratch folders' size and leaves nothing behind" {
  hostile disk-fill
  expect_contained
  case_printed
  assert_output --regexp "/tmp: [0-9]+ MiB"
  refute_output --regexp "(\.|/tmp|/dev/shm): ([3-9][0-9]{2}|[0-9]{4,}) MiB"
}

@test "an infinite loop in main is stopped at the time limit, with the line it was at" {
  hostile infinite-loop-in-main
  expect_contained
  assert_output --regexp "timed out after [0-9]+ s and was stopped"
  assert_output --regexp "it was at alloc.cu:[0-9]+ when it was stopped"
}

@test "an infinite loop in a kernel is stopped at the time limit" {
  hostile infinite-loop-in-kernel
  expect_contained
  assert_output --regexp "timed out after [0-9]+ s and was stopped"
}

@test "a program that waits on stdin gets end of file" {
  hostile waits-on-stdin
  expect_contained
  refute_output --partial "timed out"
}

@test "a flood of output is capped" {
  hostile output-flood
  expect_contained
  assert_output --partial "printed more than 1024 KiB and was stopped"
}

@test "a crash is one verdict" {
  hostile crash
  expect_contained
  assert_output --partial "was killed by SIGSEGV"
}

@test "an abort is one verdict" {
  hostile abort
  expect_contained
  assert_output --partial "was killed by SIGABRT"
}

@test "a crash inside a CUDA call is recorded at that call: its name, its line and its arguments" {
  hostile crash-inside-a-copy
  expect_contained
  assert_output --partial "was killed by SIGSEGV"
  run awk -F '\t' '$2 == "signal" { print $5, $7 }' "$BATS_TEST_TMPDIR"/work/01-allocation/runs/*/calls.tsv
  assert_output --partial "alloc.cu:11 sig=SIGSEGV addr=host during=cudaMemcpy dst=host src=alloc#1 bytes=4096"
}

@test "a sticky GPU error is one verdict" {
  hostile sticky-gpu-error
  expect_contained
}

@test "a program that kills its own time limit is stopped with the sandbox" {
  hostile kill-the-time-limit
  expect_contained
  assert_output --regexp "timed out after [0-9]+ s and was stopped|was killed by SIGKILL"
}

@test "no process in the sandbox shows the grader's settings, failure sweep included" {
  hostile environment-snooping
  expect_contained
  [ -d "$BATS_TEST_TMPDIR/work/01-allocation/runs/sweep-2" ] || fail "the failure sweep did not run the case"
  # The memory checker is the program's parent and carries its settings, as it would show itself in
  # /proc anyway: that run is told apart by design. No other run shows anything.
  run bash -c 'for f in "$1"/*/stdout; do [[ $f == */memcheck/* ]] || cat "$f"; done' _ "$BATS_TEST_TMPDIR/work/01-allocation/runs"
  assert_output --partial "tried every process"
  refute_output --partial "SAW "
}

@test "on the CPU backend a program run under the memory checker sees the same environment and pointers as plainly" {
  # tests/gpu/verify-watched.sh: names of the environment's variables, arguments, descriptors, the spacing and
  # alignment of cudaMalloc's and malloc's addresses, compared. (Its parent process differs, which lesson code
  # cannot ask for: getppid and /proc are refused by the policy.)
  run env VW_BACKEND=cpu "$WB_ROOT/tests/gpu/verify-watched.sh" "$BATS_TEST_TMPDIR/watched"
  assert_success
  assert_output "no difference"
}

# Every case above runs with the policy off (ALLOW=all), to show that the sandbox holds by itself. Without it,
# the policy on lesson code (grader/policy/) refuses these before they run: they earn nothing, step 1 says which
# construct on which line, and nothing of theirs runs.
@test "without ALLOW, the policy refuses the cases that use what lesson code does not, before they run" {
  local name construct wrong=""
  while read -r name construct; do
    if [ "$name" = edit-the-trace ] || [ "$name" = steal-the-key ]; then
      HOSTILE_ALLOW="" hostile "$name" solutions/01-allocation/alloc.cu '    cudaFree(d_data);'
    else
      HOSTILE_ALLOW="" hostile "$name"
    fi
    expect_contained
    [ "$(cat "$BATS_TEST_TMPDIR/work/01-allocation/build/status")" = policy ] &&
      [[ $output == *"policy: "*"$construct"*" at alloc.cu:"*"ALLOW=$construct"* ]] &&
      [ "$(awk -F '\t' '$2 == "passed"' "$RESULTS" | wc -l)" = 0 ] &&
      [ ! -d "$BATS_TEST_TMPDIR/work/01-allocation/runs" ] ||
      wrong="$wrong"$'\n'"$name: expected refused for $construct, got $(cat "$BATS_TEST_TMPDIR/work/01-allocation/build/status")"
  done <<'CASES'
attack-classmates fopen
disk-fill fopen
edit-the-trace constructor
environment-snooping opendir
forge-on-inherited-fds write
fork-storm fork
kill-the-time-limit opendir
line-directive-injection line
network socket
read-solutions-at-run-time fopen
remount-and-write-repo mount
rewrite-run-status readlink
setsid-survivor fork
shared-memory-hog mmap
steal-the-key constructor
tty-and-tiocsti open
waits-on-stdin fgets
CASES
  [ -z "$wrong" ] || fail "$wrong"
}

@test "a link in place of the source file is refused, not followed" {
  local dir
  dir=$BATS_TEST_TMPDIR/submission
  mkdir -p "$dir/01-allocation"
  ln -s "$WB_ROOT/solutions/01-allocation/alloc.cu" "$dir/01-allocation/alloc.cu"
  grade 01-allocation "$dir"
  assert_failure
  assert_output --partial "is not a plain file"
  assert_equal "$(awk -F '\t' '$2 == "passed"' "$RESULTS" | wc -l)" 0
}

@test "a folder's name is data: quotes, #, \$( ) and a sed command in it run nothing" {
  local dir
  dir="$BATS_TEST_TMPDIR/a'b\"c #e touch $WB_ROOT/PWNED-\$(id -u) #\`x\`"
  mkdir -p "$dir/01-allocation"
  printf 'int main(void) { return missing; }\n' >"$dir/01-allocation/alloc.cu"
  grade 01-allocation "$dir"
  assert_failure
  [ ! -e "$WB_ROOT/PWNED-0" ] && [ ! -e "$WB_ROOT/PWNED-\$(id -u)" ] || fail "a command in the folder's name ran"
  assert_output --partial "missing"
  assert_output --partial "#e touch"
}

@test "make grade over a class with hostile students gives everyone else their honest score" {
  require_solutions
  local repo class=$BATS_TEST_TMPDIR/class name
  repo=$(repo_copy)
  mkdir -p "$class/alice" "$class/bob"
  cp -R "$WB_ROOT/solutions/01-allocation" "$class/alice/"
  cp -R "$WB_ROOT/exercises/01-allocation" "$class/bob/"
  for name in attack-classmates remount-and-write-repo forge-on-inherited-fds setsid-survivor; do
    mkdir -p "$class/$name/01-allocation"
    hostile_source "$name" "$repo" "$class/$name/01-allocation/alloc.cu"
  done
  # The policy off, as for every case here: the attacks must run to show that the sandbox holds.
  WB_TIMEOUT=3 run timeout 900 make -s -C "$repo" grade CLASS="$class" LESSON=1 ALLOW=all
  assert_success
  assert_output --regexp "alice +17 / 17"
  assert_output --regexp "bob +1 / 17"
  assert_file_contains "$repo/build/class/class/latest/scores.csv" "^alice,01-allocation,8,[^,]*,passed,3,3,"
  cmp "$WB_ROOT/solutions/01-allocation/alloc.cu" "$class/alice/01-allocation/alloc.cu"
  [ -z "$(grep -l WROTE "$repo"/build/class/class/latest/*/report.txt || true)" ] || fail "a student wrote into another's files"
  [ -z "$(pgrep -f "$BATS_TEST_TMPDIR" || true)" ] || fail "processes of the class are still running"
  [ ! -e "$repo/$MARK" ] || fail "a student created a file in the repository"
}

