# Helpers for the lesson graders (grader/NN-slug.bats): build once, run the student's program safely,
# compare what it printed, read the leak report, sweep the out-of-memory contract, run the memory checker.
# Every check that fails explains three things: what was expected, what happened, the usual cause.

# shellcheck shell=bash
# Bats's DEBUG trap records a stack trace before every command a step runs: 50 times a command's own cost,
# and most of a grading's time. Our failures explain themselves (what was expected, what happened, the
# usual cause), and report.sh drops Bats's stack trace lines, so the steps run without it. Dropped here,
# first: loading the libraries below under it took as long as a short step.
trap - DEBUG
WB_ROOT=${WB_ROOT:-$(cd "$BATS_TEST_DIRNAME/.." && pwd)}
WB_BUILD=${WB_BUILD:-$WB_ROOT/build}
# shellcheck source=grader/lib/build.sh
. "$WB_ROOT/grader/lib/build.sh"
# shellcheck source=grader/lib/backend.sh
. "$WB_ROOT/grader/lib/backend.sh"
# shellcheck source=grader/lib/trace.bash
. "$WB_ROOT/grader/lib/trace.bash"
# shellcheck source=grader/lib/gpu-turns.sh
. "$WB_ROOT/grader/lib/gpu-turns.sh"
# Bats's helper libraries, their sources read directly where BATS_LIB_PATH holds them: each library's
# load.bash forks a dirname per file it sources, some twenty forks for every step of every grading.
wb_load_bats_libraries() {
  local lib dir p f
  for lib in bats-support bats-assert bats-file; do
    dir=""
    for p in ${BATS_LIB_PATH//:/ }; do
      [ -f "$p/$lib/load.bash" ] && [ -d "$p/$lib/src" ] && { dir=$p/$lib; break; }
    done
    if [ -z "$dir" ]; then bats_load_library "$lib"; continue; fi
    for f in "$dir"/src/*.bash; do
      # shellcheck source=/dev/null
      source "$f"
    done
  done
}
wb_load_bats_libraries

WB_LESSON=${WB_LESSON:-$(basename "$BATS_TEST_FILENAME" .bats)}
WB_TIMEOUT=${WB_TIMEOUT:-20}           # seconds one run of the student's program may take
# On the CPU backend that limit is CPU time: WB_TIMEOUT seconds on each core its kernels run on, whatever
# else the machine runs, so that a loaded machine cannot turn a pass into a time-out; the wall clock stops
# the program at WB_CPU_WALL_FACTOR times the limit (a program that waits, or a host loop on one core).
WB_CPU_WALL_FACTOR=${WB_CPU_WALL_FACTOR:-2}
WB_CPU_CORES=${CUDAWB_CPU_THREADS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
WB_OUTPUT_CAP_KB=${WB_OUTPUT_CAP_KB:-1024} # what it may write, per file, before it is stopped
WB_MEMORY_MB=${WB_MEMORY_MB:-4096}      # its heap (RLIMIT_DATA)
WB_MAX_PROCS=${WB_MAX_PROCS:-256}       # its processes and threads, in the sandbox (RLIMIT_NPROC)
WB_SWEEP_MAX=${WB_SWEEP_MAX:-64}       # call sites the failure sweep tries at most, per mode
WB_SANITIZER_EXIT=86                   # compute-sanitizer's exit status when it found errors

# WB_WORK: the folder this grading works in (build outputs, program runs, the snapshot of expected/), set
# by whoever loads this file (check.sh). Read as a variable, not through a function: a $(...) is a fork,
# and a grading reads it thousands of times.

# --- once per lesson: build, and snapshot the expected outputs ------------------------------------

lesson_setup_file() {
  local work
  work=$WB_WORK
  [ -n "${WB_BACKEND:-}" ] || backend_choose "${BACKEND:-auto}"
  mkdir -p "$work"
  # The program runs only after this copy is taken, so it cannot change what it is compared with.
  rm -rf "$work/expected"
  # Fixed outputs only (the H200's answers to a probe): every other expected line is computed at grading.
  [ ! -d "$WB_ROOT/grader/$WB_LESSON/expected" ] || cp -R "$WB_ROOT/grader/$WB_LESSON/expected" "$work/expected"
  local start
  start=$(date +%s%N)
  build_program "$WB_LESSON" "${WB_SUBMISSION:-$WB_ROOT/exercises}/$WB_LESSON" "$work/build" || true
  echo "$(( ($(date +%s%N) - start) / 1000000 ))" >"$work/build/elapsed-ms" # grader/bench/grading-time.sh
}

expected_file() { printf '%s\n' "$WB_WORK/expected/$1"; }

# chosen_n: the size of a lesson's graded run, chosen once when grading starts (1001 to WB_CHOSEN_MAX+1000,
# default 2000000; WB_SEED fixes it), so that no printed line can be written in advance: every expected
# line is computed from it, and checked against the trace.
chosen_n() {
  local file
  file=$WB_WORK/chosen-n
  [ -s "$file" ] || echo $(( (${WB_SEED:-$RANDOM$RANDOM} % ${WB_CHOSEN_MAX:-2000000}) + 1001 )) >"$file"
  cat "$file"
}

# provenance_run NAME TYPE ARGS...: the program run again as the provenance run (grader/shim/provenance.c):
# every copy that brings device data to the host multiplies what it brought, elements of TYPE (f32, f64, i32,
# i64), by 2, 8 or 32, drawn per copy from a seed drawn per grading (WB_SEED fixes it); the copy's record
# says by what (scale=F). Results printed from the device's data then change as the grader predicts;
# results computed on the host behind a decoy copy do not.
provenance_run() {
  local name=$1 type=$2
  shift 2
  run_program --name "$name" --env "CUDAWB_PROVENANCE=$type:$(provenance_seed)" -- "$@"
}

# provenance_seed: the provenance run's seed, drawn once per grading (WB_SEED fixes it).
provenance_seed() {
  local file
  file=$WB_WORK/provenance-seed
  [ -s "$file" ] || echo $(( ${WB_SEED:-$RANDOM$RANDOM} * 7 + 3 )) >"$file"
  cat "$file"
}

# expect_provenance LINE WHAT: the provenance run printed LINE, the results as the grader predicts them once
# the copies WHAT were scaled.
expect_provenance() {
  local got
  grep -qxF -- "$1" "$RUN_DIR/stdout" && return 0
  got=$(grep -m1 -F -- "${1%%: *}" "$RUN_DIR/stdout" || true)
  fail "$(printf 'expected: the printed results follow the data the GPU computed. In a run where the grader multiplied
%s on its way to the host, the line
    %s
printed:  %s
usual cause: the results printed are computed on the host, or read from memory the copy back does not fill' \
    "$2" "$1" "${got:-(no such line; the program $RUN_HOW)}")"
}

# drawn NAME LO HI: a whole number from LO to HI, drawn once per grading for NAME (the same in every step
# that asks; WB_SEED fixes it, as it fixes chosen_n). Half the draws are log-uniform, so that small values
# are tried as often as large ones, and an eighth each are LO and HI themselves: the edges of a range
# are where a program written for the middle fails. For the sizes, options and budgets a run is given, so
# that no behaviour can depend on a fixed setup.
drawn() {
  local file lo=$2 hi=$3 seed
  file=$WB_WORK/drawn-$1
  if [ ! -s "$file" ]; then
    seed=${WB_SEED:-$RANDOM$RANDOM}
    awk -v seed="$seed" -v name="$1" -v lo="$lo" -v hi="$hi" 'BEGIN {
      for (i = 1; i <= length(name); i++) seed = (seed * 31 + index("abcdefghijklmnopqrstuvwxyz0123456789-_", substr(name, i, 1))) % 2147483647
      srand(seed); pick = rand()
      if (pick < 0.125) v = lo
      else if (pick < 0.25) v = hi
      else if (pick < 0.75) v = int(exp(log(lo > 0 ? lo : 1) + rand() * (log(hi) - log(lo > 0 ? lo : 1))) + 0.5)
      else v = lo + int(rand() * (hi - lo + 1))
      if (v < lo) v = lo; if (v > hi) v = hi
      printf "%d\n", v }' >"$file"
  fi
  cat "$file"
}

# drawn_prime NAME LO HI: the smallest prime at or above drawn NAME LO HI. For a run that checks bounds (the
# memory checker's): no block size, chunk count or tile divides a prime, so every kernel and copy of the
# program, however it cuts the data, has a ragged end to run past.
drawn_prime() {
  awk -v n="$(drawn "$1" "$2" "$3")" 'BEGIN {
    if (n < 2) n = 2
    for (;; n++) { for (d = 2; d * d <= n && n % d; d++); if (d * d > n) { print n; exit } } }'
}

# expect_printed LINE CAUSE: the last run printed LINE (computed by the grader), exactly.
expect_printed() {
  local got
  grep -qxF -- "$1" "$RUN_DIR/stdout" && return 0
  got=$(grep -m1 -F -- "${1%%: *}" "$RUN_DIR/stdout" || true)
  fail "$(printf 'expected: %s\nprinted:  %s\nusual cause: %s' "$1" "${got:-(no such line; the program $RUN_HOW)}" "$2")"
}
# The program the runs use: the build made when grading started, or WB_ALT_BUILD's, another build of the
# same sources that a step made itself (lesson 00 builds them again with other nvcc flags).
# program_get VAR sets VAR to it without the fork of a $(program) (run_program and trace_table, every run).
# shellcheck disable=SC2034 # pg_out is the caller's variable
program_get() { local -n pg_out=$1; pg_out=$WB_WORK/build${WB_ALT_BUILD:+/$WB_ALT_BUILD}/program; }
program() { local p; program_get p; printf '%s\n' "$p"; }

# Skips the step when the program did not build (step 1 is the one that fails: one mistake, one step), or
# when nothing here can run CUDA code.
require_program() {
  local status
  status=$(cat "$WB_WORK/build/status" 2>/dev/null || echo missing)
  [ "$status" = ok ] || skip "needs step 1 first: the program did not build ($status; step 1 shows why)"
  [ "$WB_BACKEND" != none ] || skip "cannot run here: ${WB_SKIP_WHY:-$WB_BACKEND_WHY}"
}

# --- running the student's program ---------------------------------------------------------------


# run_program [--name NAME] [--env K=V]... [--sanitize] [--alone] [--] ARGS...
# Runs the program (or the memory checker on it) in the sandbox (lib/sandbox.sh) with a time limit and
# limits on output, memory, processes and CPU time; its results go to RUN_DIR=$WB_WORK/runs/NAME, which
# the program cannot write: it writes its stdout and stderr there through descriptors the grader opened,
# its report through one bound file, and anything else into a private scratch folder that is gone
# after the run. Sets RUN_DIR, RUN_STATUS (exit status), RUN_HOW (a phrase: "exited with status 1", "was
# killed by SIGSEGV", ...) and RUN_NORMAL (1 when it exited by itself, without a signal, a time-out or too
# much output). A run with the same NAME is reused within one grading, so steps that read the same run
# share it. On a GPU, --alone runs it while no other grading's program runs (lib/gpu-turns.sh): a run that is
# timed, or that fills device memory (a CUDAWB_*LEAVE_FREE_MB setting), which every other run shares.
run_program() {
  local name=default sanitize=0 envs=() cmd=() keep=() start elapsed cap_bytes report home boxed sandbox=() nproc=()
  local cgroup="" oom="" key turn=shared prog
  while [ $# -gt 0 ]; do
    case $1 in
      --name) name=$2; shift 2 ;;
      --env) envs+=("$2"); [[ $2 != CUDAWB_*LEAVE_FREE_MB=* ]] || turn=alone; shift 2 ;;
      --sanitize) sanitize=1; shift ;;
      --alone) turn=alone; shift ;;
      --) shift; break ;;
      *) break ;;
    esac
  done
  RUN_DIR=$WB_WORK/runs/$name
  if [ -f "$RUN_DIR/status" ]; then
    run_status_load "$RUN_DIR/status"
    expect_sealed
    return 0
  fi
  # Forks are the cost of a run here (each ~5 ms on a 2-core machine, some forty after every run of a
  # sweep): none that a builtin or a test can spare.
  [ ! -e "$RUN_DIR" ] || rm -rf "$RUN_DIR"
  # shellcheck disable=SC2174 # the mode is the run's folder's, the one the sandbox must reach
  mkdir -p -m 755 "$RUN_DIR" && sandbox_reached "$RUN_DIR"
  : >"$RUN_DIR/report"
  # How it was run, for run_again: the settings and the arguments, NUL-separated.
  { [ ${#envs[@]} = 0 ] || printf '%s\0' "${envs[@]}"; } >"$RUN_DIR/envs"
  { [ $# = 0 ] || printf '%s\0' "$@"; } >"$RUN_DIR/args"
  [ "$sanitize" = 0 ] || : >"$RUN_DIR/sanitized"
  [ "$turn" = shared ] || : >"$RUN_DIR/alone"
  program_get prog
  cmd=("$prog" "$@")
  # Under the memory checker, launches are traced without their arguments: finding how many a kernel has
  # can take a failing driver call, which compute-sanitizer reports (measured on the H200).
  [ "$sanitize" = 1 ] && envs+=(CUDAWB_NO_KERNEL_ARGS=1)
  [ "$sanitize" = 1 ] && cmd=("$WB_SANITIZER" --tool memcheck --error-exitcode "$WB_SANITIZER_EXIT" "${cmd[@]}")
  boxed=0 report=$RUN_DIR/report home=$RUN_DIR/scratch
  if sandbox_available; then boxed=1 report=/wb/report home=/wb/run; fi
  # The grader's settings reach the program alone (env runs it): no process beside it in the sandbox has
  # them, so none can show them in /proc/PID/environ. On the CPU backend independent streams run
  # latest-issued first (a --env may choose another schedule): a GPU runs them side by side.
  # A fresh key seals the report (grader/shim/seal.h): a report the program wrote itself is not believed.
  # The key is in no command line and no environment: a file in the program's scratch folder holds it,
  # which the trace reads and removes before any of the program's code runs (CUDAWB_REPORT_KEY_FILE names
  # it). In the sandbox bubblewrap makes that file from a pipe (descriptor 3), which is empty once read.
  # 256 bits from the kernel's random source (SRANDOM is getrandom(2)), without a fork.
  printf -v key '%08x' "$SRANDOM" "$SRANDOM" "$SRANDOM" "$SRANDOM" "$SRANDOM" "$SRANDOM" "$SRANDOM" "$SRANDOM"
  cmd=(env CUDAWB_SCHEDULE=reverse "${envs[@]}" CUDAWB_REPORT="$report" CUDAWB_REPORT_KEY_FILE="$home/.report-key" "${cmd[@]}")
  # The time limit runs inside, so that its SIGTERM reaches the program (whose report then says where it
  # was); the one outside stops a sandbox whose program killed its own time limit.
  local wall=$WB_TIMEOUT cpu_seconds=$((WB_TIMEOUT * 4))
  if [ "$WB_BACKEND" = cpu ]; then wall=$((WB_TIMEOUT * WB_CPU_WALL_FACTOR)) cpu_seconds=$((WB_TIMEOUT * WB_CPU_CORES)); fi
  cmd=(timeout --kill-after=3 "$wall" "${cmd[@]}")
  if [ "$boxed" = 1 ]; then
    sandbox_own "$RUN_DIR/report"
    # Processes and threads, counted inside the sandbox's user namespace: a fork storm stops there.
    command -v prlimit >/dev/null 2>&1 && nproc=(prlimit --nproc="$WB_MAX_PROCS" --)
    sandbox_command sandbox --ro "$WB_WORK/build" --ro "$WB_ROOT/cpu/bin" --bind "$RUN_DIR/report" "$report" \
      --scratch "$home" --file 3 "$home/.report-key" --chdir "$home" -- "${nproc[@]}"
  else
    # No sandbox (WB_NO_SANDBOX, or no bubblewrap: check.sh said so): a scratch folder of its own at least.
    mkdir -p "$home"
    (umask 077 && printf '%s' "$key" >"$home/.report-key")
  fi
  # Where the machine has one, a cgroup of its own: a memory limit on all it touches, and its end.
  if [ "$boxed" = 1 ]; then sandbox_cgroup_open cgroup || true; fi
  [ "$WB_BACKEND" != gpu ] || gpu_turn_take "$turn" # before the clock starts: waiting is not the program's time
  start=${EPOCHREALTIME//[!0-9]/} # microseconds
  (
    [ -z "$cgroup" ] || echo "$BASHPID" >"$cgroup/cgroup.procs" || exit 1
    if [ "$boxed" = 1 ]; then cd "$RUN_DIR" || exit 1; else cd "$home" || exit 1; fi
    ulimit -f "$WB_OUTPUT_CAP_KB"           # a file grows past this: the writer gets SIGXFSZ
    ulimit -d "$((WB_MEMORY_MB * 1024))"    # heap: RLIMIT_AS would break CUDA (facts/gpu-facts.md "Sandboxing")
    # CPU seconds, all threads together: SIGXCPU at the soft limit (the trace reports where the program was),
    # SIGKILL 3 s later
    ulimit -S -t "$cpu_seconds" && ulimit -H -t "$((cpu_seconds + 3))"
    # Only stdin, stdout and stderr reach the program: Bats's report stream (fd 3) and the rest are closed.
    for fd in "/proc/$BASHPID/fd"/*; do
      fd=${fd##*/}
      [[ $fd =~ ^[0-9]+$ ]] && [ "$fd" -gt 2 ] && eval "exec $fd>&-"
    done
    # The key's pipe, for bubblewrap's --file 3 (without the sandbox the file is written above).
    if [ "$boxed" = 1 ]; then exec 3<<<"$key"; fi
    # A clean environment: the program learns nothing about the grader (paths, settings) from it.
    for v in ${!LD_LIBRARY_PATH*} ${!CUDA_*} ${!NVIDIA_*} ${!CUDAWB_CPU_*}; do
      [[ $v =~ ^(LD_LIBRARY_PATH|CUDA_[A-Z_]*|NVIDIA_[A-Z_]*|CUDAWB_CPU_[A-Z_]*)$ && ${!v@a} == *x* ]] && keep+=("$v=${!v}")
    done
    exec env -i PATH="$PATH" HOME="$home" "${keep[@]}" timeout --kill-after=2 "$((wall + 10))" "${sandbox[@]}" "${cmd[@]}" </dev/null >"$RUN_DIR/stdout" 2>"$RUN_DIR/stderr"
  ) && RUN_STATUS=0 || RUN_STATUS=$?
  elapsed=$(( ${EPOCHREALTIME//[!0-9]/} - start ))
  gpu_turn_give
  # read and removed by the trace, unless the program never started (in the sandbox it was on its tmpfs)
  [ "$boxed" = 1 ] || rm -f "$home/.report-key"
  [ -z "$cgroup" ] || oom=$(sandbox_cgroup_close "$cgroup")
  echo "$((elapsed / 1000))" >"$RUN_DIR/elapsed-ms" # read by grader/bench/run.sh
  elapsed=$((elapsed / 1000000))
  cap_bytes=$((WB_OUTPUT_CAP_KB * 1024))
  local sizes=()
  RUN_NORMAL=0
  if { [ "$RUN_STATUS" -eq 124 ] || [ "$RUN_STATUS" -eq 137 ]; } && [ "$elapsed" -ge "$wall" ]; then
    RUN_HOW="timed out after $wall s and was stopped"
    [ "$wall" = "$WB_TIMEOUT" ] || RUN_HOW="$RUN_HOW (the CPU backend's limit: $WB_TIMEOUT s of CPU time on each of the $WB_CPU_CORES cores it may use, or $wall s in all)"
  elif [ "$WB_BACKEND" = cpu ] && [ "$RUN_STATUS" -eq 152 ]; then
    RUN_HOW="timed out after $WB_TIMEOUT s and was stopped (the CPU backend counts CPU time, $WB_TIMEOUT s for each of the $WB_CPU_CORES cores it may use, so that a busy machine cannot cut a run short)"
  elif [ "$RUN_STATUS" -eq 153 ] || { stat -c %s "$RUN_DIR/stdout" "$RUN_DIR/stderr" >"$RUN_DIR/sizes" &&
    mapfile -t sizes <"$RUN_DIR/sizes" && { [ "${sizes[0]:-0}" -ge "$cap_bytes" ] || [ "${sizes[1]:-0}" -ge "$cap_bytes" ]; }; }; then
    RUN_HOW="printed more than $WB_OUTPUT_CAP_KB KiB and was stopped"
  elif [ -n "$oom" ]; then
    RUN_HOW="used more than $WB_MEMORY_MB MiB of host memory and was stopped"
  elif [ "$RUN_STATUS" -eq 152 ]; then
    RUN_HOW="used more than $((WB_TIMEOUT * 4)) s of CPU time and was stopped"
  elif [ "$RUN_STATUS" -gt 128 ]; then
    RUN_HOW="was killed by SIG$(kill -l $((RUN_STATUS - 128)) 2>/dev/null || echo "nal $((RUN_STATUS - 128))") (exit status $RUN_STATUS)"
  else
    RUN_NORMAL=1
    RUN_HOW="exited with status $RUN_STATUS"
  fi
  if ! seal_check "$RUN_DIR/report" "$key"; then
    RUN_NORMAL=0
    RUN_HOW="left a report of CUDA calls that the grader's library did not write (its seal is missing or wrong), so none of it is believed"
  fi
  printf '%s\n%s\n%s\n' "$RUN_STATUS" "$RUN_NORMAL" "$RUN_HOW" >"$RUN_DIR/status"
  expect_sealed
}

# expect_sealed: fails the step when the last run's report was not the trace's own (seal_check): every step
# reads what the program did from it, so none can be graded.
expect_sealed() {
  [ -e "$RUN_DIR/report.unsealed" ] || return 0
  fail "$(printf 'expected: the record of CUDA calls that the grader'"'"'s library writes at the end of the run\nhappened: the program %s\nusual cause: %s' "$RUN_HOW" "$(cause_of_run)")"
}

# seal_check REPORT KEY: true when REPORT is empty (the program died before writing it: it claims nothing)
# or ends with the seal our trace computes with KEY (grader/shim/seal.h), which is then removed. Otherwise
# the report is kept aside as report.unsealed, an empty one takes its place, and the check fails.
seal_check() {
  local report=$1 key=$2 last want n
  local -a rows
  [ -s "$report" ] || return 0
  # Read into the shell (mapfile: no fork): the seal is the last line, the record the lines before it, each
  # with its newline. A line the shell cannot hold (a NUL byte) changes the digest: not believed.
  mapfile -t rows <"$report"
  n=${#rows[@]}
  last=${rows[n - 1]}
  if [[ $last =~ ^seal\ [0-9a-f]{64}$ ]]; then
    # What the seal covers, written beside the report (outside every sandbox) by builtins, then one fork for
    # sha256sum; emptied after (it holds the run's key, of no use once the run is over).
    { printf '%s' "$key"; [ "$n" -lt 2 ] || printf '%s\n' "${rows[@]:0:n-1}"; printf '%s' "$key"; } >"$report.sealed"
    sha256sum <"$report.sealed" >"$report.digest"
    : >"$report.sealed"
    read -r want _ <"$report.digest"
    if [ "seal $want" = "$last" ]; then
      if [ "$n" -lt 2 ]; then : >"$report"; else printf '%s\n' "${rows[@]:0:n-1}" >"$report"; fi
      return 0
    fi
  fi
  mv -f "$report" "$report.unsealed" && : >"$report"
  return 1
}

# run_status_load FILE: a run's results as run_program saved them (three lines: status, normal, how),
# read as data: the grader never sources a file.
run_status_load() {
  { read -r RUN_STATUS; read -r RUN_NORMAL; read -r RUN_HOW; } <"$1"
  if ! [[ $RUN_STATUS =~ ^[0-9]+$ && $RUN_NORMAL =~ ^[01]$ ]]; then
    RUN_STATUS=1 RUN_NORMAL=0 RUN_HOW="left no readable status"
  fi
}

# The usual cause of an abnormal end, for the failure message.
# The trace's record of the signal that killed the last run, if one did.
signal_record() { calls fn=signal | tail -n 1; }

# Where a program killed by a signal was, from the trace's signal record: its line, and for a bad access
# the memory it touched, named after its allocation. Nothing when the trace does not know.
signal_where() {
  local rec addr alloc what
  rec=$(signal_record)
  [ -n "$rec" ] || return 0
  addr=$(call_field "$rec" addr)
  case $addr in
    alloc#*|managed#*|pinned#*|freed#*)
      alloc=$(calls --first "ptr=${addr%%+*}")
      [[ $addr == freed#* ]] && alloc=$(calls --first "ptr=alloc#${addr#freed#}")
      [[ $addr == freed#* ]] && what="memory already freed" || what="device memory"
      printf 'at %s, host code touched %s (%s%s), %s the host cannot use: copy it to host memory first' \
        "$(call_field "$rec" line)" "$addr" "$(call_field "$alloc" fn) of $(call_field "$alloc" bytes) bytes" \
        "$([ -n "$alloc" ] && printf ' at %s' "$(call_field "$alloc" line)")" "$what" ;;
    null) printf 'at %s, host code used a NULL pointer' "$(call_field "$rec" line)" ;;
  esac
}

# ", when it was stopped it was at FILE:LINE": the line of a signal's record that is not a bad access.
signal_line() {
  local rec
  rec=$(signal_record)
  [ -n "$rec" ] && [ "$(call_field "$rec" line)" != "?" ] && printf '; it was at %s when it was stopped' "$(call_field "$rec" line)"
  return 0
}

cause_of_run() {
  local where
  where=$(signal_where)
  [ -z "$where" ] || { printf '%s\n' "$where"; return; }
  case $RUN_HOW in
    *SIGSEGV*) echo "host code read or wrote through a device pointer, or a cudaMemcpy was given a host pointer that is not mapped (facts/gpu-facts.md: both die with SIGSEGV)" ;;
    *SIGABRT*) echo "a failed host assert, or a double free of host memory (free, not cudaFree)$(signal_line)" ;;
    *"timed out"*) echo "a loop that never ends, or a wait for something that never happens$(signal_line)" ;;
    *printed*) echo "printing inside a loop that runs far more often than intended" ;;
    *"did not write"*) echo "code that writes the grader's record of CUDA calls itself: the grade comes from the calls the program really makes" ;;
    *) if [ "$(report_total alloc-calls)" = "0" ] && grep -q 'invalid argument' "$RUN_DIR/stderr" 2>/dev/null; then
         echo "a CUDA call got a NULL device pointer: the program has not allocated anything yet (the allocation step comes first)"
       elif first_failed_call >/dev/null; then
         # Named by its place, so that a later step failing on the same code waits for this one (report.sh).
         local failed null
         failed=$(first_failed_call)
         null=$(cut -f7 <<<"$failed" | grep -oE '(^| )(dst|src|ptr|devPtr)=null( |$)' | head -n 1 | tr -d ' ')
         if [ -n "$null" ] && [ "$(call_field "$failed" status)" = 1 ]; then
           printf 'the first CUDA call that failed: %s, given a NULL pointer (%s): the buffer it names is not allocated yet (a TODO that allocates it), or its allocation failed unchecked\n' "$(call_site_text "$failed")" "$null"
         else
           printf 'the first CUDA call that failed: %s; the program'"'"'s own error message above says what it was for\n' "$(call_site_text "$failed")"
         fi
       elif [ -s "$RUN_DIR/stderr" ]; then
         echo "read the program's own error message above"
       else
         echo "no CUDA call failed and the program printed no error: an exit() or a return from main taken early"
       fi ;;
  esac
}

