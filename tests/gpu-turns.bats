#!/usr/bin/env bats
# grader/lib/gpu-turns.sh: gradings that share a GPU take turns; a run alone overlaps no other run.

setup() {
  load lib/helpers
  export WB_GPU_TURN_DIR=$BATS_TEST_TMPDIR
  log=$BATS_TEST_TMPDIR/turns.log
}

# turn HOW SECONDS NAME: holds a turn for SECONDS and logs "NAME HOW START END" (microseconds).
turn() {
  # shellcheck source=grader/lib/gpu-turns.sh
  . "$WB_ROOT/grader/lib/gpu-turns.sh"
  gpu_turn_take "$1"
  local start=${EPOCHREALTIME//[!0-9]/}
  sleep "$2"
  local end=${EPOCHREALTIME//[!0-9]/}
  gpu_turn_give
  echo "$3 $1 $start $end" >>"$log"
}

# overlaps: prints every pair of logged turns that overlap in time where one of them was alone.
overlaps() {
  awk '{ n[NR] = $1; h[NR] = $2; s[NR] = $3; e[NR] = $4 }
    END { for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++)
      if ((h[i] == "alone" || h[j] == "alone") && s[i] < e[j] && s[j] < e[i]) print n[i], "overlaps", n[j] }' "$log"
}

@test "shared turns run side by side, and a turn alone overlaps none of them" {
  for r in 1 2 3 4; do
    (for i in 1 2 3 4 5; do turn shared 0.1 "reader$r.$i"; done) &
  done
  sleep 0.15
  turn alone 0.2 writer1 &
  turn alone 0.2 writer2 &
  wait
  assert_equal "$(wc -l <"$log")" 22
  run overlaps
  assert_output ""
  # shared turns did overlap one another: the lock is not simply exclusive
  run awk '$2 == "shared" { s[NR] = $3; e[NR] = $4 } END { for (i in s) for (j in s) if (i < j && s[i] < e[j] && s[j] < e[i]) { print "yes"; exit } }' "$log"
  assert_output yes
}

@test "a turn alone that waits goes before shared turns asked for after it" {
  turn shared 0.6 first &
  sleep 0.1
  turn alone 0.2 writer &
  sleep 0.1
  turn shared 0.1 later &
  wait
  run awk '{ s[$1] = $3; e[$1] = $4 } END { print (s["writer"] >= e["first"] && s["later"] >= e["writer"]) ? "in order" : "out of order" }' "$log"
  assert_output "in order"
}

# shellcheck disable=SC2030,SC2031 # each test sets its own folder
@test "where the lock cannot be had, the run goes ahead without it" {
  export WB_GPU_TURN_DIR=$BATS_TEST_TMPDIR/no/such/folder
  SECONDS=0
  turn alone 0.1 writer
  turn shared 0.1 reader
  assert_equal "$(wc -l <"$log")" 2
  [ "$SECONDS" -lt 5 ]
}

@test "taking and giving a turn leaves the step's stderr as it was: its messages still reach the report" {
  run bash -c '. "$1/grader/lib/gpu-turns.sh"; gpu_turn_take shared; echo "to stderr" >&2; gpu_turn_give; echo "again" >&2' _ "$WB_ROOT"
  assert_output "to stderr
again"
}

@test "each set of visible GPUs has its own lock" {
  . "$WB_ROOT/grader/lib/gpu-turns.sh"
  a=$(CUDA_VISIBLE_DEVICES=0 gpu_turn_files) b=$(CUDA_VISIBLE_DEVICES=1 gpu_turn_files)
  [ "$a" != "$b" ]
  run env CUDA_VISIBLE_DEVICES='../x' bash -c ". '$WB_ROOT/grader/lib/gpu-turns.sh'; gpu_turn_files"
  refute_output --partial "../"
}
