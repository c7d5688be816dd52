# gpu-turns.sh: gradings that share one GPU (make grade JOBS=N, tests/gpu/verdicts.sh) take turns where it
# matters, sourced by lib/grading.bash.
# Measured on the H200 (tests/gpu/README.md, 2026-12-06): with fourteen gradings side by side, the steps that
# fill device memory or time work failed for correct programs: one program's fill (lesson 07's cuBLAS
# out-of-memory run leaves 32 MiB free) made the others' allocations fail, and the others' kernels ran
# inside a timed span. So on a GPU every run takes a shared turn, and a run that fills device memory or is
# timed takes one alone: it waits until the runs in flight have ended, and none starts before it is done.
# A turnstile in front of the lock lets a waiting "alone" run in before shared runs that come after it
# (flock by itself lets a steady stream of shared turns starve it).
# The CPU backend needs none of it: each program there simulates a device of its own.

# shellcheck shell=bash

# The lock files: one pair per GPU a grading can see (CUDA_VISIBLE_DEVICES), for every clone and user of
# the machine. Read-only descriptors are enough for flock, so a file another user made serves as well.
gpu_turn_files() {
  local dir=${WB_GPU_TURN_DIR:-/tmp} devices=${CUDA_VISIBLE_DEVICES-all}
  devices=${devices//[^0-9A-Za-z,-]/_}
  printf '%s\n' "$dir/cuda-workbook-gpu-${devices:-none}.turnstile" "$dir/cuda-workbook-gpu-${devices:-none}.lock"
}

# gpu_turn_open FILE: prints nothing; sets WB_TURN_FD to a read-only descriptor of FILE (made world-readable
# and -writable when missing), or returns 1.
gpu_turn_open() {
  [ -e "$1" ] || (umask 0 && : >>"$1") 2>/dev/null
  # In braces: a redirection written on exec itself would stay, and 2>/dev/null there silenced every message
  # the step printed after its first run (on a GPU, failed steps showed no reason).
  { exec {WB_TURN_FD}<"$1"; } 2>/dev/null
}

# gpu_turn_take shared|alone: waits for the turn (at most WB_GPU_TURN_WAIT s, 900 by default: a queue of
# runs alone, each at most a run's time limit) and holds it until gpu_turn_give. Where the lock cannot be
# had (no flock, files that cannot be opened, the wait over), the run goes ahead without it.
WB_GPU_TURN_FDS=()
gpu_turn_take() {
  local how=$1 wait=${WB_GPU_TURN_WAIT:-900} turnstile lock t l
  WB_GPU_TURN_FDS=()
  command -v flock >/dev/null 2>&1 || return 0
  { read -r turnstile; read -r lock; } < <(gpu_turn_files)
  gpu_turn_open "$turnstile" || return 0
  t=$WB_TURN_FD
  gpu_turn_open "$lock" || { exec {t}<&-; return 0; }
  l=$WB_TURN_FD
  if ! flock -x -w "$wait" "$t"; then exec {t}<&- {l}<&-; return 0; fi
  if [ "$how" = alone ]; then
    # Holding the turnstile keeps new shared turns out while the ones in flight end.
    flock -x -w "$wait" "$l" || { exec {t}<&- {l}<&-; return 0; }
    WB_GPU_TURN_FDS=("$t" "$l")
  else
    flock -s -w "$wait" "$l" || { exec {t}<&- {l}<&-; return 0; }
    exec {t}<&-
    WB_GPU_TURN_FDS=("$l")
  fi
}

# gpu_turn_give: ends the turn gpu_turn_take began (closing the descriptors releases their locks).
gpu_turn_give() {
  local fd
  for fd in "${WB_GPU_TURN_FDS[@]}"; do exec {fd}<&-; done
  WB_GPU_TURN_FDS=()
}