# first_failed_call: the last run's first CUDA or cuBLAS call that did not succeed (its record); 1 if none.
# The first, not the last: after a sticky error every call fails, the cleanup's too, and the first is where
# the error surfaced.
first_failed_call() {
  calls | awk -F '\t' '$2 ~ /^cu(da|blas)/ && $4 ~ /^[0-9]+$/ && $4 != 0 { print; found = 1; exit } END { exit !found }'
}

# Prints the first lines of a file, indented, for a failure message.
excerpt() {
  local file=$1 lines=${2:-12}
  [ -s "$file" ] || { echo "    (nothing)"; return; }
  head -n "$lines" "$file" | cut -c1-200 | sed 's/^/    /'
  [ "$(wc -l <"$file")" -le "$lines" ] || echo "    ... ($(($(wc -l <"$file") - lines)) more lines left out)"
}

# The last lines of a file, indented, saying when earlier ones are left out.
tail_excerpt() {
  local file=$1 lines=${2:-4} total
  [ -s "$file" ] || { echo "    (nothing)"; return; }
  total=$(wc -l <"$file")
  [ "$total" -le "$lines" ] || echo "    ... ($((total - lines)) earlier lines left out)"
  tail -n "$lines" "$file" | cut -c1-200 | sed 's/^/    /'
}

