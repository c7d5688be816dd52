#!/usr/bin/env bats
# Grader for lesson 02, copy directions: one @test per graded step, its points in its name.
# The "# hint:" lines above a step are what `make hint LESSON=2` prints while the step is not passed.

setup_file() {
  load lib/grading
  lesson_setup_file
}

setup() {
  load lib/grading
}

# Pinned host-to-device copies must be at least this many times as fast as pageable ones (H200: ~7.8).
MIN_RATIO=3

# expect_copies_ran: the last run exited 0. When a cudaMemcpy failed, the message says what makes one fail.
expect_copies_ran() {
  local line
  line=$(grep -m1 '^error: cudaMemcpy' "$RUN_DIR/stderr" 2>/dev/null || true)
  if [ "$RUN_NORMAL" = 1 ] && [ "$RUN_STATUS" -ne 0 ] && [ -n "$line" ]; then
    fail "$(printf 'expected: every copy succeeds and the program exits with status 0\nhappened: %s\nusual cause: a cudaMemcpyKind that does not match the pointers (host to device is cudaMemcpyHostToDevice: destination on the device, source on the host); cudaMemcpy then returns cudaErrorInvalidValue and copies nothing. A device pointer already freed, or a count past the end of a buffer, fails the same way' "$line")"
  fi
  expect_exit 0
}

# run_case NAME: the normal run NAME: "run" (the default n, 1000000 floats) or "run-1000" (n = 1000).
run_case() {
  case $1 in
    run) run_program --name run -- ;;
    run-1000) run_program --name run-1000 -- 1000 ;;
  esac
}

# hint: Build it yourself with `make run LESSON=2`. The build uses -Wall -Wextra: a warning about an
# hint: unused variable often means a step is not written yet.
@test "step 1: compiles cleanly, without warnings (1 point)" {
  expect_clean_build
}

# hint: cudaMemcpy(dst, src, bytes, kind) copies from src to dst, destination first like memcpy, and
# hint: the kind names the direction: host to device is cudaMemcpyHostToDevice. Check what it returns.
@test "step 2: copies to the device with the kind that matches the pointers (3 points)" {
  require_program
  run_case run
  expect_copies_ran
  expect_line "host to device: first float " "$(expected_file run.out)" \
    "nothing reached d_a: the copy host to device is missing, or it failed unchecked (a kind that does not match the pointers copies nothing)"
  expect_line "device to device: first float " "$(expected_file run.out)" \
    "nothing reached d_b: the copy from d_a to d_b is missing, goes the wrong way (destination first), or failed unchecked"
}

# hint: cudaMemcpy counts bytes, not elements: n floats are n * sizeof(float) bytes. A count of n copies
# hint: a quarter of the floats, and cudaMemcpy still returns cudaSuccess.
@test "step 3: copies whole buffers: counts bytes, not elements (2 points)" {
  local name prefix
  require_program
  for name in run run-1000; do
    run_case "$name"
    expect_copies_ran
    for prefix in "host to device: checksum " "device to device: checksum "; do
      expect_line "$prefix" "$(expected_file "$name.out")" \
        "the copy moved less than the whole buffer: the count is in bytes, n * sizeof(float), not n (a checksum of a quarter of the expected one is the sign of a count in elements; 0, of no copy at all)"
    done
  done
}

# hint: The host sees the GPU's results only after a device-to-host copy brings them back: read h_pinned
# hint: (or h_pageable) after the cudaMemcpy that fills it, never before.
@test "step 4: reads the results only after copying them back to the host (2 points)" {
  local name prefix
  require_program
  for name in run run-1000; do
    run_case "$name"
    expect_copies_ran
    for prefix in "plus 1 on the device, device to host: first float " "plus 1 on the device, device to host: checksum " \
      "device to host with cudaMemcpyDefault: first float " "device to host with cudaMemcpyDefault: checksum "; do
      expect_line "$prefix" "$(expected_file "$name.out")" \
        "the host buffer was read before the device-to-host copy filled it (zeros, or the old data, are the sign), or the copy back is missing or moves elements instead of bytes"
    done
  done
}

# hint: Make each copy with the pointers and the kind its question names, and print what it returns; the
# hint: chapter's table says what a real H200 answers, including the one wrong kind that works.
@test "step 5: answers the probe's questions as the CUDA runtime does (3 points)" {
  require_program
  run_program --name probe -- --probe
  expect_exit 0
  expect_output "$(expected_file probe.out)" \
    "an answer typed in instead of asked of the runtime, a copy with other pointers or another kind than its question names, or a destination not cleared between questions (a failed copy then looks copied)"
}

# hint: Free each buffer once, with the call that matches how it was allocated: cudaFree for cudaMalloc,
# hint: cudaFreeHost for cudaMallocHost, free for malloc; all in the one cleanup every path reaches.
@test "step 6: frees each buffer once, with the call matching its allocator (2 points)" {
  require_program
  run_case run
  expect_copies_ran
  expect_no_invalid_frees
  expect_no_leaks
  run_program --name probe -- --probe
  expect_exit 0
  expect_no_leaks
}

# hint: The memory checker (compute-sanitizer, or the CPU backend's) reports any access outside an
# hint: allocation, even the small overruns a real GPU lets pass, and any allocation never freed.
@test "step 7: runs clean under the memory checker (2 points)" {
  require_program
  expect_memcheck_clean 1000
}

# hint: Time the copies with cudaEventRecord before and after them, cudaEventSynchronize on the second
# hint: event, then cudaEventElapsedTime. The pinned copies must read the buffer from cudaMallocHost.
@test "step 8: copies from pinned memory at least 3x as fast as pageable (2 points)" {
  local ratio times
  require_program
  require_real_gpu "timing copies"
  run_program --name bandwidth -- --bandwidth
  expect_copies_ran
  expect_no_leaks
  times=$(grep -E '^(pageable|pinned): ' "$RUN_DIR/stdout" | tr '\n' ';' | sed 's/;$//; s/;/; /g')
  grep -qx 'copied data checked: yes' "$RUN_DIR/stdout" ||
    fail "$(printf 'expected: the line "copied data checked: yes" (the device buffer holds the host data after the timed copies)\nhappened: %s\nusual cause: the timed copies move fewer bytes than the buffer, or copy into another buffer' \
      "$(grep -m1 '^copied data checked' "$RUN_DIR/stdout" || echo "no such line")")"
  ratio=$(sed -n 's/^pinned\/pageable: \([0-9.]*\)x$/\1/p' "$RUN_DIR/stdout")
  [ -n "$ratio" ] ||
    fail "$(printf 'expected: a line "pinned/pageable: R.Rx"\nhappened: the program printed:\n%s\nusual cause: the bandwidth mode is not written yet (step 8 TODO)' "$(excerpt "$RUN_DIR/stdout" 8)")"
  awk -v r="$ratio" -v min="$MIN_RATIO" 'BEGIN { exit !(r >= min) }' ||
    fail "$(printf 'expected: copies from pinned memory at least %sx as fast as from pageable memory (the H200: about 7.8x)\nhappened: measured %sx (%s)\nusual cause: the "pinned" copies read a malloc buffer (pinned memory comes from cudaMallocHost), the two timings are swapped, or the events do not bracket the copies' \
      "$MIN_RATIO" "$ratio" "$times")"
}

# hint: When an allocation fails: print one line "error: cudaMalloc of N bytes failed: <cudaGetErrorString>"
# hint: (cudaMallocHost the same) on stderr, free what is already allocated (goto cleanup), and exit with status 1.
@test "step 9: survives running out of device memory (3 points)" {
  require_program
  expect_real_oom
  fault_sweep
}
