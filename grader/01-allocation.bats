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

# The memory checker's step, and its run's arguments: prime sizes drawn per grading (drawn_prime), the same
# for every step that asks the checker (a run that ended with a kernel's fault waits for it: ended_badly).
MEMCHECK_STEP=7
memcheck_args() { drawn_prime memcheck-n 1000 4000; }

# A normal run allocates exactly this: n floats in the data buffer (n = 1000000 by default) and one
# counter. The other size, chosen_n, is chosen when grading starts (WB_SEED fixes it), so that no printed
# line can be written in advance: every expected line is computed here, and checked against the trace.
# The calls the TODOs add, here the two allocations: the memory checker and the failure sweep grade
# how the work is done, so they need it done (expect_lesson_work).
LESSON_WORK="cudaMalloc=2"
N=1000000
BYTES=4000000

# run_n N: the normal run with n = N (the default size when N is the default), as RUN_DIR.
run_n() {
  if [ "$1" = "$N" ]; then run_program --name run --; else run_program --name "run-$1" -- "$1"; fi
}

# data_buffer N: the allocation (alloc#K) of the run's cudaMalloc of N floats; fails when there is none.
data_buffer() {
  local bytes=$(($1 * 4)) rec asked why
  rec=$(calls --first fn=cudaMalloc "bytes=$bytes" status=0)
  if [ -z "$rec" ]; then
    asked=$(calls --first fn=cudaMalloc status=0)
    asked=$(call_field "$asked" bytes)
    case $asked in
      8) why="8 bytes is sizeof(a pointer): the size must be n * sizeof(float)" ;;
      "$1") why="$1 is the number of floats: cudaMalloc counts bytes, n * sizeof(float)" ;;
      "") why="the TODO of step 2 is not written yet, or its cudaMalloc failed (it needs the address of the pointer: (void **)&d_data)" ;;
      *) why="the size is in bytes: n * sizeof(float)" ;;
    esac
    # A run this ended early is this step's finding: the steps that need it to end wait for this one. One
    # stopped (a crash, a time-out) is explained by how it stopped, not by the sizes it had asked for.
    ended_badly 0 "" --record
    [ "$RUN_NORMAL" = 1 ] || why=$(cause_of_run)
    fail "$(printf 'expected: with n = %s, a cudaMalloc of %s bytes that succeeds\nhappened: the program %s; its cudaMalloc calls:\n%s\nusual cause: %s' \
      "$1" "$bytes" "$RUN_HOW" "$(calls_of cudaMalloc)" "$why")" || return 1
  fi
  call_field "$rec" ptr
}


# The probe's questions, in the order it asks them: the printed answer's start, and the trace record
# that must have produced it (a call with these fields, after the previous answer's call).
PROBE_QUESTIONS=(
  "cudaMalloc(&p, 0)|fn=cudaMalloc bytes=0"
  "cudaFree(NULL)|fn=cudaFree ptr=null"
  "cudaMalloc(NULL, 16)|fn=cudaMalloc bytes=16 out=null"
  "cudaFree of a freed pointer|fn=cudaFree ptr=freed#*"
  "cudaFree of a host pointer|fn=cudaFree ptr=host"
  "cudaGetLastError|fn=cudaGetLastError|then"
  "cudaMalloc of 2^50 bytes|fn=cudaMalloc bytes=1125899906842624"
  "cudaMalloc of 16 bytes after that|fn=cudaMalloc bytes=16"
)

# probe_answers: the probe run's answers, each from its own call (sets ANSWER_NS).
probe_answers() { expect_answers "${PROBE_QUESTIONS[@]}"; }

# hint: Build it yourself with `make run LESSON=1`. The build uses -Wall -Wextra: a warning about an
# hint: unused variable often means a step is not written yet.
@test "step 1: compiles cleanly, without warnings (1 point)" {
  expect_clean_build
}

# hint: cudaMalloc sets your pointer, so it takes the pointer's address: (void **)&d_data. Its size is
# hint: in bytes: n elements of sizeof(float) each. Check what it returns before using the pointer.
@test "step 2: allocates a device buffer of exactly n floats (2 points)" {
  local n
  require_program
  for n in "$N" "$(chosen_n)"; do
    run_n "$n"
    data_buffer "$n" >/dev/null
    expect_exit 0
    expect_printed "allocated $((n * 4)) bytes for $n floats" "the message must print the bytes and the element count it allocated, for n, the program's argument"
  done
}

