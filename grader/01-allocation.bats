#!/usr/bin/env bats
# Grader for lesson 01, device allocation: one @test per graded step, its points in its name.
# The "# hint:" lines above a step are what `make hint LESSON=1` prints while the step is not passed.

setup_file() {
  load lib/grading
  lesson_setup_file
}

setup() {
  load lib/grading
}

# A normal run allocates exactly this: n floats in d_data (n = 1000000 by default) and one counter.
N=1000000
BYTES=4000000

# hint: Build it yourself with `make run LESSON=1`. The build uses -Wall -Wextra: a warning about an
# hint: unused variable often means a step is not written yet.
@test "step 1: compiles cleanly, without warnings (1 point)" {
  expect_clean_build
}

# hint: cudaMalloc sets your pointer, so it takes the pointer's address: (void **)&d_data. Its size is
# hint: in bytes: n elements of sizeof(float) each. Check what it returns before using the pointer.
@test "step 2: allocates a device buffer of exactly n floats (2 points)" {
  require_program
  run_program --name run --
  grep -q '^call .* fn=cudaMalloc ' "$RUN_DIR/report" 2>/dev/null ||
    fail "$(printf 'expected: a cudaMalloc of %s bytes (%s floats)\nhappened: the program made no cudaMalloc call; it %s\nusual cause: the TODO of step 2 is not written yet' "$BYTES" "$N" "$RUN_HOW")"
  if grep -q '^call n=1 fn=cudaMalloc .*status=1 ' "$RUN_DIR/report"; then
    fail "$(printf 'expected: cudaMalloc succeeds\nhappened: %s\nusual cause: cudaMalloc writes the new address into your pointer, so it needs the address of the pointer: (void **)&d_data, not d_data' "$(head -n1 "$RUN_DIR/stderr")")"
  fi
  local asked
  asked=$(awk '$1 == "call" && /fn=cudaMalloc / && /status=0/' "$RUN_DIR/report" | sed -n 's/.* bytes=\([0-9]*\).*/\1/p' | head -n1)
  if ! grep -q "fn=cudaMalloc bytes=$BYTES status=0" "$RUN_DIR/report"; then
    case $asked in
      8) why="8 bytes is sizeof(a pointer): the size must be n * sizeof(float)" ;;
      "$N") why="$N is the number of floats: cudaMalloc counts bytes, n * sizeof(float)" ;;
      *) why="the size is in bytes: n * sizeof(float)" ;;
    esac
    fail "$(printf 'expected: a cudaMalloc of %s bytes (%s floats)\nhappened: the first cudaMalloc asked for %s bytes\nusual cause: %s' "$BYTES" "$N" "${asked:-no}" "$why")"
  fi
  expect_exit 0
  expect_line "allocated " "$(expected_file run.out)" "the message must print the bytes and the element count it allocated"
  run_program --name run-1000 -- 1000
  expect_exit 0
  expect_line "allocated " "$(expected_file run-1000.out)" "the size must follow n, the program's argument"
}

# hint: A buffer you reuse still holds what was last written to it: cudaMemset(ptr, 0, bytes) clears
# hint: it. Like cudaMalloc, cudaMemset counts bytes, not elements.
@test "step 3: clears the reused buffer with cudaMemset (2 points)" {
  require_program
  run_program --name run --
  expect_exit 0
  expect_line "cleared, then added 1: " "$(expected_file run.out)" \
    "the buffer was not cleared, or only partly: cudaMemset counts bytes, so clearing n floats takes n * sizeof(float)"
}

# hint: cudaMemGetInfo(&free, &total) reports the device's free memory now. Ask once before the
# hint: allocations and once after them; compare the free values, not the totals.
@test "step 4: measures free device memory before and after allocating (2 points)" {
  require_program
  run_program --name run --
  expect_exit 0
  expect_line "free device memory dropped by at least " "$(expected_file run.out)" \
    "the two cudaMemGetInfo calls must bracket the allocations, and the drop is free_before - free_after"
}

# hint: Make each call the question names and print what it returns; the chapter's tables say
# hint: what a real H200 answers. cudaGetLastError returns the last error once, then cudaSuccess.
@test "step 5: answers the probe's questions as the CUDA runtime does (3 points)" {
  require_program
  run_program --name probe -- --probe
  expect_exit 0
  expect_output "$(expected_file probe.out)" \
    "an answer typed in instead of asked of the runtime, cudaPeekAtLastError used where cudaGetLastError clears the error, or a call on the wrong pointer"
}

# hint: Free every buffer in one cleanup block that every exit path reaches (goto cleanup), and free
# hint: nothing twice: a pointer freed before the cleanup must be set to NULL.
@test "step 6: frees every device buffer exactly once (2 points)" {
  require_program
  run_program --name run --
  expect_exit 0
  expect_no_leaks
  expect_no_invalid_frees
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

# hint: When an allocation fails: print one line "error: cudaMalloc of N bytes failed: <cudaGetErrorString>"
# hint: on stderr, free what is already allocated (goto cleanup), and exit with status 1.
@test "step 8: survives running out of device memory (3 points)" {
  require_program
  expect_real_oom
  oom_sweep
}