# Fails unless the last run exited by itself with STATUS (default 0).
expect_exit() {
  local want=${1:-0}
  [ "$RUN_NORMAL" = 1 ] && [ "$RUN_STATUS" -eq "$want" ] && return 0
  ended_badly "$want" "this step grades the same run, which $RUN_HOW"
  fail "$(printf 'expected: your program exits with status %s\nhappened: it %s; its stderr:\n%s%s\nusual cause: %s' \
    "$want" "$RUN_HOW" "$(excerpt "$RUN_DIR/stderr" 6)" \
    "$([ "$RUN_NORMAL" = 1 ] || printf '\nwhat it printed last, before it was stopped:\n%s' "$(tail_excerpt "$RUN_DIR/stdout" 4)")" \
    "$(cause_of_run)")"
}

# ended_badly WANT WHY [--only-after]: one mistake, one step. The first step of a grading to find that a run of
# the program did not end with status WANT says why (it fails, as its caller goes on to do); a later step
# whose run has the same arguments (the same run, or the same program run again as a sweep's count) is not
# graded on it: it is skipped, "needs the run to end first", WHY saying what it needed, and names the step
# that shows the ending. It does not say that step's work is wrong: the mistake may be in any step's code.
# --only-after: only skip, never record (the caller's failure is not about how the run ended).
# --record: only record, never skip, and only when the run did not end with WANT (a step failing on the run
# in a command substitution, where a skip would end only the subshell: lesson 01's data_buffer; a step that
# judged its own subject first and fails on it: its run's bad ending is then its to show).
# A lesson's CALL_STEPS ("cudaMemPrefetchAsync:4 cudaMemAdvise:5") says which step grades each of the calls
# the lesson teaches: a run that ended because such a call failed (its first failed call) is that step's
# finding. An earlier step that sees the ending is skipped, "needs step N first", and records step N as
# the one that shows it (a wrong argument to cudaMemAdvise is the advice step's mistake, not the results').
ended_badly() {
  local want=$1 why=$2 step first first_run failed owner="" explained
  step=${BATS_TEST_DESCRIPTION%%:*} step=${step#step }
  if [ "${3:-}" = --record ] && [ "$RUN_NORMAL" = 1 ] && [ "$RUN_STATUS" -eq "$want" ]; then return 0; fi
  # (a status of 700 and up is a kernel's fault that surfaced at the call: not the call's own mistake)
  if [ ! -f "$WB_WORK/ended-badly" ] && [ -z "${3:-}" ] && [ -n "${CALL_STEPS:-}" ] && failed=$(first_failed_call) &&
    [ "$(call_field "$failed" status)" -lt 700 ]; then
    [[ " $CALL_STEPS " =~ \ $(call_field "$failed" fn):([0-9]+)\  ]] && owner=${BASH_REMATCH[1]}
    if [ -n "$owner" ] && [ "$owner" -gt "$step" ]; then
      record_ending "$owner" "$want"
      skip "needs step $owner first: the run ended after $(call_site_text "$failed") returned $(call_field "$failed" status) ($(error_string "$(call_field "$failed" status)" "$(call_field "$failed" fn)")); step $owner grades that call"
    fi
  fi
  # Where no step has shown this run's ending yet, another step's check may explain it (ending_explained).
  if [ -z "${3:-}" ] && { [ ! -f "$WB_WORK/ended-badly" ] || ! cmp -s "$(sed -n 2p "$WB_WORK/ended-badly")/args" "$RUN_DIR/args"; } &&
    explained=$(ending_explained "$step") && [ -n "$explained" ]; then
    [ -f "$WB_WORK/ended-badly" ] || record_ending "${explained%%:*}" "$want"
    skip "needs step ${explained%%:*} first: the run $RUN_HOW; ${explained#*:}"
  fi
  if [ -f "$WB_WORK/ended-badly" ]; then
    [ "${3:-}" != --record ] || return 0
    { read -r first; read -r first_run; } <"$WB_WORK/ended-badly"
    [ "$first" = "$step $want" ] || ! cmp -s "$first_run/args" "$RUN_DIR/args" ||
      skip "needs the run to end first: $why; step ${first% *} shows how it ended and the program's own error (fix what makes it end so, whichever step's work that is)"
  elif [ "${3:-}" != --only-after ]; then
    record_ending "$step" "$want"
  fi
}

# record_ending STEP WANT: the grading's record that the last run did not end with WANT, and that step STEP
# shows why (ended_badly reads it for every later step).
record_ending() { printf '%s %s\n%s\n' "$1" "$2" "$RUN_DIR" >"$WB_WORK/ended-badly"; }

# ending_explained STEP [--checks-only]: why the last run ended badly, as another step than STEP finds it from
# the record, printed "OWNER:REASON"; nothing when none does (a step before STEP has then failed on it, or
# fails when graded alone). First the lesson's ENDING_CHECKS ("6:misplaced_scalars":
# a step's check that can explain an ending, such as a scalar the GPU cannot reach; a check prints its
# finding), then, for a kernel's fault (700 and up), the memory checker's step (MEMCHECK_STEP) where it
# finds an access outside an allocation: the run's wrong ending is what that access did, wherever it surfaced.
ending_explained() {
  local step=$1 check finding failed accesses
  for check in ${ENDING_CHECKS:-}; do
    if [ "${check%%:*}" != "$step" ] && finding=$("${check#*:}") && [ -n "$finding" ]; then
      echo "${check%%:*}:step ${check%%:*} finds why: $finding"
      return
    fi
  done
  [ "${2:-}" != --checks-only ] && [ -n "${MEMCHECK_STEP:-}" ] && [ "$MEMCHECK_STEP" != "$step" ] && failed=$(first_failed_call) &&
    [ "$(call_field "$failed" status)" -ge 700 ] && accesses=$(memcheck_accesses) && [ "${accesses:-0}" -gt 0 ] ||
    return 0
  echo "$MEMCHECK_STEP:$(call_site_text "$failed") returned $(call_field "$failed" status) ($(error_string "$(call_field "$failed" status)")), a kernel's fault, and the memory checker finds $accesses access(es) outside an allocation; step $MEMCHECK_STEP says where"
}

# expect_line PREFIX EXPECTED_FILE CAUSE: the run printed the expected file's line that starts with PREFIX.
expect_line() {
  local prefix=$1 file=$2 cause=$3 want got
  want=$(grep -m1 -F -- "$prefix" "$file" | grep -m1 -- "^$prefix") ||
    fail "grader error: $file has no line starting with \"$prefix\""
  got=$(grep -m1 -- "^$prefix" "$RUN_DIR/stdout" || true)
  [ "$got" = "$want" ] && return 0
  [ -n "$got" ] || got="(no line starting with \"$prefix\"; the program $RUN_HOW)"
  fail "$(printf 'expected: %s\nprinted:  %s\nusual cause: %s' "$want" "$got" "$cause")"
}

# expect_output EXPECTED_FILE CAUSE: the run's whole stdout equals the file; shows a diff otherwise.
expect_output() {
  local file=$1 cause=$2 diff
  diff=$(diff -u --label expected --label "your program" "$file" "$RUN_DIR/stdout") && return 0
  fail "$(printf 'expected vs. what your program printed (- expected, + yours):\n%s\nusual cause: %s' \
    "$(printf '%s\n' "$diff" | tail -n +3 | head -n 30 | sed 's/^/    /')" "$cause")"
}

# --- the leak report (grader/README.md) ----------------------------------------------------------

# report_total KEY: the first number of the report's summary record KEY ("alloc-calls", "live", ...).
report_total() {
  local file=$RUN_DIR/report
  [ -f "$file" ] || { echo ""; return; }
  awk -v k="$1" '$1 == k { print $2; exit }' "$file"
}

# same_line FILE:S FILE:L: the line L a program printed for a call is the call's line S in the trace, or a
# later line of the same statement. Host compilers place a call differently in their debug information: gcc
# 13 at -O2 (nvcc 13 on the H100) gives every instruction of "ok = A(x) &&\n B(y);" the statement's first
# line, so B's __LINE__ is one more than the trace's line for B (gcc 12, the CPU backend's, gives B's own).
# Told from the program's line table, no source read: no line after S, up to L, has code of its own.
same_line() {
  [ "$1" = "$2" ] && return 0
  local f=${1%:*} s=${1##*:} l=${2##*:} rows
  [ "${2%:*}" = "$f" ] && [[ $s =~ ^[0-9]+$ && $l =~ ^[0-9]+$ ]] && [ "$l" -gt "$s" ] && [ "$((l - s))" -le 8 ] ||
    return 1
  rows=$(line_rows) || return 1
  awk -F : -v f="$f" -v s="$s" -v l="$l" '$1 == f && $2 > s && $2 <= l { found = 1; exit } END { exit found }' "$rows"
}

# line_rows: prints the path of a file, beside the program, of the FILE:LINE of every row of its line table
# (every line that has code), made once per build. objdump reads the student's executable in the sandbox.
line_rows() {
  local prog rows sandbox=()
  prog=$(program)
  rows=${prog%/*}/line-rows
  if [ ! -f "$rows" ]; then
    command -v objdump >/dev/null 2>&1 || return 1
    ! sandbox_available || sandbox_command sandbox --ro "${prog%/*}" --
    "${sandbox[@]}" objdump --dwarf=decodedline --wide "$prog" 2>/dev/null |
      awk '$2 ~ /^[0-9]+$/ && $3 ~ /^0x[0-9a-f]+$/ { f = $1; sub(/^.*\//, "", f); print f ":" $2 }' | sort -u >"$rows.tmp" &&
      mv -f "$rows.tmp" "$rows" || return 1
  fi
  printf '%s\n' "$rows"
}

# A call site as "alloc.cu:42" when it can be told, else nothing.
site_text() {
  local site=$1 line
  case $site in
    +0x*)
      command -v addr2line >/dev/null 2>&1 || return 0
      # The innermost frame: at -O2 nvcc's debug information names it after its intermediate file
      # (tmpxft_..._alloc.cudafe1.cpp:56) while the line is the student's (alloc.cu:56).
      # The first frame (innermost first) in one of the student's files: a call inlined from a header
      # (cudaMalloc<T>) names the student's line. At -O2 nvcc's debug information names inlined frames
      # after its intermediate file (tmpxft_..._alloc.cudafe1.cpp:56) while the line is the student's.
      local frame first="" files sandbox=()
      student_files files
      # The student's executable is read in the sandbox, as trace_table reads it: a crafted one must not
      # reach the grader.
      ! sandbox_available || sandbox_command sandbox --ro "$(dirname "$(program)")" --
      while read -r frame; do
        frame=${frame##*/}
        frame=${frame%% *}
        if [[ $frame =~ ^tmpxft_[0-9a-f_-]+_(.+)\.cudafe1\.cpp:([0-9]+)$ ]]; then
          frame=${BASH_REMATCH[1]}.cu:${BASH_REMATCH[2]}
        fi
        [[ $frame =~ :[0-9]+$ ]] || continue
        [ -n "$first" ] || first=$frame
        [[ $files == *" ${frame%%:*} "* ]] && { printf '%s' "$frame"; return 0; }
      done < <("${sandbox[@]}" addr2line -i -e "$(program)" "${site#+}" 2>/dev/null)
      printf '%s' "$first" ;;
    \?|"") ;;
    *) printf '%s' "${site##*/}" ;;
  esac
}