# hint: A buffer you reuse still holds what was last written to it: cudaMemset(ptr, 0, bytes) clears
# hint: it. Like cudaMalloc, cudaMemset counts bytes, not elements.
@test "step 3: clears the reused buffer with cudaMemset (2 points)" {
  local n buf fill clear add count copy scale
  require_program
  n=$(chosen_n)
  run_n "$n"
  buf=$(data_buffer "$n")
  expect_call cudaMemset "dst=$buf" "bytes=$((n * 4))" value=0 status=0 --because \
    "the buffer was not cleared, or only partly, or with another byte than 0: cudaMemset(ptr, 0, bytes) counts bytes, n * sizeof(float)"
  fill=$(first_n fn=cudaLaunchKernel kernel=fill "args=$buf,*")
  clear=$(calls fn=cudaMemset "dst=$buf" "bytes=$((n * 4))" value=0 | awk -F '\t' -v f="${fill:-0}" '$1 > f' | head -n 1 | cut -f1)
  add=$(calls fn=cudaLaunchKernel kernel=add "args=$buf,*" | awk -F '\t' -v c="${clear:-0}" '$1 > c' | head -n 1 | cut -f1)
  [ -n "$clear" ] && [ -n "$add" ] ||
    fail "$(printf 'expected: the memset of %s between the provided fill and add launches\nhappened: the calls on it were:\n%s\nusual cause: the clear is not where the TODO is' "$buf" "$(calls "dst=$buf"; calls "args=$buf,*" | cut -f1-2,7 | sed 's/^/    /')")"
  count=$(calls fn=cudaLaunchKernel kernel=count_equal "args=$buf,*" | awk -F '\t' -v a="$add" '$1 > a' | head -n 1)
  # The count printed is the device's: its counter copied back after count_equal, and printed after that.
  copy=$(calls "fn=cudaMemcpy*" "src=$(call_field "$count" args | sed 's/.*,//')" status=0 |
    awk -F '\t' -v c="$(call_field "$count" n)" '$1 > c && $2 ~ /^cudaMemcpy(Async)?$/ && $7 ~ / moved=DeviceToHost/' | head -n 1)
  [ -n "$count" ] && [ -n "$copy" ] && follows "$(call_field "$count" n)" "$(call_field "$copy" n)" ||
    fail "expected: the count of ones computed on the device (count_equal on $buf) and copied back after it; happened: the trace has no such launch and copy"
  expect_exit 0
  expect_waited "the copy of the count back" "cleared, then added 1: " \
    "the count was read before the copy that brings it back had finished" "$(call_field "$copy" n)"
  expect_printed "cleared, then added 1: $n of $n elements are 1" \
    "the buffer was not cleared, or only partly: cudaMemset counts bytes, so clearing n floats takes n * sizeof(float)"
  # The provenance run (lib/grading.bash): the counter scaled on its way back; the line must print it so.
  provenance_run "provenance-$n" i32 "$n"
  copy=$(calls "fn=cudaMemcpy*" moved=DeviceToHost bytes=4 status=0 | tail -n 1)
  scale=$(call_field "$copy" scale)
  expect_provenance "cleared, then added 1: $((n * ${scale:-1})) of $n elements are 1" "the counter copied back by ${scale:-1}"
}

# hint: cudaMemGetInfo(&free, &total) reports the device's free memory now. Ask once before the
# hint: allocations and once after them; compare the free values, not the totals.
@test "step 4: measures free device memory before and after allocating (2 points)" {
  local n before after alloc dropped
  require_program
  # Two sizes: the chosen one, and the default (4 MB), whose drop is at least its size on every device we
  # know. A small buffer may fit in memory the device had already set aside for the counter (the H200
  # gives memory in 2 MiB pages), so its right answer can be "no": a program that always says "no" must
  # still meet a "yes".
  for n in $(printf '%s\n' "$(chosen_n)" "$N" | sort -u); do
    run_n "$n"
    alloc=$(first_n fn=cudaMalloc "bytes=$((n * 4))" status=0)
    [ -n "$alloc" ] || data_buffer "$n" >/dev/null
    before=$(calls fn=cudaMemGetInfo status=0 | awk -F '\t' -v a="$alloc" '$1 < a' | tail -n 1)
    after=$(calls fn=cudaMemGetInfo status=0 | awk -F '\t' -v a="$alloc" '$1 > a' | head -n 1)
    [ -n "$before" ] && [ -n "$after" ] ||
      fail "$(printf 'expected: a cudaMemGetInfo before the cudaMalloc of %s bytes and one after it\nhappened: its cudaMemGetInfo calls:\n%s\nusual cause: the two cudaMemGetInfo calls must bracket the allocations' "$((n * 4))" "$(calls_of cudaMemGetInfo)")"
    # The answer is what the two calls' values say, whatever the device: another process on the same GPU
    # may free memory between them (free memory is the whole device's), and then the right answer is "no".
    dropped=$(( $(call_field "$before" free) - $(call_field "$after" free) ))
    expect_exit 0
    expect_printed "free device memory dropped by at least $((n * 4)) bytes: $([ "$dropped" -ge $((n * 4)) ] && echo yes || echo no)" \
      "the drop is free_before - free_after, from the two cudaMemGetInfo calls (here $dropped bytes), compared with the bytes allocated"
  done
}

# hint: Make each call the question names and print what it returns; the chapter's tables say
# hint: what a real H200 answers. cudaGetLastError returns the last error once, then cudaSuccess.
@test "step 5: answers the probe's questions as the CUDA runtime does (3 points)" {
  require_program
  run_program --name probe -- --probe
  expect_exit 0
  probe_answers
  expect_output "$(expected_file probe.out)" \
    "a question asked with other arguments than it names, or a call on the wrong pointer"
}

# hint: Free every buffer in one cleanup block that every exit path reaches (goto cleanup), and free
# hint: nothing twice: a pointer freed before the cleanup must be set to NULL.
@test "step 6: frees every device buffer exactly once (2 points)" {
  require_program
  run_program --name run --
  expect_exit 0
  expect_no_leaks
  expect_no_invalid_frees
  expect_probe_frees_asked
}

# hint: The memory checker (compute-sanitizer, or the CPU backend's) reports any access outside an
# hint: allocation, even the small overruns a real GPU lets pass: a kernel or copy that reaches one past the end.
@test "step 7: runs clean under the memory checker (2 points)" {
  require_program
  expect_memcheck_clean
}

# hint: When an allocation or any other CUDA call fails: print one line "error: CALL of N bytes failed: <cudaGetErrorString>"
# hint: on stderr, free what is already allocated (goto cleanup), and exit with status 1.
@test "step 8: survives running out of device memory (3 points)" {
  require_program
  expect_real_oom
  fault_sweep --lesson-work "$(chosen_n)"
  run_program --name probe -- --probe
  expect_answers --find "${PROBE_QUESTIONS[@]}"
  fault_sweep --name sweep-probe --skip "$ANSWER_NS" -- --probe
}
