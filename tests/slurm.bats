#!/usr/bin/env bats
# make grade SCHEDULER=slurm on a real single-node Slurm that setup_file starts in a temporary folder (a
# munge key, munged, a slurm.conf for this host, slurmctld and slurmd; all stopped in teardown_file): a
# class of two (the solution; a corrupt archive) graded as a job array, merged by the dependent job into the
# same outputs a local run writes. Where Slurm cannot start (not root, not installed), skipped with the reason.
# What BACKEND=gpu asks of sbatch (--gres=gpu:1) is checked with a recording sbatch: no GPU here.

setup_file() {
  load lib/helpers
  ! in_release || return 0
  local t=$BATS_FILE_TMPDIR/slurm node cpus port
  export SLURM_SKIP=""
  if [ "$(id -u)" != 0 ]; then SLURM_SKIP="Slurm's daemons need root here (slurmd runs the jobs as their users)"; return 0; fi
  for c in sbatch slurmctld slurmd munged mungekey; do
    PATH=$PATH:/usr/sbin command -v "$c" >/dev/null 2>&1 || { SLURM_SKIP="$c is not installed (apt-get install -y slurm-wlm munge)"; return 0; }
  done
  export PATH=$PATH:/usr/sbin
  mkdir -p "$t/munge" "$t/state" "$t/spool" && chmod 700 "$t/munge"
  mungekey -c -k "$t/munge/key" && chmod 600 "$t/munge/key"
  munged -f --socket="$t/munge/sock" --key-file="$t/munge/key" --log-file="$t/munge/log" --pid-file="$t/munge/pid" \
    --seed-file="$t/munge/seed" || { SLURM_SKIP="munged cannot start: $(tail -n 1 "$t/munge/log")"; return 0; }
  read -r node cpus < <(slurmd -C | awk '/^NodeName=/ { for (i = 1; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }; print v["NodeName"], v["CPUs"] }')
  port=$((20000 + RANDOM % 20000))
  cat >"$t/slurm.conf" <<CONF
ClusterName=wbtest
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$t/munge/sock
CredType=cred/munge
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmctldLogFile=$t/slurmctld.log
SlurmdLogFile=$t/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$node CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$t/slurm.conf
  { slurmctld -c && slurmd; } || { SLURM_SKIP="Slurm's daemons cannot start: $(tail -n 1 "$t/slurmctld.log" "$t/slurmd.log" 2>/dev/null | tr '\n' ' ')"; return 0; }
  for _ in $(seq 1 30); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 1; done
  sinfo -h -o %T 2>/dev/null | grep -q idle || { SLURM_SKIP="the Slurm node does not become idle: $(sinfo -h 2>&1 | head -n 1)"; return 0; }

  # The class: alice (the solution, graded), zoe.zip (corrupt: not graded); one student per task.
  local c=$BATS_FILE_TMPDIR/class unsafe=()
  mkdir -p "$c/alice" && cp -R "$WB_ROOT/solutions/01-allocation" "$c/alice/"
  echo 'not a zip archive' >"$c/zoe.zip"
  (. "$WB_ROOT/grader/lib/sandbox.sh" && sandbox_available) || unsafe=(UNSAFE=1)
  # The jobs get this PATH: without Bats's libexec, which Bats puts first (its bats there needs the function
  # that the bats on PATH exports; an instructor's shell has neither).
  PATH=$(tr ':' '\n' <<<"$PATH" | grep -vxF "$BATS_LIBEXEC" | paste -sd :) \
    make -s -C "$WB_ROOT" grade CLASS="$c" LESSON=1 BACKEND=cpu SCHEDULER=slurm OUT="$BATS_FILE_TMPDIR/runs/slurm" "${unsafe[@]}" \
    >"$BATS_FILE_TMPDIR/submit.out" 2>&1 || echo "status $?" >>"$BATS_FILE_TMPDIR/submit.out"
  # The same class graded locally meanwhile, for comparison.
  make -s -C "$WB_ROOT" grade CLASS="$c" LESSON=1 BACKEND=cpu FORCE=1 OUT="$BATS_FILE_TMPDIR/local/run" "${unsafe[@]}" \
    >"$BATS_FILE_TMPDIR/local.out" 2>&1 || echo "status $?" >>"$BATS_FILE_TMPDIR/local.out" &
  # Wait for the merging job (at most 150 s: one grading of lesson 1, on a busy machine).
  local merge
  merge=$(tail -n 1 "$BATS_FILE_TMPDIR/runs/slurm/slurm/jobs" 2>/dev/null) || return 0
  scontrol show job "$merge" >"$BATS_FILE_TMPDIR/merge-job" 2>&1 || true
  for _ in $(seq 1 150); do
    state=$(scontrol show job "$merge" 2>/dev/null | grep -o 'JobState=[A-Z_]*' || echo JobState=GONE)
    case $state in JobState=PENDING | JobState=RUNNING | JobState=CONFIGURING | JobState=COMPLETING) sleep 1 ;; *) break ;; esac
  done
  echo "$state" >"$BATS_FILE_TMPDIR/merge-state"
  wait # for the local run
}

