#!/usr/bin/env bats
# Grader for lesson 03, synchronization: one @test per graded step, its points in its name.
# The "# hint:" lines above a step are what `make hint LESSON=3` prints while the step is not passed.

setup_file() {
  load lib/grading
  lesson_setup_file
}

setup() {
  load lib/grading
}

# The pipeline must be at least this many times faster than the serial version, in the same run.
MIN_SPEEDUP=1.3

# hint: Build it yourself with `make run LESSON=3`. The build uses -Wall -Wextra: a warning about an
# hint: unused variable often means a step is not written yet.
@test "step 1: compiles cleanly, without warnings (1 point)" {
  expect_clean_build
}

# hint: A launch returns before the kernel has run; slow_fill writes 50 ms later. A blocking cudaMemcpy
# hint: waits for the kernels before it on the default stream; managed memory needs an explicit wait
# hint: (cudaDeviceSynchronize) before the host reads it.
@test "step 2: waits for the kernel before reading its results on the host (2 points)" {
  require_program
  run_program --name run --
  expect_exit 0
  expect_line "launch returned before the kernel finished: " "$(expected_file run.out)" \
    "the program waited for the device between the launch and cudaStreamQuery"
  expect_line "copied back with cudaMemcpy: " "$(expected_file run.out)" \
    "the results were not copied back, or copied with cudaMemcpyAsync and never waited for: only the blocking cudaMemcpy waits by itself"
  expect_line "managed memory read by the host: " "$(expected_file run.out)" \
    "the host read managed memory before the kernel had written it: call cudaDeviceSynchronize after the launch, before reading"
  run_program --name run-1000 -- 1000
  expect_exit 0
  expect_line "copied back with cudaMemcpy: " "$(expected_file run-1000.out)" "the copy must cover n floats, n * sizeof(float) bytes"
  expect_line "managed memory read by the host: " "$(expected_file run-1000.out)" "the wait must come before the read"
}

# hint: cudaStreamSynchronize(s) waits for the work queued on s, and only that: waiting for another
# hint: stream, one that is idle, returns at once.
@test "step 3: waits for the stream that did the work (2 points)" {
  require_program
  run_program --name run --
  expect_exit 0
  expect_line "stream 1's copy read by the host: " "$(expected_file run.out)" \
    "the host read h_out before stream[1] had finished its kernel and its copy: cudaStreamSynchronize(stream[1]), not another stream"
}

# hint: An event is a mark in one stream: cudaEventRecord(done, s) after the copy, in the copy's stream,
# hint: then cudaEventSynchronize(done). Recorded in an idle stream, it is reached at once.
@test "step 4: waits on an event recorded behind the copy (2 points)" {
  require_program
  run_program --name run --
  expect_exit 0
  expect_line "the copy behind the event read by the host: " "$(expected_file run.out)" \
    "the event was not recorded, recorded in another stream than the copy (stream[0]), or not waited for"
}

# hint: Device printf writes into a buffer that the host prints at the next synchronizing call. A program
# hint: that returns first prints nothing from the kernel.
@test "step 5: synchronizes so that the device's printf appears (1 point)" {
  require_program
  run_program --name printf -- --printf
  expect_exit 0
  expect_line "device: " "$(expected_file printf.out)" \
    "no synchronizing call (cudaDeviceSynchronize) between the launch and the return: the kernel's line is lost when the program ends first"
  expect_line "host: " "$(expected_file printf.out)" "read the program's own error message"
}

# hint: Each chunk goes in (cudaMemcpyAsync from h_in), through busy, and out (cudaMemcpyAsync into
# hint: h_piped) in one stream, stream[c % STREAMS]; the last chunk may be shorter. Wait for everything
# hint: before reading h_piped.
@test "step 6: pipelines the chunks with the serial run's results (2 points)" {
  require_program
  run_program --name run --
  expect_exit 0
  expect_line "pipeline of " "$(expected_file run.out)" \
    "a chunk not copied in or out, the kernel not run on it, or h_piped read before the stop event was waited for"
  run_program --name run-1001 -- 1001
  expect_exit 0
  expect_line "pipeline of " "$(expected_file run-1001.out)" \
    "with 1001 floats the last chunk holds 119, not 126: its size must be n - first"
}

# hint: Copies overlap with kernels only from pinned memory (cudaMallocHost) and only when they are in
# hint: different streams: pageable memory or a single stream makes the pipeline as slow as the serial run.
@test "step 7: the pipeline is at least 1.3x faster than the serial version (2 points)" {
  require_program
  require_real_gpu "the pipeline's speed-up"
  local line speedup
  run_program --name pipeline -- --pipeline
  expect_exit 0
  expect_line "pipeline of " "$(expected_file pipeline.out)" \
    "the pipeline must give the serial run's results before its time means anything (step 6)"
  line=$(grep -m1 '^serial: ' "$RUN_DIR/stdout" || true)
  speedup=$(sed -n 's/.*speed-up: \([0-9.]*\)x$/\1/p' <<<"$line")
  [ -n "$speedup" ] ||
    fail "$(printf 'expected: a line "serial: S ms, pipelined: P ms, speed-up: Rx"\nhappened: %s\nusual cause: the line that prints the times was changed' "${line:-no such line}")"
  awk -v r="$speedup" -v m="$MIN_SPEEDUP" 'BEGIN { exit !(r >= m) }' && return 0
  fail "$(printf 'expected: the pipeline at least %sx faster than the serial version\nhappened: %s (speed-up %sx)\nusual cause: host buffers from malloc (pageable: an async copy then waits for the kernel and copies through a bounce buffer), or every chunk on the same stream' \
    "$MIN_SPEEDUP" "$line" "$speedup")"
}

# hint: Free every buffer in the one cleanup block that every path reaches: cudaFree for device and
# hint: managed memory, cudaFreeHost for pinned memory; destroy the streams and events there too.
@test "step 8: frees every buffer exactly once and destroys its streams and events (2 points)" {
  require_program
  run_program --name run --
  expect_exit 0
  expect_no_leaks
  expect_no_invalid_frees
}

# hint: The memory checker (compute-sanitizer, or the CPU backend's) reports any access outside an
# hint: allocation, even the small overruns a real GPU lets pass, and any allocation never freed.
@test "step 9: runs clean under the memory checker (2 points)" {
  require_program
  expect_memcheck_clean 1001
}

# hint: When an allocation fails: print one line "error: cudaMalloc of N bytes failed: <cudaGetErrorString>"
# hint: on stderr (the call's own name: cudaMallocManaged, cudaMallocHost), free what is already held
# hint: (goto cleanup), and exit with status 1.
@test "step 10: survives running out of device memory (3 points)" {
  require_program
  expect_real_oom
  fault_sweep
}