# The report's leak records, one line each, for a failure message.
leak_lines() {
  local line fn bytes site
  while read -r line; do
    fn=$(sed -n 's/.* fn=\([^ ]*\).*/\1/p' <<<"$line")
    bytes=$(sed -n 's/.* bytes=\([^ ]*\).*/\1/p' <<<"$line")
    site=$(site_text "$(sed -n 's/.* site=\([^ ]*\).*/\1/p' <<<"$line")")
    printf '    %s of %s bytes%s, never freed\n' "$fn" "$bytes" "${site:+ at $site}"
  done < <(grep '^leak ' "$RUN_DIR/report" | head -n 10)
}

# expect_allocated CONSEQUENCE: the last run made an allocation call: a step about freeing or checking
# memory grades the work, and a program that does none has earned nothing there (the step is skipped,
# "needs the steps before it first": the allocation's own step fails).
expect_allocated() {
  [ "$(report_total alloc-calls)" != 0 ] && return 0
  skip "needs the steps before it first: run $(run_args_text), the program made no allocation call at all, so $1; the step that grades that allocation says what is missing"
}

# run_args_text: the last run's arguments as a student would type them ("with no arguments" when none).
run_args_text() {
  local args=()
  [ -f "$RUN_DIR/args" ] && while IFS= read -r -d '' a; do args+=("$a"); done <"$RUN_DIR/args"
  if [ ${#args[@]} -eq 0 ]; then printf 'with no arguments'; else printf 'as "program %s"' "${args[*]}"; fi
}

# expect_lesson_work WHY: the last run made the calls the lesson's TODOs add, LESSON_WORK (set by each
# grader): "FN=K ..." asks for at least K successful calls of FN, "FN1|FN2=K" of FN1 and FN2 together. A
# step that checks how the work is done (memory checker, failure sweep) earns nothing on the skeleton's
# own code: without the work it is skipped, "needs the steps before it first" (they fail, saying what is
# missing: one mistake, one step); WHY says what this step cannot check without it.
expect_lesson_work() {
  local need fns fn made
  for need in ${LESSON_WORK:-}; do
    fns=${need%=*} made=0
    for fn in ${fns//|/ }; do
      made=$((made + $(calls "fn=$fn" status=0 | awk -F '\t' '{ t += $6 } END { print t + 0 }')))
    done
    [ "$made" -ge "${need#*=}" ] && continue
    ended_badly 0 "the program does not get through the lesson's work with these arguments" --only-after
    skip "$(printf 'needs the steps before it first: a run that does the lesson'"'"'s work makes at least %s successful %s call(s), this one made %s, so %s' \
      "${need#*=}" "${fns//|/ or }" "$made" "$1")"
  done
}

# Fails unless the last run left no device or pinned allocation and no cuBLAS handle alive.
expect_no_leaks() {
  local live handles streams events
  [ -s "$RUN_DIR/report" ] ||
    fail "$(printf 'expected: a leak report at exit\nhappened: none was written; the program %s\nusual cause: %s' "$RUN_HOW" "$(cause_of_run)")"
  # Nothing allocated is nothing freed: the step grades the work, not its absence.
  expect_allocated "nothing was freed"
  live=$(report_total live)
  handles=$(report_total live-handles)
  streams=$(report_total live-streams)
  events=$(report_total live-events)
  [ "$live" = 0 ] && [ "${handles:-0}" = 0 ] && [ "${streams:-0}" = 0 ] && [ "${events:-0}" = 0 ] && return 0
  local leaks
  leaks=$(leak_lines; unreleased_objects)
  fail "$(printf 'expected: every allocation freed, every stream, event and cuBLAS handle destroyed before the program ends\nhappened: still alive at exit: %s allocation(s), %s stream(s), %s event(s), %s cuBLAS handle(s)%s\nusual cause: a buffer or handle missing from the cleanup code, or a return before it' \
    "$live" "${streams:-0}" "${events:-0}" "${handles:-0}" "${leaks:+$'\n'$leaks}")"
}

# expect_no_invalid_frees [--except "N..."]: fails when the last run freed a pointer that was not a live
# allocation (double free, host pointer); --except: but for the calls N (a probe's questions, ANSWER_NS).
expect_no_invalid_frees() {
  local bad except=""
  [ "${1:-}" != --except ] || except=" $2 "
  if [ -n "$except" ]; then
    bad=$(calls class=free invalid=1 | awk -F '\t' -v ex="$except" 'index(ex, " " $1 " ") == 0' | grep -c . || true)
  else
    bad=$(report_total invalid-frees)
  fi
  [ "${bad:-0}" = 0 ] && return 0
  fail "$(printf 'expected: each allocation freed exactly once, with the matching call%s\nhappened: %s free call(s) returned cudaErrorInvalidValue:\n%s\nusual cause: freeing a pointer twice (set it to NULL after freeing it), or cudaFree on memory from cudaMallocHost' \
    "${except:+ (but where a probe question asks about one)}" "$bad" "$(calls class=free invalid=1 | awk -F '\t' -v ex="$except" 'ex == "" || index(ex, " " $1 " ") == 0' |
      head -n 5 | while IFS= read -r c; do
      printf '    %s(%s) at %s\n' "$(call_field "$c" fn)" "$(call_field "$c" ptr)" "$(call_field "$c" line)"
    done)")"
}

# expect_probe_frees_asked: the probe's run (--probe, its questions PROBE_QUESTIONS) leaks nothing and frees
# nothing invalid but where a question asks what such a free returns: the question's own call may be one;
# any other free the runtime rejects is a mistake, as in any other run.
expect_probe_frees_asked() {
  run_program --name probe -- --probe
  expect_exit 0
  expect_no_leaks
  expect_answers --find "${PROBE_QUESTIONS[@]}"
  expect_no_invalid_frees --except "$ANSWER_NS"
}

# --- the out-of-memory contract ------------------------------------------------------------------

# failed_call: the record of the call that failed in the last run: the one the trace failed on purpose,
# else the first allocation that ran out of memory (or cublasCreate's). Nothing when no call failed.
failed_call() {
  local rec
  trace_table
  { IFS= read -r rec; } < <(contract_facts "")
  printf '%s\n' "$rec"
}

# contract_kept [FORMAT]: the last run, in which a CUDA call failed, kept the contract (grader/README.md);
# prints why not and returns 1 otherwise. FORMAT "plain" (default, lessons 01-03: the line names the call
# and its bytes) or "located" (lesson 04: "error: FILE:LINE: CALL failed: NAME: STRING", FILE:LINE the
# failed call's own line). The error and its string are the ones the trace recorded for the failed call.
contract_kept() {
  local format=${1:-plain} rec fn bytes code string lines line ok=0 n own sticky live released alloc_calls
  local -a names leaks
  if [ "$RUN_NORMAL" != 1 ] || [ "$RUN_STATUS" -ne 1 ]; then
    echo "it $RUN_HOW (the contract: exit status 1); stderr: $(grep -m1 . "$RUN_DIR/stderr" || echo '(nothing)')"
    return 1
  fi
  # Everything the contract reads from the run, in one pass (a sweep checks it after every run).
  trace_table
  { IFS= read -r rec; read -r lines; IFS= read -r line; IFS= read -r own; IFS= read -r sticky; read -r live
    read -r released; read -r alloc_calls; mapfile -t leaks; } < <(contract_facts "${CONTRACT_BASELINE:-}")
  if [ -z "$rec" ]; then
    if [ "$alloc_calls" = "0" ]; then
      echo "it made no allocation call at all, so there was nothing to fail (write step 2 first)"
    else
      echo "no CUDA call failed in this run: the call to fail was never made (do the program's calls change from run to run?)"
    fi
    return 1
  fi
  call_get fn "$rec" fn
  call_get code "$rec" status
  call_get bytes "$rec" bytes || true
  string=$(error_string "$code" "$fn")
  if [ "$lines" -ne 1 ]; then
    echo "it printed $lines lines starting with \"error: \" on stderr, not one:"
    excerpt "$RUN_DIR/stderr" 4
    return 1
  fi
  # A launch that cannot start is reported by the cudaGetLastError after it.
  names=("$fn")
  # The plain name of a variant names it too: cudaStreamCreate for cudaStreamCreateWithFlags.
  [[ $fn =~ ^(cuda[A-Za-z]+Create)With(Flags|Priority)$ ]] && names+=("${BASH_REMATCH[1]}")
  [ "$fn" != cudaLaunchKernel ] || names+=(launch "$(call_field "$rec" kernel)" cudaGetLastError cudaPeekAtLastError)
  for n in "${names[@]}"; do [ -n "$n" ] && [[ $line == *"$n"* ]] && ok=1; done
  if [ "$ok" = 0 ]; then
    echo "its line does not name the call that failed ($fn): $line"
    return 1
  fi
  if [[ $line != *": $string" ]]; then
    echo "its line does not end with $([[ $fn == cublas* ]] && echo "cuBLAS's string for status" || echo "CUDA's string for error") $code, \": $string\": $line"
    return 1
  fi
  # The bytes, or a shape whose product they are ("of 4004 x 300 bytes", as lesson 06 writes rows).
  if [ "$format" = plain ] && [ -n "$bytes" ] && [ "$bytes" != 0 ] && [[ $line != *" $bytes "* ]] &&
    ! grep -oE ' [0-9]+ x [0-9]+ ' <<<"$line" | awk -v b="$bytes" '{ if ($1 * $3 == b) found = 1 } END { exit !found }'; then
    echo "its line does not say how many bytes the call was for ($bytes, as in the trace): $line"
    return 1
  fi
  if [ "$format" = located ] && [ "$fn" != cudaLaunchKernel ] &&
    ! same_line "$(call_field "$rec" line)" "$(sed -n 's/^error: \([^:]*:[0-9]*\): .*/\1/p' <<<"$line")"; then
    echo "its line does not give the line of the call that failed ($(call_field "$rec" line)): $line"
    return 1
  fi
  # After a sticky error nothing can be freed: the driver takes the memory back when the process ends. That
  # excuses the cleanup only when the failure made it: the trace's own sticky error (an injected failure of a
  # synchronize, and every call after it, sticky=1). A program that brings one about itself, a kernel that
  # writes where it must not, has chosen to skip its cleanup.
  if [ -n "$own" ]; then
    printf '%s the %s of %s at %s, %s at %s returned %s (%s: %s), an error the %s did not cause: the leak check cannot be skipped for it\n' \
      "$([ "$(call_field "$own" n)" -gt "$(call_field "$rec" n)" ] && echo after || echo before)" \
      "$([ "$(call_field "$rec" injected)" = 1 ] && echo "injected failure" || echo failure)" "$fn" "$(call_field "$rec" line)" \
      "$(call_field "$own" fn)" "$(call_field "$own" line)" "$(call_field "$own" status)" \
      "$(error_name "$(call_field "$own" status)")" "$(error_string "$(call_field "$own" status)")" \
      "$([ "$(call_field "$rec" injected)" = 1 ] && echo injection || echo failure)"
    return 1
  fi
  # Any sticky line of the report: the driver keeps what the process held.
  [ -z "$sticky" ] || return 0
  # A leak the normal run has too is the leak step's, not this one's, unless the program released
  # nothing at all: then no cleanup ran, whatever the normal run does.
  if [ "$live" != 0 ] && [ "$released" = 0 ]; then
    echo "it released nothing it held: no cudaFree (or other release) ran after the failure:"
    leaks_beyond ""
    return 1
  fi
  [ ${#leaks[@]} = 0 ] || { echo "it did not release what it held:"; leftover_lines "${leaks[@]}"; return 1; }
}

# contract_facts BASELINE_DIR: what contract_kept reads from the last run, in one awk over calls.tsv, stderr
# and the report (and BASELINE_DIR's report), one line each: the failed call's record (failed_call's); how many
# "error: " lines stderr has, and the first; the record of the first call that returned a sticky error (700,
# 710, 714 to 719: the codes the trace's sticky line counts) which the trace did not make, neither injected
# (injected=1) nor the emulated consequence of an injected one (sticky=1); the report's sticky lines, joined;
# its first live count; 1 when a release (class free or destroy) returned 0, else 0; its alloc-calls count;
# then what it left alive beyond BASELINE_DIR's run ("leak FN BYTES SITE", "live N KIND", for leftover_lines).
# --leftovers: only those. The one place of each rule: failed_call and leaks_beyond read it too. trace_table
# first.
contract_facts() {
  local base=${1:+$1/report} only=0
  [ "${2:-}" != --leftovers ] || only=1
  awk -v base="$base" -v calls="$RUN_DIR/calls.tsv" -v stderr="$RUN_DIR/stderr" -v only="$only" '
    function field(k,   v) { v = " " $0 " "; if (!match(v, " " k "=[^ ]*")) return ""; return substr(v, RSTART + length(k) + 2, RLENGTH - length(k) - 2) }
    FILENAME == calls {
      split($0, c, "\t"); kv = " " c[7] " "
      if (injected == "" && kv ~ / injected=1 /) injected = $0
      if (oom == "" && c[3] == "alloc" && c[4] == "2") oom = $0
      if (blas == "" && c[2] == "cublasCreate" && c[4] == "3") blas = $0
      if (own == "" && (c[4] == 700 || c[4] == 710 || (c[4] >= 714 && c[4] <= 719)) && kv !~ / (injected|sticky)=1 /) own = $0
      if ((c[3] == "free" || c[3] == "destroy") && c[4] == "0") released = 1
      next
    }
    FILENAME == stderr { if (/^error: / && !errors++) first_error = $0; next }
    FILENAME == base {
      if ($1 == "leak") had[field("fn") " " field("site")]++
      else if ($1 ~ /^live-(streams|events|handles)$/) was[$1] = $2
      next
    }
    $1 == "sticky" { sticky = sticky $2 }
    $1 == "live" && !live_seen++ { live = $2 }
    $1 == "alloc-calls" && !allocs_seen++ { allocs = $2 }
    $1 == "leak" { key = field("fn") " " field("site"); if (had[key]-- <= 0) left[++n] = "leak " field("fn") " " field("bytes") " " field("site") }
    $1 ~ /^live-(streams|events|handles)$/ && $2 > was[$1] + 0 { left[++n] = "live " ($2 - was[$1]) " " substr($1, 6) }
    END {
      if (!only) {
        print injected != "" ? injected : oom != "" ? oom : blas
        print errors + 0; print first_error; print own; print sticky; print live; print released + 0; print allocs
      }
      for (i = 1; i <= n; i++) print left[i]
    }' "$RUN_DIR/calls.tsv" "$RUN_DIR/stderr" ${base:+"$base"} "$RUN_DIR/report" 2>/dev/null
}

# unreleased_objects [handle|stream|event]: the streams, events and cuBLAS handles the last run created and
# never destroyed, one line each with the place that made it ("cublasCreate at gemm.cu:100 (handle#1),
# never destroyed"): a leak named by its place, so that the steps that find the same one share it.
unreleased_objects() {
  trace_table
  awk -F '\t' -v only="${1:-}" '
    function id(   m) { if (!match(" " $7 " ", " (handle|stream|event)=[a-z]+#[0-9]+ ")) return ""; m = substr(" " $7 " ", RSTART + 1, RLENGTH - 2); sub(/^[a-z]+=/, "", m); return m }
    $4 != 0 { next }
    $2 ~ /^(cublasCreate|cudaStreamCreate|cudaEventCreate)/ && (k = id()) != "" && (only == "" || index(k, only "#") == 1) { made[k] = $2 " at " $5; order[++n] = k }
    $2 ~ /^(cublasDestroy|cudaStreamDestroy|cudaEventDestroy)/ && (k = id()) != "" { delete made[k] }
    END { for (i = 1; i <= n; i++) if (order[i] in made) printf "    %s (%s), never destroyed\n", made[order[i]], order[i] }' "$RUN_DIR/calls.tsv"
}

# leaks_beyond BASELINE_DIR: what the last run left alive (allocations, by function and site; streams,
# events, cuBLAS handles, by count) beyond what the normal run in BASELINE_DIR left: a leak of the normal
# path is the leak step's, not also the failure sweep's. One line each, for a message.
leaks_beyond() {
  trace_table
  contract_facts "$1" --leftovers | leftover_lines
}

# leftover_lines [LINE...]: leaks_beyond's lines ("leak FN BYTES SITE", "live N KIND"), from the arguments or
# else from stdin, as a message's lines.
leftover_lines() {
  local what fn bytes site more
  [ $# = 0 ] || { printf '%s\n' "$@" | leftover_lines; return; }
  while read -r what fn bytes site; do
    if [ "$what" = leak ]; then
      site=$(site_text "$site")
      printf '    %s of %s bytes%s, never freed\n' "$fn" "$bytes" "${site:+ at $site}"
    else
      more=$fn
      printf '    %s %s still alive\n' "$more" "$bytes"
      unreleased_objects "${bytes%s}"
    fi
  done
}

# expect_real_oom [--format F] [EXAMPLE [CAUSE]]: asked for 10^11 floats (400 GB: more than any GPU has,
# and more than the CPU backend's device), the program keeps the contract. EXAMPLE is the line it should print.
expect_real_oom() {
  local format=plain example cause why
  if [ "${1:-}" = --format ]; then
    format=$2
    shift 2
  fi
  example=${1:-"error: cudaMalloc of 400000000000 bytes failed: out of memory"}
  cause=${2:-"the return value of cudaMalloc is not checked"}
  run_program --name real-oom -- 100000000000
  # No allocation at all is a failure (a give-up line typed in for a large n is one), but its cause is the
  # missing allocation, not an unchecked return value.
  [ "$(report_total alloc-calls)" != 0 ] || cause="no allocation is made for this n: the allocation step is not written yet, or the program gives up without asking"
  # Nothing failed although the program allocated: its sizes do not follow n. Said so, rather than blame the
  # error checks, which never had an error to see.
  if [ "$RUN_NORMAL" = 1 ] && [ "$(report_total alloc-calls)" != 0 ] && [ -z "$(failed_call)" ]; then
    fail "$(printf 'expected: asked for 400 GB (n = 100000000000), an allocation of that size, which fails; then one "%s" line and exit status 1\nhappened: no allocation failed: it %s, and its allocations were:\n%s\nusual cause: the size allocated does not follow the n the program was given: the step that checks the allocation'"'"'s size says more' \
      "$example" "$RUN_HOW" "$(calls class=alloc | head -n 4 | while IFS= read -r c; do printf '    %s\n' "$(call_text "$c")"; done)")"
  fi
  why=$(contract_kept "$format") ||
    fail "$(printf 'expected: asked for 400 GB, the program prints one "%s" line and exits with status 1\nhappened: %s\nusual cause: %s' \
      "$example" "$why" "$cause")"
}

# fault_sweep [--name PREFIX] [--format plain|located] [--skip "N..."] [--] ARGS...: runs the program with
# ARGS, then once more for each distinct call site of that run (a line of the student's file and the
# function it called there), failing the first call made there (CUDAWB_FAIL_NTH), and checks the
# contract each time. --skip "N...": calls whose sites are not failed (a probe's questions, whose failure is
# an answer, not an error: every call at their lines is left alone). Allocations,
# stream and event creations, operations and synchronizing calls are failed; releases, error-state
# reads and completion queries are not, nor calls that already fail in the normal run.
# --lesson-work: before the sweep, the normal run must do the lesson's work (expect_lesson_work): a
# program that does not has no error paths worth the step's points.
# --env K=V: for every run (run_program's). --survive FN: a run that exits with status 0 after its failure
# passes when FN does (lesson 09: a failed allocation survived with smaller chunks); FN prints why not.
fault_sweep() {
  local prefix=sweep format=plain skip="" skip_lines=" " count_dir n k=0 total why sites=() site failed
  local work=0 envs=() survive=""
  while [ $# -gt 0 ]; do
    case $1 in
      --name) prefix=$2; shift 2 ;;
      --env) envs+=(--env "$2"); shift 2 ;;
      --survive) survive=$2; shift 2 ;;
      --format) format=$2; shift 2 ;;
      --skip) skip=$2; shift 2 ;;
      --lesson-work) work=1; shift ;;
      --) shift; break ;;
      *) break ;;
    esac
  done
  run_program --name "$prefix-count" "${envs[@]}" -- "$@"
  expect_exit 0
  count_dir=$RUN_DIR
  [ "$work" = 0 ] || expect_lesson_work "its error paths are not worth the step's points yet"
  CONTRACT_BASELINE=$count_dir
  for n in $skip; do
    skip_lines="$skip_lines$(calls "n=$n" | cut -f5) "
  done
  mapfile -t sites < <(calls status=0 | sweep_sites "$skip_lines")
  total=${#sites[@]}
  [ "$total" -gt 0 ] || fail "expected: CUDA calls in a normal run of the program; its trace has none"
  [ "$total" -le "$WB_SWEEP_MAX" ] || total=$WB_SWEEP_MAX
  for site in "${sites[@]:0:$total}"; do
    k=$((k + 1))
    # The site's call by its number among the calls that can be failed (nth=, grader/shim/trace.c): the same
    # call in every run, however many times a polling loop asked whether the GPU was done before it.
    call_get n "$site" nth || true
    # Shown on the student's terminal while the step runs (report.sh), never in the report itself.
    [ -z "${WB_PROGRESS:-}" ] || printf '# progress: %s: failing call %s of %s (%s)\n' "${BATS_TEST_DESCRIPTION%% (*}" "$k" "$total" "$(call_field "$site" fn)" >&3
    run_program --name "$prefix-$n" "${envs[@]}" --env "CUDAWB_FAIL_NTH=$n" -- "$@"
    if [ -n "$survive" ] && [ "$RUN_NORMAL" = 1 ] && [ "$RUN_STATUS" = 0 ]; then
      why=$("$survive") && continue
    else
      why=$(contract_kept "$format") && continue
    fi
    failed=$(failed_call)
    RUN_DIR=$count_dir
    fail "$(printf 'expected: when a CUDA call fails, the program prints one "error: ..." line naming it, releases what it holds and exits with status 1 (%s call sites of this run swept, %s kept the contract)\nhappened: made to fail with error %s (%s), %s; %s\nusual cause: an unchecked return value, an exit() or return that skips the cleanup, or a cleanup that misses a buffer' \
      "$total" "$((k - 1))" "$(call_field "$failed" status)" "$(error_string "$(call_field "$failed" status)" "$(call_field "$failed" fn)")" \
      "$(call_site_text "$site")" "$why")"
  done
}

