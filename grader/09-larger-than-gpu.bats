#!/usr/bin/env bats
# Grader for lesson 09, a data set larger than the GPU: one @test per graded step, its points in its name.
# The "# hint:" lines above a step are what `make hint LESSON=9` prints while the step is not passed.

setup_file() {
  load lib/grading
  lesson_setup_file
}

setup() {
  load lib/grading
  load 09-larger-than-gpu/budget
}

# The calls the TODOs add: the chunks' copies and launches, the buffers' allocations (the skeleton makes none
# of them). The failure sweep grades how the work is done, so it needs it done.
LESSON_WORK="cudaMemcpy|cudaMemcpyAsync=3 cudaLaunchKernel=2 cudaMalloc=3"
# The speed-up two streams must give the pipeline over 2^28 values (64 chunks of 2^22), copied from the data
# set in pinned memory, against one stream that waits after each chunk. Expected on the H200 (the solution's
# timed() says how): a chunk's copy ~0.31 ms, its sum ~0.18 ms; ~0.5 ms a chunk one after the other against
# ~0.31 ms overlapped, about 1.6x. Measured, graded (tests/gpu/repeat-step.sh 9 7 10): 1.91x in each of 10
# runs, and the solution's whole grading passed; one stream that waits after each chunk gives about 1x.
# Set it here only.
MIN_SPEEDUP=1.5
GPU_TIMED_N=268435456
CPU_TIMED_N=2097152 # 8 chunks of MIN_CHUNK: the step's other checks, quickly

# hint: Build it yourself with `make run LESSON=9 ARGS='--budget 3000000 1000000'`.
@test "step 1: compiles cleanly, without warnings (1 point)" {
  expect_clean_build
}

# hint: run_pipeline(): for chunk k on stream s = k % streams, cudaMemcpyAsync the staging buffer to the
# hint: stream's device buffer, then sum_steps<<<sum_blocks(count), SUM_THREADS, 0, stream>>>; the last chunk
# hint: is shorter (count = n - first). Copy each stream's sum back and cudaStreamSynchronize it before adding.
# hint: The total is of the sums copied back: the grader scales each one in one of its runs.
@test "step 2: sums every value of the data set on the GPU, chunk by chunk, for a size and budget the grader chooses (3 points)" {
  require_program
  run_a
  expect_exit 0
  expect_summed "$(size_a)" "a chunk summed twice or not at all, or the staging buffer read into again before its copy had left it"
  # The provenance run (lib/grading.bash): each sum scaled on its way back; the total printed must be of them.
  provenance_run "provenance-$(size_a)" i64 --budget "$(budget_a)" "$(size_a)"
  expect_provenance "sum of steps: $(provenance_total "$(size_a)")" \
    "each sum copied back by its own factor ($(calls status=0 | grep -o ' scale=[0-9]*' | cut -d= -f2 | paste -sd, -))"
}

# hint: allocate_device() and allocate_host() run once, before the first chunk: the loop only reuses the
# hint: buffers. release() frees every one of them (device, pinned), and destroys the streams and events.
# allocated_after N [END]: the last run's first successful allocation after call N (and before call END).
allocated_after() { calls class=alloc status=0 | awk -F '\t' -v s="$1" -v e="${2:-}" '$1 > s && (e == "" || $1 < e)' | head -n 1; }

@test "step 3: allocates its buffers once, before the first chunk, and frees them all at the end (2 points)" {
  local first late
  require_program
  for which in run_a run_b; do
    "$which"
    expect_exit 0
    first=$(first_n fn=cudaMemcpyAsync moved=HostToDevice status=0)
    # No chunk copied: when the buffers are allocated cannot be judged; the step of that run's work says why.
    [ -n "$first" ] || skip "needs step $([ "$which" = run_a ] && echo "2" || echo "4") first: this run copied no chunk to the device (the program $RUN_HOW), so whether its buffers are allocated before the first chunk cannot be seen"
    late=$(allocated_after "$first")
    [ -z "$late" ] ||
      fail "$(printf 'expected: every buffer allocated before the first chunk is copied (call %s), and reused for every chunk\nhappened: %s\nusual cause: a buffer allocated inside the loop, once per chunk: each allocation costs time, and a cudaFree waits for the GPU' \
        "$first" "$(call_text "$late")")"
    expect_no_leaks
    expect_no_invalid_frees
  done
}