teardown_file() {
  local t=$BATS_FILE_TMPDIR/slurm f
  local pids=()
  for f in "$t/slurmd.pid" "$t/slurmctld.pid" "$t/munge/pid"; do
    [ ! -s "$f" ] || pids+=("$(cat "$f")")
  done
  [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true
  # Gone before Bats removes their folder (they write their state as they stop).
  # (A daemon's parent is init, which in a container may never reap it: a zombie has stopped.)
  local alive
  for _ in $(seq 1 20); do
    alive=0
    for f in "${pids[@]}"; do grep -qs '^State:[[:space:]]*[^Z]' "/proc/$f/status" && alive=1; done
    [ "$alive" = 1 ] || break
    sleep 0.5
  done
}

setup() {
  load lib/helpers
  require_solutions
  [ -z "${SLURM_SKIP:-}" ] || skip "$SLURM_SKIP"
  RUN=$BATS_FILE_TMPDIR/runs/slurm
}

@test "SCHEDULER=slurm submits a job array, one task per student, and a job that waits for it (afterany)" {
  run cat "$BATS_FILE_TMPDIR/submit.out"
  refute_output --partial "status "
  assert_output --regexp 'job array [0-9]+ \(2 tasks, 1 student\(s\) each\) grades 2 students; job [0-9]+ then writes the outputs'
  # As it was just after the submission: waiting for the array.
  run cat "$BATS_FILE_TMPDIR/merge-job"
  assert_output --regexp "JobName=wb-merge"
  assert_output --regexp "Dependency=afterany:$(head -n 1 "$RUN/slurm/jobs")(_\\*)?\\(unfulfilled\\)"
  assert_file_exists "$RUN/slurm/task-0.log"
  assert_file_exists "$RUN/slurm/task-1.log"
}

@test "the merging job writes the same outputs as a local run: gradebook, scores, reports, results.json" {
  assert_equal "$(cat "$BATS_FILE_TMPDIR/merge-state")" JobState=COMPLETED
  local f
  for f in gradebook.csv scores.csv class.html run.log; do assert_file_exists "$RUN/$f"; done
  # The gradebooks and the scores agree (the folders are the same: a name's hash), and so do the files
  # handed back.
  assert_equal "$(cat "$RUN/gradebook.csv")" "$(cat "$BATS_FILE_TMPDIR/local/run/gradebook.csv")"
  assert_equal "$(cat "$RUN/scores.csv")" "$(cat "$BATS_FILE_TMPDIR/local/run/scores.csv")"
  for f in "$BATS_FILE_TMPDIR"/local/run/*/results.json; do
    f=${f#"$BATS_FILE_TMPDIR"/local/run/}
    cmp "$RUN/$f" "$BATS_FILE_TMPDIR/local/run/$f"
    assert_file_exists "$RUN/${f%/results.json}/report.txt"
    assert_file_exists "$RUN/${f%/results.json}/junit.xml"
  done
  assert_file_contains "$RUN/gradebook.csv" '^alice,17,17,'
  assert_file_contains "$RUN/gradebook.csv" '^zoe,0,17,'
  run cat "$RUN/slurm/merge.log"
  assert_output --regexp 'alice +17 / 17'
  assert_file_not_exists "$RUN/work"
}

@test "BACKEND=gpu asks each task for a GPU (--gres=gpu:1), JOBS limits the tasks at once, CHUNK groups students" {
  local bin=$BATS_TEST_TMPDIR/bin c=$BATS_FILE_TMPDIR/class
  mkdir -p "$bin"
  # A recording sbatch: what make grade asks of Slurm, without a GPU to run it on.
  printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>"%s/calls"\necho 4242\n' "$BATS_TEST_TMPDIR" >"$bin/sbatch" && chmod +x "$bin/sbatch"
  PATH=$bin:$PATH run make -s -C "$WB_ROOT" grade CLASS="$c" LESSON=1 BACKEND=gpu SCHEDULER=slurm JOBS=3 CHUNK=2 UNSAFE=1 \
    OUT="$BATS_TEST_TMPDIR/run"
  assert_success
  run cat "$BATS_TEST_TMPDIR/calls"
  assert_line --regexp '--gres=gpu:1 .*--array=0-0%3 '
  assert_line --regexp '--gres=gpu:1 .*--dependency=afterany:4242 '
}