# sweep_sites SKIP_LINES < RECORDS: the records (calls' lines) of the calls a sweep fails, the first of each
# site: allocations, creations, operations and synchronizing calls, not at a line of SKIP_LINES (" a.cu:12
# a.cu:14 "). What makes a call a site of its own: its line and function, and the objects it works on
# (buffers without their offsets, streams, events), its direction and its kernel. A call inside a helper
# function has the helper's line whoever calls it: the objects tell the helper's uses apart (a prefetch of
# the inputs and one of the results), while a loop over the chunks of one buffer stays one site. One awk for
# the whole run (an awk for each site was some forty forks a sweep).
sweep_sites() {
  awk -F '\t' -v skip="$1" '
    $3 !~ /^(alloc|create|op|sync)$/ || index(skip, " " $5 " ") { next }
    {
      key = $5 "|" $2
      m = split($7, kv, " ")
      for (i = 1; i <= m; i++) {
        k = kv[i]; sub(/=.*/, "", k); v = substr(kv[i], length(k) + 2)
        if (k !~ /^(ptr|dst|src|to|at|kind|advice|stream|event|start|end|kernel|args)$/) continue
        gsub(/\+[0-9]+/, "", v)                    # an offset into a buffer: the same buffer
        if (k == "args") gsub(/(^|,)[0-9.e+-]+/, "", v) # a kernel'"'"'s numbers: only its buffers
        key = key "|" k "=" v
      }
      if (!(key in seen)) { seen[key] = 1; print }
    }'
}