# hint: Without --budget, the budget is cudaMemGetInfo's free memory. first_chunk() picks the largest chunk
# hint: whose buffers fit: STREAMS x (chunk x 4 + 8) bytes of device memory at most.
@test "step 4: keeps to its device-memory budget: --budget, or what cudaMemGetInfo says is free (3 points)" {
  local info free
  require_program
  run_a
  expect_exit 0
  expect_peak_within "$(budget_a)" "the --budget given ($(budget_a) bytes)"
  run_b
  expect_exit 0
  info=$(calls --first fn=cudaMemGetInfo status=0)
  [ -n "$info" ] && [ "$(call_field "$info" n)" -lt "$(first_n class=alloc)" ] ||
    fail "$(printf 'expected: without --budget, cudaMemGetInfo asked before the first allocation (the grader gave it %s MiB)\nhappened: %s\nusual cause: a budget typed in, not asked of the device' \
      "$LEAVE_B" "${info:+$(call_text "$info")}$([ -n "$info" ] || echo "no cudaMemGetInfo call")")"
  free=$(call_field "$info" free)
  expect_peak_within "$free" "what cudaMemGetInfo said was free ($free bytes)"
  expect_summed "$(size_b)" "read the program's output: the sum is right under --budget (step 2)"
}

# hint: When a cudaMalloc of allocate_device() fails with cudaErrorMemoryAllocation: free every buffer
# hint: already allocated (free_device), clear the error (cudaGetLastError), halve p->chunk and try again;
# hint: give up below MIN_CHUNK. The budget can be more than the device really has.
@test "step 5: halves its chunks and tries again when the device has less than the budget, freeing what it held first (3 points)" {
  require_program
  run_c
  expect_exit 0
  expect_retries_freed 1
  expect_peak_within "$((LEAVE_C * MIB))" "the ${LEAVE_C} MiB the grader gave it"
  expect_summed "$(size_c)" "read the program's output: the sum is right with smaller chunks too"
}

# hint: Chunk k goes to stream k % STREAMS, from that stream's pinned staging buffer (cudaMallocHost). Before
# hint: read_chunk() writes a staging buffer again, cudaEventSynchronize the event recorded behind its last
# hint: copy; do not wait for the whole stream, or for each chunk.
@test "step 6: overlaps copies with sums on two streams, reading into a staging buffer only when its copy is done (2 points)" {
  local copies streams rec overlap
  require_program
  run_a
  expect_exit 0
  copies=$(calls fn=cudaMemcpyAsync moved=HostToDevice status=0)
  rec=$(awk -F '\t' '$7 !~ / src=pinned#/' <<<"$copies" | head -n 1)
  [ -z "$rec" ] ||
    fail "$(printf 'expected: every chunk copied from a pinned staging buffer (cudaMallocHost)\nhappened: %s\nusual cause: a staging buffer from malloc: the copy engine cannot read pageable memory directly, and the copy waits for the host' \
      "$(call_text "$rec")")"
  # One chunk holding the whole data set leaves nothing to overlap: the budget it broke is step 4's.
  [ "$(calls fn=cudaLaunchKernel kernel=sum_steps status=0 | awk -F '\t' '{ t += $6 } END { print t + 0 }')" -ge 2 ] ||
    skip "needs step 4 first: the data set was summed in one chunk, so there is no second chunk to overlap with it (under --budget $(budget_a) it needs several)"
  streams=$(calls fn=cudaLaunchKernel kernel=sum_steps status=0 | while IFS= read -r rec; do call_field "$rec" stream; done | grep -v '^0$' | sort -u | grep -c . || true)
  [ "$streams" -ge 2 ] ||
    fail "$(printf 'expected: the chunks summed on two or more streams of the program'"'"'s own\nhappened: %s stream(s)\nusual cause: every chunk on one stream (or the default stream): the copy of one chunk cannot run beside the sum of another' "$streams")"
  overlap=$(trace_overlap)
  [ -n "$overlap" ] ||
    fail "$(printf 'expected: a chunk copied while a sum on another stream may still run (no wait for it between them)\nhappened: every sum was waited for before the next copy was queued\nusual cause: cudaStreamSynchronize (or cudaDeviceSynchronize) after each chunk: the streams then take turns')"
  rec=$(trace_early_refill)
  [ -z "$rec" ] ||
    fail "$(printf 'expected: before a staging buffer is read into again, a wait for its last copy (an event recorded behind the copy, or its stream)\nhappened: %s\nusual cause: read_chunk() writes the buffer while the copy before may still read it: that chunk is copied half old, half new' \
      "$rec")"
}