# --- the memory checker --------------------------------------------------------------------------

# checker_findings: how many accesses the memory checker reported in the last run (invalid, misaligned or
# out of range), each a record of its own.
checker_findings() {
  cat "$RUN_DIR/stdout" "$RUN_DIR/stderr" | grep -cE '^========= (Invalid |Misaligned |Out-of-range )' || true
}

# expect_memcheck_clean: compute-sanitizer memcheck (or the CPU backend's), run on the lesson's memcheck_args,
# finds no access outside an allocation. Leaks and failed API calls it reports too are left to the steps that check them in the
# trace (one mistake costs one step).
expect_memcheck_clean() {
  local summary accesses explained over line listing near
  if [ -z "${WB_SANITIZER:-}" ] || [ ! -x "$WB_SANITIZER" ]; then
    skip "cannot run here: compute-sanitizer is not installed (it comes with the full CUDA toolkit)"
  fi
  # shellcheck disable=SC2046 # memcheck_args: numbers, a word each
  run_program --name memcheck --sanitize -- $(memcheck_args)
  expect_allocated "there was nothing to check"
  # A bad access is a finding even where it cut the lesson's work short (its calls then fail): judged
  # before the work is asked for.
  accesses=$(checker_findings)
  # A cuBLAS call that reaches past a buffer is a finding however the buffers lie, named by its call (on a
  # GPU the checker sees it only where it leaves every allocation): the same verdict on both backends.
  over=$(library_overruns | head -n 3)
  [ -z "$over" ] ||
    fail "$(printf 'expected: no access outside an allocation under the memory checker\nhappened: %s, as its sizes and leading dimensions lay it out:\n%s\nusual cause: a leading dimension larger than the length of the buffer'"'"'s column (cuBLAS reads column j from j x ld on), or a block of rows past the last one' \
      "$([ "$accesses" = 0 ] && echo "a cuBLAS call reaches past the end of a buffer (the checker saw no access outside every allocation here: the overrun lands in another buffer)" || echo "the memory checker found $accesses invalid access(es): a cuBLAS call reaches past the end of a buffer")" \
      "$(while IFS= read -r line; do printf '    %s: %s\n' "$(call_site_text "$(cut -f1-7 <<<"$line")")" "$(cut -f8 <<<"$line")"; done <<<"$over")")"
  if [ "$accesses" = 0 ]; then
    expect_lesson_work "the checker has none of the lesson's accesses to check yet"
    summary=$(grep -h -m1 -o 'ERROR SUMMARY: [0-9]* error' "$RUN_DIR/stdout" "$RUN_DIR/stderr" | head -n1 | grep -o '[0-9]*' || true)
    [ -n "$summary" ] || fail "$(printf 'expected: the memory checker runs the program to the end\nhappened: it %s\nusual cause: %s' "$RUN_HOW" "$(cause_of_run)")"
    return 0
  fi
  # What the checker said, kept before another run replaces RUN_DIR.
  listing=$(cat "$RUN_DIR/stdout" "$RUN_DIR/stderr" | grep -A5 -E '^========= (Invalid |Misaligned |Out-of-range )' | grep '^=========' | grep -v -e '^========= *$' | head -n 16 | cut -c1-160 | sed 's/^/    /')
  near=$(memcheck_allocations)
  # Accesses that another step's check explains from the record (ENDING_CHECKS: a scalar the GPU cannot
  # reach) are that step's finding. The checks read a plain run of the same arguments: under the checker a
  # GPU's launches are recorded without their arguments (run_program).
  if [ -n "${ENDING_CHECKS:-}" ]; then
    # shellcheck disable=SC2046 # memcheck_args: numbers, a word each
    run_program --name memcheck-plain -- $(memcheck_args) >/dev/null
    explained=$(ending_explained 0 --checks-only)
  fi
  [ -z "$explained" ] || skip "needs step ${explained%%:*} first: the memory checker finds $accesses access(es) outside an allocation; ${explained#*:}"
  fail "$(printf 'expected: no access outside an allocation under the memory checker\nhappened: it found %s invalid access(es):\n%s%s\nusual cause: a buffer smaller than what a kernel or copy touches, or an index one past the end' \
    "$accesses" "$listing" "$near")"
}

# memcheck_allocations: the last run's allocations that the checker's findings are next to ("the nearest
# allocation at 0x... of size 4,000 bytes"), by their size, with the calls that made them: a buffer too small
# is the mistake of the step that grades its allocation, which report.sh then sees by its place in the code.
memcheck_allocations() {
  local size rec
  while read -r size; do
    calls class=alloc status=0 "bytes=$size" | head -n 2 | while IFS= read -r rec; do
      printf '\n    next to %s' "$(call_site_text "$rec")"
    done
  done < <(cat "$RUN_DIR/stdout" "$RUN_DIR/stderr" | grep -oE 'nearest allocation at 0x[0-9a-fA-F]+ of size [0-9,]+ bytes' |
    sed -E 's/.* of size ([0-9,]+) bytes/\1/; s/,//g' | sort -un | head -n 3)
}

# memcheck_accesses: how many accesses outside an allocation the memory checker finds in the lesson's
# checker run (its memcheck_args, the run MEMCHECK_STEP reuses), or, where it finds none, how many cuBLAS
# calls the trace shows reaching past a buffer (library_overruns: what MEMCHECK_STEP fails on however the
# buffers lie); nothing where no checker is installed. The last run's state is left as it was.
memcheck_accesses() {
  local saved=("$RUN_DIR" "$RUN_STATUS" "$RUN_NORMAL" "$RUN_HOW") found
  [ -n "${MEMCHECK_STEP:-}" ] && [ -n "${WB_SANITIZER:-}" ] && [ -x "$WB_SANITIZER" ] || return 0
  # shellcheck disable=SC2046 # memcheck_args: numbers, a word each
  run_program --name memcheck --sanitize -- $(memcheck_args) >/dev/null
  found=$(checker_findings)
  [ "${found:-0}" != 0 ] || found=$(library_overruns | grep -c . || true)
  echo "${found:-0}"
  RUN_DIR=${saved[0]} RUN_STATUS=${saved[1]} RUN_NORMAL=${saved[2]} RUN_HOW=${saved[3]}
}