# hint: The timed mode runs run_pipeline() twice over the data set in pinned memory: on one stream, waiting
# hint: after each chunk, then on STREAMS streams. Both timings are given; the second must be faster because
# hint: one chunk is summed on one stream while the next is copied on the other.
@test "step 7: two streams make the pipeline faster than one stream that waits after each chunk (2 points)" {
  local n spans span idx s e launches bytes streams want t1 t2 ratio line summed first_launches="" late
  require_program
  run_timed "$GPU_TIMED_N" "$CPU_TIMED_N"
  n=$TIMED_SIZE
  want=$(expected_sum "$n")
  # Wrong sums where step 2's run is wrong too are step 2's mistake (a chunk lost, a sum read before its
  # wait): this step waits for it. Step 2's checks, on its own run, in a subshell: their failure is a status.
  if ! grep -qxF "timed sums of steps: $want serial, $want overlapped" "$RUN_DIR/stdout" &&
    ! (run_a && expect_exit 0 && expect_summed "$(size_a)" "") >/dev/null 2>&1; then
    skip "needs step 2 first: the timed run's sums are wrong, and so is what step 2 checks on its own run; fix what step 2 says, and this step is graded"
  fi
  expect_printed "timed sums of steps: $want serial, $want overlapped" "a chunk lost in one of the two pipelines"
  spans=$(elapsed_spans)
  [ "$(grep -c . <<<"$spans")" -ge 2 ] ||
    fail "$(printf 'expected: two timings (cudaEventElapsedTime), one per pipeline\nhappened: %s\nusual cause: a call before them failed' "$(grep -c . <<<"$spans") timing(s)")"
  for idx in 1 2; do
    span=$(sed -n "${idx}p" <<<"$spans")
    s=$(cut -f2 <<<"$span") e=$(cut -f3 <<<"$span")
    bytes=$(calls fn=cudaMemcpyAsync moved=HostToDevice status=0 | awk -F '\t' -v s="$s" -v e="$e" '$1 > s && $1 < e { v = " " $7 " "; sub(/.* bytes=/, "", v); sub(/ .*/, "", v); t += v * $6 } END { print t + 0 }')
    launches=$(span_count "$s" "$e" fn=cudaLaunchKernel kernel=sum_steps status=0)
    summed=$(calls fn=cudaLaunchKernel kernel=sum_steps status=0 | awk -F '\t' -v s="$s" -v e="$e" '$1 > s && $1 < e { v = " " $7 " "; sub(/.* args=/, "", v); sub(/ .*/, "", v); split(v, a, ","); t += a[2] * $6 } END { print t + 0 }')
    # Exactly the pipeline's work, in each: every value summed once, by as many launches as the other has.
    [ "$summed" = "$n" ] && { [ "$idx" = 1 ] || [ "$launches" = "$first_launches" ]; } ||
      fail "$(printf 'expected: each timing holds the same pipeline, once: sum_steps over the %s values, in as many launches as the other\nhappened: timing %s sums %s values in %s launch(es)%s\nusual cause: work run twice, or added, inside one timed span: the speed-up then compares something else' \
        "$n" "$idx" "$summed" "$launches" "$([ "$idx" = 1 ] || echo ", the first in $first_launches")")"
    first_launches=$launches
    streams=$(calls fn=cudaLaunchKernel kernel=sum_steps status=0 | awk -F '\t' -v s="$s" -v e="$e" '$1 > s && $1 < e { v = " " $7 " "; sub(/.* stream=/, "", v); sub(/ .*/, "", v); seen[v] = 1 } END { print length(seen) }')
    # the first on one stream, the second on two or more: a program that has one stream only fails step 6's
    # check, in step 6's words (report.sh then shows this step waiting for step 6)
    [ "$idx" = 1 ] || [ "$streams" -ge 2 ] ||
      fail "$(printf 'expected: the chunks summed on two or more streams of the program'"'"'s own\nhappened: the timed pipeline meant for two streams ran its %s launch(es) on %s stream(s)\nusual cause: every chunk on one stream (or the default stream): the copy of one chunk cannot run beside the sum of another' "$launches" "$streams")"
    [ "$bytes" = "$((n * 4))" ] && [ "$launches" -ge 2 ] && [ "$((streams >= 2 ? 2 : streams))" = "$idx" ] ||
      fail "$(printf 'expected: timing %s covers the whole pipeline over %s values (%s bytes copied) on %s\nhappened: it covers %s bytes copied, %s launch(es) on %s stream(s)\nusual cause: the timings must run the same pipeline, first on one stream, then on all' \
        "$idx" "$n" "$((n * 4))" "$([ "$idx" = 1 ] && echo "one stream" || echo "two or more streams")" "$bytes" "$launches" "$streams")"
  done
  t1=$(sed -n 1p <<<"$spans" | cut -f1) t2=$(sed -n 2p <<<"$spans" | cut -f1)
  ratio=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  line=$(grep -m1 '^one stream, serial: ' "$RUN_DIR/stdout" || true)
  printed_times "$line" 4 "$t1" 8 "$t2" 2 ||
    fail "$(printf 'expected: "one stream, serial: %.2f ms, 2 streams: %.2f ms, speed-up: %sx", the times cudaEventElapsedTime gave\nhappened: %s\nusual cause: the times printed are not the ones measured' \
      "$t1" "$t2" "$ratio" "${line:-no such line}")"
  # What the events time is the two pipelines, not the host's own work: checked here, on every backend.
  for idx in 1 2; do
    span=$(sed -n "${idx}p" <<<"$spans")
    expect_span_host "the pipeline on $([ "$idx" = 1 ] && echo "one stream" || echo "two streams")" "$(cut -f2 <<<"$span")" "$(cut -f3 <<<"$span")"
  done
  # Buffers allocated per chunk inside the timed pipelines are step 3's mistake, and a cudaFree waits for the
  # whole device, so the streams cannot overlap (on the H100: 1.01x): the ratio waits for step 3, on every
  # backend alike. A program that allocates per chunk only when timed fails here, in words of its own.
  late=$(allocated_after "$(sed -n 1p <<<"$spans" | cut -f2)" "$(sed -n 2p <<<"$spans" | cut -f3)")
  if [ -n "$late" ]; then
    # step 3's check on its own run: a skip when it finds the same allocation per chunk there
    (run_a && expect_exit 0 && first=$(first_n fn=cudaMemcpyAsync moved=HostToDevice status=0) &&
      { [ -z "$first" ] || [ -z "$(allocated_after "$first")" ]; }) >/dev/null 2>&1 ||
      skip "needs step 3 first: the timed pipelines allocate inside their loop too ($(call_text "$late")), and each cudaFree waits for the whole device: the streams cannot overlap"
    fail "$(printf 'expected: the timed pipelines reuse buffers allocated before them\nhappened: %s inside a timed pipeline\nusual cause: a buffer allocated per chunk only in the timed run: each cudaFree waits for the whole device' "$(call_text "$late")")"
  fi
  require_real_gpu "the ratio of two pipeline times"
  awk -v r="$ratio" -v min="$MIN_SPEEDUP" 'BEGIN { exit !(r >= min) }' ||
    fail "$(printf 'expected: the pipeline on two streams at least %sx as fast\nhappened: %s ms against %s ms, %sx\nusual cause: a wait for the whole stream (or the device) before each chunk is read: the host and the GPU then take turns' \
      "$MIN_SPEEDUP" "$t1" "$t2" "$ratio")"
}

# hint: When even MIN_CHUNK does not fit: print one line "error: cudaMalloc of N bytes failed: <cudaGetErrorString>"
# hint: for the allocation that failed last, free what is held, and exit with status 1. A budget below the
# hint: smallest chunks: one "error: ..." line too, and no allocation. Every other failed call: the same contract.
@test "step 8: survives running out of device memory (3 points)" {
  require_program
  expect_gives_up
  expect_budget_refused
  sweep_chunks
}