# wait_for_memcheck: for a step whose results are wrong: when the memory checker (the lesson's MEMCHECK_STEP)
# finds an access outside an allocation, the wrong results are what that access read, and this step is
# skipped, "needs step MEMCHECK_STEP first".
wait_for_memcheck() {
  local accesses
  accesses=$(memcheck_accesses)
  [ "${accesses:-0}" = 0 ] ||
    skip "needs step $MEMCHECK_STEP first: the memory checker finds $accesses access(es) outside an allocation, and what this step found wrong is what they read or wrote; step $MEMCHECK_STEP says where"
}

# run_timed GPU_N CPU_N: runs the program's --timed mode, at its own size on a GPU and at CPU_N on a CPU
# backend (a size it runs quickly: there only the time needs a GPU); TIMED_SIZE says which. The run must
# end with status 0 and nothing left allocated.
run_timed() {
  local args=(--timed)
  TIMED_SIZE=$1
  [ "$WB_BACKEND" = gpu ] || { TIMED_SIZE=$2; args+=("$TIMED_SIZE"); }
  run_program --name timed --alone -- "${args[@]}"
  expect_exit 0
  expect_no_leaks
}

# run_again NAME: the last run made once more, under NAME: the same settings (--env), arguments and checker.
run_again() {
  local dir=$RUN_DIR e opts=() args=()
  while IFS= read -r -d '' e; do opts+=(--env "$e"); done <"$dir/envs"
  while IFS= read -r -d '' e; do args+=("$e"); done <"$dir/args"
  [ ! -e "$dir/sanitized" ] || opts+=(--sanitize)
  [ ! -e "$dir/alone" ] || opts+=(--alone)
  run_program --name "$1" "${opts[@]}" -- "${args[@]}"
}

# The most host time a timed span may hold between its calls, all gaps together (WB_SPAN_HOST_US, in us).
# What a span needs between its calls is the program's own code around them (a loop, an error check, a
# launch's configuration): microseconds. The solutions' spans, traced on the CPU backend: 0 to 16 us in all,
# the 1,280 calls of lesson 08's pipelines included. 1 ms is far above that, and small beside the spans the
# H200 times (lesson 03's serial run 15 ms, lesson 08's pipelines 4 to 30 ms): host time that the events would
# measure as the GPU's (a sleep, a loop of host work) can move a speed-up by a few percent at most.
WB_SPAN_HOST_US=${WB_SPAN_HOST_US:-1000}

# expect_span_host WHAT START END: the host spent at most WB_SPAN_HOST_US between the calls of the last run's
# timed span from call START (its start event's record) to call END (its stop event's): the host time of
# every call after START up to END, as the trace measured it (span_host). The events time the GPU, which
# waits while the host does anything else: a sleep in the span would count as the GPU's time. Over the
# bound, the run is made once more (run_again) and the span measured there too: a thread preempted by
# another process at the wrong moment is not the program's doing, and does not happen twice; a sleep does.
# The step fails only when both runs are over. RUN_DIR and the run's results stay the first run's.
expect_span_host() {
  local what=$1 s=$2 e=$3 total max at again="" saved=("$RUN_DIR" "$RUN_STATUS" "$RUN_NORMAL" "$RUN_HOW") name
  read -r total max at <<<"$(span_host "$s" "$e")"
  [ "$total" -le "$WB_SPAN_HOST_US" ] && return 0
  name="$(basename "$RUN_DIR")-again"
  run_again "$name" >/dev/null
  # the same program on the same input makes the same calls: the span has the same numbers there
  if [ "$(call_field "$(calls "n=$s")" fn)" = cudaEventRecord ] && [ "$(call_field "$(calls "n=$e")" fn)" = cudaEventRecord ]; then
    read -r again _ <<<"$(span_host "$s" "$e")"
  fi
  RUN_DIR=${saved[0]} RUN_STATUS=${saved[1]} RUN_NORMAL=${saved[2]} RUN_HOW=${saved[3]}
  [ -n "$again" ] && [ "$again" -le "$WB_SPAN_HOST_US" ] && return 0
  again=$([ -n "$again" ] && echo "$(us_ms "$again") ms" || echo "no such span")
  fail "$(printf 'expected: between the events that time %s, only the calls that queue its work: at most %s ms of host time between them, all together
happened: the host spent %s ms between them (%s in the same run made again), %s ms of it before %s
usual cause: host code inside the timed span (a sleep, a loop, printing): the GPU waits for the host, and the events measure that wait as its work. Do the host'"'"'s work before the start event or after the stop event' \
    "$what" "$(us_ms "$WB_SPAN_HOST_US")" "$(us_ms "$total")" "$again" "$(us_ms "$max")" "$(call_site_text "$(calls "n=$at")")")"
}

# us_ms US: microseconds as milliseconds, "1.250".
us_ms() { awk -v u="$1" 'BEGIN { printf "%.3f", u / 1000 }'; }

# --- step 1 of every lesson ----------------------------------------------------------------------

expect_clean_build() {
  local dir status
  dir=$WB_WORK/build
  status=$(cat "$dir/status" 2>/dev/null || echo missing)
  case $status in
    ok) ;;
    missing) fail "$(printf 'expected: the lesson'"'"'s source files\nhappened: %s\nusual cause: the file was renamed or deleted (make reset LESSON=N restores the skeleton)' "$(cat "$dir/compile.log")")" ;;
    not-a-file) fail "$(printf 'expected: the lesson'"'"'s source files, as plain files\nhappened: %s' "$(cat "$dir/compile.log")")" ;;
    no-compiler) fail "cannot compile: $(cat "$dir/compile.log") (make doctor says what to install)" ;;
    policy) fail "$(printf 'expected: code that uses what the lessons teach (grader/policy/allowed), so that what the grader records of it is what it did\nhappened: it was not graded:\n%s\nusual cause: a function, section or directive that lesson code does not need; if your instructor allows it, make check ALLOW=NAME' \
      "$(excerpt "$dir/policy.log" 12)")" ;;
    *) fail "$(printf 'expected: the program compiles and links\nhappened: %s; the compiler said:\n%s' "$status" \
      "$(cat "$dir/compile.log" "$dir/link.log" >"$dir/both.log"; excerpt "$dir/both.log" 24)")" ;;
  esac
  [ ! -s "$dir/compile.log" ] && return 0
  fail "$(printf 'expected: no warnings (the build uses -Wall -Wextra)\nhappened: the compiler said:\n%s\nusual cause: an unused variable or a signed/unsigned comparison; a warning is often a real bug' "$(excerpt "$dir/compile.log" 20)")"
}

# --- measurements that mean something only on a real GPU ------------------------------------------

# require_real_gpu WHAT: skips the step as "needs a GPU" (counted apart, not a failure) where the
# program does not run on a real GPU; WHAT says what the step measures.
require_real_gpu() {
  [ "$WB_BACKEND" = gpu ] || skip "needs a GPU: $1 means nothing on the $WB_BACKEND backend"
}
