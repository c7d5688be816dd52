#!/usr/bin/env bats
# Grader for lesson 08, beyond cudaMalloc: one @test per graded step, its points in its name.
# The "# hint:" lines above a step are what `make hint LESSON=8` prints while the step is not passed.

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
memcheck_args() { drawn_prime memcheck-n $((CHUNK + 1)) $((3 * CHUNK)); }

# The calls the TODOs add: stream-ordered scratch (the skeleton allocates only the results buffer that way)
# and its frees. The memory checker and the failure sweep grade how the work is done, so they need it done.
LESSON_WORK="cudaMallocAsync|cudaMallocFromPoolAsync=2 cudaFreeAsync=1"
# Checks of a later step that can explain why a run ended badly, or what the memory checker found
# (ending_explained): that step's finding.
ENDING_CHECKS="2:scratch_freed_early"
# The step that grades each call the lesson teaches: a run that ended because one failed is its finding.
CALL_STEPS="cudaMallocAsync:2 cudaMallocFromPoolAsync:2 cudaFreeAsync:2 cudaDeviceGetDefaultMemPool:3 cudaMemPoolSetAttribute:3 cudaMemPoolTrimTo:3 cudaHostAlloc:4 cudaHostGetDevicePointer:4 cudaHostRegister:4 cudaHostUnregister:6"
CHUNK=65536 # floats per chunk (kernels/pipeline.cuh)
# The speed-up stream-ordered scratch must give the pipeline over 2^24 floats in 256 chunks, against
# cudaMalloc/cudaFree per chunk. Built without the trace, the H200 gave 4.96x to 7.01x in 20 runs; graded
# (the trace records each of the ~1,300 calls, and the stream-ordered pipeline is bound by how fast the
# host queues them), 1.71x in 20 of 20 runs (tests/gpu/repeat-step.sh, tests/gpu/README.md). A variant that
# keeps cudaMalloc/cudaFree in both timings measures about 1x.
MIN_SPEEDUP=1.5

run_chosen() { run_program --name "run-$(chosen_n)" -- "$(chosen_n)"; }
run_host() { run_program --name "host-$(chosen_n)" -- --host "$(chosen_n)"; }

# The floats `pipeline --timed` runs: its default, 2^24 (TIMED_N), on a GPU; on a CPU backend 4 chunks. The
# trace keeps 5000 records, so the GPU size stays at 256 chunks (about 2600 records for both pipelines).
GPU_TIMED_N=16777216
CPU_TIMED_N=262144

# chunks N: how many chunks the pipeline cuts N floats into.
chunks() { echo $((($1 + CHUNK - 1) / CHUNK)); }

# The sum the run must print: out[i] = (i % 7)^2 + i % 3, computed here from n alone.
expected_sum() {
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) s += (i % 7) * (i % 7) + i % 3; printf "%.0f\n", s }'
}

# stream_allocs: the run's successful stream-ordered allocations (from the device's pool or a named one).
stream_allocs() { calls class=alloc status=0 | awk -F '\t' '$2 == "cudaMallocAsync" || $2 == "cudaMallocFromPoolAsync"'; }

# alloc_record PTR: the allocation call that made PTR (alloc#K), from its K.
alloc_record() { calls --first class=alloc "alloc=${1#*#}"; }

# scratch_freed_early: the last run's first transform_chunk launch given scratch that was already freed (its
# free queued before the kernel: the kernel reads freed memory), as a phrase naming both calls; nothing when
# there is none. Step 2's mistake, wherever its effect shows (ENDING_CHECKS; the memory checker's accesses).
scratch_freed_early() {
  local rec scratch free
  # The start of a freed device allocation, freed before the launch (not host memory that the CPU backend's
  # malloc placed where device memory was freed: that is named freed#K+OFFSET, or has no free before it).
  while IFS= read -r rec; do
    scratch=$(call_field "$rec" args | cut -d, -f1)
    [[ $scratch =~ ^freed#[0-9]+$ ]] || continue
    free=$(calls --first "fn=cudaFree*" "ptr=alloc#${scratch#freed#}" status=0)
    [[ $(call_field "$(alloc_record "$scratch")" fn) == cudaMalloc* ]] && [ -n "$free" ] &&
      [ "$(call_field "$free" n)" -lt "$(call_field "$rec" n)" ] || continue
    printf '%s was given scratch %s, already freed by %s' "$(call_site_text "$rec")" "$scratch" "$(call_site_text "$free")"
    return 0
  done < <(calls fn=cudaLaunchKernel kernel=transform_chunk)
}

# The probe's questions, in the order it asks them, and the trace record that must have produced each.
PROBE_QUESTIONS=(
  "cudaMallocAsync of 2^50 bytes|fn=cudaMallocAsync bytes=1125899906842624"
  "cudaMallocAsync of 0 bytes|fn=cudaMallocAsync bytes=0"
  "cudaMallocAsync of 4096 bytes|fn=cudaMallocAsync bytes=4096"
  "cudaFreeAsync of it|fn=cudaFreeAsync ptr=alloc#*"
  "cudaFreeAsync of it again|fn=cudaFreeAsync ptr=freed#*"
  "cudaFreeAsync of cudaMalloc memory|fn=cudaFreeAsync ptr=alloc#*"
  "the default pool's release threshold|fn=cudaMemPoolGetAttribute attr=ReleaseThreshold"
  "cudaHostRegister of a malloc buffer|fn=cudaHostRegister bytes=4096"
  "cudaHostRegister of it again|fn=cudaHostRegister host=registered#*"
  "cudaHostUnregister of it|fn=cudaHostUnregister ptr=registered#*"
  "cudaHostUnregister of it again|fn=cudaHostUnregister ptr=freed#*"
  "cudaHostGetDevicePointer of mapped memory|fn=cudaHostGetDevicePointer host=pinned#*"
  "cudaGetLastError|fn=cudaGetLastError|then"
)

# hint: Build it yourself with `make run LESSON=8`. cudaMallocAsync and the pools need CUDA 11.2 or later.
@test "step 1: compiles cleanly, without warnings (1 point)" {
  expect_clean_build
}

# hint: In pipeline(): cudaMallocAsync((void **)&d_chunk, bytes, stream) for each chunk's scratch, and
# hint: cudaFreeAsync(d_chunk, stream) after its kernel: both queued on the stream, neither waits for the GPU.
# hint: The results printed are the ones copied back: the grader scales them in one of its runs.
@test "step 2: gives each chunk scratch from cudaMallocAsync, freed with cudaFreeAsync in stream order, and prints the GPU's results (3 points)" {
  local n k launches scratch rec free d2h bad out
  require_program
  n=$(chosen_n) k=$(chunks "$(chosen_n)")
  run_chosen
  # Judged before the ending, which reading freed scratch can make bad.
  bad=$(scratch_freed_early)
  [ -z "$bad" ] || ended_badly 0 "" --record
  [ -z "$bad" ] ||
    fail "$(printf 'expected: each chunk'"'"'s scratch freed behind the kernel that reads it (cudaFreeAsync queued after the launch)\nhappened: %s\nusual cause: cudaFreeAsync queued before the kernel: the stream frees the scratch first, and the kernel reads freed memory' "$bad")"
  expect_exit 0
  launches=$(calls fn=cudaLaunchKernel kernel=transform_chunk status=0)
  [ "$(grep -c . <<<"$launches")" = "$k" ] ||
    fail "$(printf 'expected: %s launches of transform_chunk, one per chunk of %s floats\nhappened: %s\nusual cause: the pipeline stopped early, or a call before the launches failed' "$k" "$CHUNK" "$(grep -c . <<<"$launches") launch(es); the program $RUN_HOW")"
  while IFS= read -r rec; do
    scratch=$(call_field "$rec" args | cut -d, -f1)
    bad=$(alloc_record "$scratch")
    [[ $(call_field "$bad" fn) == cudaMalloc*Async ]] && [ "$(call_field "$bad" stream)" = "$(call_field "$rec" stream)" ] &&
      [ "$(call_field "$bad" bytes)" = "$(($(call_field "$rec" args | cut -d, -f3) * 4))" ] ||
      fail "$(printf 'expected: each chunk read from scratch of its own size, allocated with cudaMallocAsync on the stream of its kernel\nhappened: %s read %s, from %s\nusual cause: %s' \
        "$(call_text "$rec")" "$scratch" "${bad:+$(call_text "$bad")}$([ -n "$bad" ] || echo "no allocation the trace knows")" \
        "the scratch comes from cudaMalloc (which cudaFree must then wait for), or is allocated on another stream than the chunk's work")"
    free=$(calls --first fn=cudaFreeAsync "ptr=$scratch" status=0)
    [ -n "$free" ] ||
      fail "$(printf 'expected: the scratch %s given back with cudaFreeAsync\nhappened: its frees were:\n%s\nusual cause: cudaFree, which waits for the whole device before it returns, or no free at all' \
        "$scratch" "$(calls_of cudaFree | grep -F "$scratch" || echo "    none")")"
    follows "$(call_field "$rec" n)" "$(call_field "$free" n)" ||
      fail "$(printf 'expected: the free of %s ordered behind the kernel that reads it (%s)\nhappened: %s\nusual cause: cudaFreeAsync on another stream, with no event between: the memory may be handed out again while the kernel still reads it' \
        "$scratch" "$(call_text "$rec")" "$(call_text "$free")")"
  done <<<"$launches"
  bad=$(calls --first fn=cudaMalloc status=0)
  [ -z "$bad" ] || fail "$(printf 'expected: no cudaMalloc in the pipeline\nhappened: %s\nusual cause: the per-chunk cudaMalloc/cudaFree path is used where the stream-ordered one should be' "$(call_text "$bad")")"
  # The results printed are the kernels': the buffer they write (their second argument) copied back whole,
  # after every one of them.
  out=$(call_field "$(head -n 1 <<<"$launches")" args | cut -d, -f2 | sed 's/+.*//')
  # Queued on the stream, or blocking once the stream is waited for: the order below is what counts.
  d2h=$(calls "fn=cudaMemcpy*" moved=DeviceToHost "src=$out" "bytes=$((n * 4))" status=0 | awk -F '\t' '$2 ~ /^cudaMemcpy(Async)?$/' | tail -n 1)
  [ -n "$d2h" ] || fail "$(printf 'expected: the results, all %s bytes of %s, copied back (cudaMemcpyAsync on the stream)\nhappened: its copies:\n%s\nusual cause: the copy back is missing, short, or from another buffer' "$((n * 4))" "$out" "$(calls_of cudaMemcpyAsync)")"
  while IFS= read -r rec; do
    follows "$(call_field "$rec" n)" "$(call_field "$d2h" n)" ||
      fail "$(printf 'expected: the copy of the results ordered behind every chunk'"'"'s kernel\nhappened: %s does not follow %s\nusual cause: the copy back on another stream than the kernels, with nothing ordering them' "$(call_text "$d2h")" "$(call_text "$rec")")"
  done <<<"$launches"
  expect_waited "the copy of the results" "results checked on the host: " \
    "the copy back is queued on the stream: wait for the stream (cudaStreamSynchronize) before the host reads" \
    "$(call_field "$d2h" n)"
  expect_printed "results checked on the host: $n of $n as expected" \
    "a chunk was not transformed, or its scratch was freed before its kernel had read it"
  expect_printed "sum of the results: $(expected_sum "$n")" "the sum is of the results, as the kernels wrote them"
  # The provenance run (lib/grading.bash): the copy back scaled by its factor once the wait covered it.
  provenance_run "provenance-$n" f32 "$n"
  d2h=$(calls "fn=cudaMemcpy*" moved=DeviceToHost "bytes=$((n * 4))" status=0 | awk -F '\t' '$2 ~ /^cudaMemcpy(Async)?$/' | tail -n 1)
  expect_provenance "sum of the results: $(expected_sum "$n" | awk -v f="$(call_field "$d2h" scale)" '{ printf "%.0f\n", $1 * (f == "" ? 1 : f) }')" \
    "the results copied back by $(call_field "$d2h" scale)"
}

# hint: cudaDeviceGetDefaultMemPool(&pool, 0), then cudaMemPoolSetAttribute(pool,
# hint: cudaMemPoolAttrReleaseThreshold, &keep) with a uint64_t keep (UINT64_MAX: keep everything). When the
# hint: pipeline is done and waited for, cudaMemPoolTrimTo(pool, 0) gives the memory back.
@test "step 3: keeps freed scratch in the pool for reuse, and trims the pool at the end (2 points)" {
  local first set pool pools trim last_free waits
  require_program
  run_chosen
  expect_exit 0
  first=$(stream_allocs | head -n 1)
  [ -n "$first" ] || fail "expected: stream-ordered allocations (step 2); happened: none; the program $RUN_HOW"
  # The pools cudaMallocAsync allocates from: the device's (default or set), or the one named.
  if [ "$(call_field "$first" fn)" = cudaMallocFromPoolAsync ]; then
    pools=$(call_field "$first" pool)
  else
    pools=$(calls status=0 | awk -F '\t' '$2 ~ /^cudaDevice(GetDefault|Get|Set)MemPool$/' | while IFS= read -r rec; do call_field "$rec" pool; done | sort -u | tr '\n' ' ')
  fi
  set=$(calls fn=cudaMemPoolSetAttribute attr=ReleaseThreshold status=0 | awk -F '\t' -v f="$(call_field "$first" n)" '$1 < f' | tail -n 1)
  pool=$(call_field "$set" pool)
  [ -n "$set" ] && [[ " $pools " == *" $pool "* ]] &&
    awk -v v="$(call_field "$set" value)" -v min="$((CHUNK * 4))" 'BEGIN { exit !(v + 0 >= min) }' ||
    fail "$(printf 'expected: before the first cudaMallocAsync, the release threshold of the pool it allocates from set to at least one chunk (%s bytes)\nhappened: %s\nusual cause: the threshold is left at 0, so the pool gives freed memory back at every synchronize and asks the driver again; or it is set on another pool' \
      "$((CHUNK * 4))" "$(calls fn=cudaMemPoolSetAttribute | head -n 3 | while IFS= read -r r; do printf '%s; ' "$(call_text "$r")"; done)$(if [ -z "$set" ]; then echo "no such call before the first cudaMallocAsync"
      elif [[ " $pools " == *" $pool "* ]]; then printf 'the last before the first cudaMallocAsync sets %s bytes' "$(call_field "$set" value)"
      else printf 'the last before the first cudaMallocAsync is on %s, a pool that allocation does not use (it uses %s)' "$pool" "${pools:-none the trace saw}"; fi)")"
  last_free=$(calls fn=cudaFreeAsync status=0 | tail -n 1 | cut -f1)
  trim=$(calls fn=cudaMemPoolTrimTo "pool=$pool" keep=0 status=0 | awk -F '\t' -v l="${last_free:-0}" '$1 > l' | head -n 1)
  waits=$([ -n "$trim" ] && calls status=0 | awk -F '\t' -v a="$last_free" -v b="$(call_field "$trim" n)" '$1 > a && $1 < b && $2 ~ /^cuda((Stream|Device|Event)Synchronize|(Stream|Event)Query)$/' | head -n 1)
  [ -n "$trim" ] && [ -n "$waits" ] ||
    fail "$(printf 'expected: when the pipeline is done and waited for, cudaMemPoolTrimTo(pool, 0) on that pool (%s)\nhappened: %s\nusual cause: the pool keeps what it holds until the program ends: trim it when the work is done (after the synchronize: memory still in use by queued work cannot be trimmed)' \
      "$pool" "$(calls_of cudaMemPoolTrimTo | head -n 2 | tr -s ' ' || true)")"
}

# hint: Zero-copy: cudaHostAlloc(&h, bytes, cudaHostAllocMapped), then cudaHostGetDevicePointer(&d, h, 0)
# hint: for the kernel. Registered: cudaHostRegister(h, bytes, cudaHostRegisterDefault) on the malloc buffer.
@test "step 4: lets the kernel work in place on mapped and on registered host memory (2 points)" {
  local n bytes mapped reg launch what ptr
  require_program
  n=$(chosen_n) bytes=$(($(chosen_n) * 4))
  run_host
  expect_exit 0
  mapped=$(calls fn=cudaHostAlloc "bytes=$bytes" status=0 | awk -F '\t' '{ f = $7; sub(/.* flags=/, "", f); sub(/ .*/, "", f); if (int(f / 2) % 2 == 1) print }' | head -n 1)
  [ -n "$mapped" ] ||
    fail "$(printf 'expected: cudaHostAlloc of %s bytes with cudaHostAllocMapped\nhappened: %s\nusual cause: the zero-copy buffer is not allocated yet, or without the flag that maps it' "$bytes" "$(calls_of cudaHostAlloc | head -n 2)")"
  [ -n "$(calls --first fn=cudaHostGetDevicePointer "host=$(call_field "$mapped" ptr)" status=0)" ] ||
    fail "expected: the device's pointer to $(call_field "$mapped" ptr) from cudaHostGetDevicePointer; happened: no such call"
  # malloc may hand out memory where a freed pinned buffer was: the trace then names it freed#K+OFFSET
  reg=$(calls fn=cudaHostRegister "bytes=$bytes" status=0 | awk -F '\t' '$7 ~ /^host=(host|freed#[^ ]*) /' | head -n 1)
  [ -n "$reg" ] ||
    fail "$(printf 'expected: the malloc buffer of %s bytes registered with cudaHostRegister\nhappened: %s\nusual cause: the buffer is not registered, or only part of it' "$bytes" "$(calls_of cudaHostRegister | head -n 2)")"
  for what in "zero-copy|$(call_field "$mapped" ptr)" "registered|$(call_field "$reg" ptr)"; do
    ptr=${what#*|} what=${what%|*}
    # the offset 0, a size_t, is written as a pointer would be ("null"): only the buffers and n are checked
    launch=$(calls --first fn=cudaLaunchKernel kernel=transform_chunk status=0 "args=$ptr,$ptr,$n,*")
    [ -n "$launch" ] ||
      fail "$(printf 'expected: transform_chunk run in place on all %s floats of the %s buffer (%s)\nhappened: the launches were:\n%s\nusual cause: the kernel is given another pointer: a plain malloc pointer makes it fail with 700' \
        "$n" "$what" "$ptr" "$(calls_of cudaLaunchKernel | head -n 4)")"
    expect_waited "the kernel on the $what buffer" "$what: " \
      "the kernel writes host memory while it runs: wait for it (cudaDeviceSynchronize) before the host reads" "$(call_field "$launch" n)"
    expect_printed "$what: $n of $n as expected" "the host read its buffer before the kernel had written it"
  done
}

# hint: Make each call the question names and print what it returns; the chapter's tables say what a real
# hint: H200 answers. The threshold is a uint64_t the pool writes: print what it wrote.
@test "step 5: answers the probe's questions as the CUDA runtime does (3 points)" {
  local get
  require_program
  run_program --name probe -- --probe
  expect_exit 0
  expect_answers "${PROBE_QUESTIONS[@]}"
  get=$(calls fn=cudaMemPoolGetAttribute attr=ReleaseThreshold status=0 | tail -n 1)
  grep -qxF "the default pool's release threshold: cudaSuccess, $(call_field "$get" value) bytes" "$RUN_DIR/stdout" ||
    fail "$(printf 'expected: the threshold printed as cudaMemPoolGetAttribute wrote it (%s bytes)\nhappened: %s\nusual cause: a number typed in' "$(call_field "$get" value)" "$(grep -m1 "release threshold" "$RUN_DIR/stdout" || echo "no such line")")"
  expect_output "$(expected_file probe.out)" \
    "a question asked with other arguments than it names, or a call on the wrong pointer"
}

# hint: Every cudaMallocAsync needs a cudaFreeAsync (or cudaFree), every cudaHostRegister a
# hint: cudaHostUnregister before the buffer is freed, every pool made with cudaMemPoolCreate a cudaMemPoolDestroy.
@test "step 6: frees every buffer once, unregisters what it registered (2 points)" {
  local pools
  require_program
  for mode in chosen host; do
    "run_$mode"
    expect_exit 0
    expect_no_leaks
    expect_no_invalid_frees
    pools=$(report_total live-pools)
    [ "${pools:-0}" = 0 ] || fail "expected: every pool made with cudaMemPoolCreate destroyed; happened: $pools still alive at exit"
  done
  # The probe frees twice on purpose (a question): that free alone may fail.
  expect_probe_frees_asked
}

# hint: The memory checker (compute-sanitizer, or the CPU backend's) reports any access outside an
# hint: allocation: scratch smaller than its chunk, or a last chunk that runs past the end of the data.
@test "step 7: runs clean under the memory checker (2 points)" {
  require_program
  expect_memcheck_clean
}

# hint: The timed mode runs pipeline() twice: with cudaMalloc/cudaFree per chunk (cudaFree waits for the
# hint: GPU, so the host cannot queue the next chunk ahead), then stream-ordered. Both timings are given.
@test "step 8: stream-ordered scratch makes the pipeline faster than cudaMalloc/cudaFree per chunk (2 points)" {
  local n k spans first second s e count want idx span alloc_fn free_fn what allocs ratio t1 t2 line
  require_program
  run_timed "$GPU_TIMED_N" "$CPU_TIMED_N"
  n=$TIMED_SIZE k=$(chunks "$TIMED_SIZE")
  grep -qx 'timed data checked: yes' "$RUN_DIR/stdout" ||
    fail "$(printf 'expected: the line "timed data checked: yes"\nhappened: %s' "$(grep -m1 '^timed data checked' "$RUN_DIR/stdout" || echo "no such line; the program $RUN_HOW")")"
  spans=$(elapsed_spans)
  [ "$(grep -c . <<<"$spans")" -ge 2 ] ||
    fail "$(printf 'expected: two timings (cudaEventElapsedTime), one per pipeline\nhappened: %s\nusual cause: a call before them failed' "$(grep -c . <<<"$spans") timing(s)")"
  first=$(sed -n 1p <<<"$spans") second=$(sed -n 2p <<<"$spans")
  # What each timing covered: the calls between its start and its end event.
  for want in "1|cudaMalloc|cudaFree|per-chunk cudaMalloc/cudaFree" "2|cudaMallocAsync|cudaFreeAsync|stream-ordered"; do
    IFS='|' read -r idx alloc_fn free_fn what <<<"$want"
    span=$(sed -n "${idx}p" <<<"$spans")
    s=$(cut -f2 <<<"$span") e=$(cut -f3 <<<"$span")
    count=$(span_count "$s" "$e" fn=cudaLaunchKernel kernel=transform_chunk status=0)
    allocs=$(span_count "$s" "$e" "fn=$alloc_fn" status=0)
    # an allocation from a pool the program made counts as stream-ordered too
    [ "$alloc_fn" = cudaMalloc ] || allocs=$((allocs + $(span_count "$s" "$e" fn=cudaMallocFromPoolAsync status=0)))
    [ "$count" = "$k" ] && [ "$allocs" = "$k" ] && [ "$(span_count "$s" "$e" "fn=$free_fn" status=0)" = "$k" ] ||
      fail "$(printf 'expected: the %s timing covers the %s chunks of %s floats: %s launches, %s %s and %s %s\nhappened: it covers %s launch(es), %s %s, %s %s\nusual cause: the two timings must run the same pipeline, first the cudaMalloc/cudaFree way, then the stream-ordered way' \
        "$what" "$k" "$n" "$k" "$k" "$alloc_fn" "$k" "$free_fn" "$count" "$allocs" "$alloc_fn" \
        "$(span_count "$s" "$e" "fn=$free_fn" status=0)" "$free_fn")"
  done
  # The two timings must hold the same work, so that their ratio is the allocators' alone.
  [ "$(span_work "$(cut -f2 <<<"$first")" "$(cut -f3 <<<"$first")")" = "$(span_work "$(cut -f2 <<<"$second")" "$(cut -f3 <<<"$second")")" ] ||
    fail "$(printf 'expected: the two timed pipelines doing the same work, the allocator aside\nhappened: per-chunk cudaMalloc/cudaFree: %s\n          stream-ordered: %s\nusual cause: work added to one of the timed spans (a kernel run twice, an extra copy): the speed-up then compares something else' \
      "$(span_work "$(cut -f2 <<<"$first")" "$(cut -f3 <<<"$first")")" "$(span_work "$(cut -f2 <<<"$second")" "$(cut -f3 <<<"$second")")")"
  s=$(cut -f2 <<<"$second") e=$(cut -f3 <<<"$second")
  [ "$(span_count "$s" "$e" fn=cudaMalloc status=0)" = 0 ] ||
    fail "expected: no cudaMalloc in the stream-ordered timing; happened: $(span_count "$s" "$e" fn=cudaMalloc status=0) call(s)"
  t1=$(cut -f1 <<<"$first") t2=$(cut -f1 <<<"$second")
  ratio=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  line=$(grep -m1 '^cudaMalloc per chunk: ' "$RUN_DIR/stdout" || true)
  printed_times "$line" 4 "$t1" 7 "$t2" 2 ||
    fail "$(printf 'expected: "cudaMalloc per chunk: %.2f ms, stream-ordered: %.2f ms, speed-up: %sx", the times cudaEventElapsedTime gave\nhappened: %s\nusual cause: the times printed are not the ones measured' \
      "$t1" "$t2" "$ratio" "${line:-no such line}")"
  # What the events time is the two pipelines, not the host's own work: checked here, on every backend.
  expect_span_host "the per-chunk cudaMalloc/cudaFree pipeline" "$(cut -f2 <<<"$first")" "$(cut -f3 <<<"$first")"
  expect_span_host "the stream-ordered pipeline" "$(cut -f2 <<<"$second")" "$(cut -f3 <<<"$second")"
  require_real_gpu "the ratio of two pipeline times"
  awk -v r="$ratio" -v min="$MIN_SPEEDUP" 'BEGIN { exit !(r >= min) }' ||
    fail "$(printf 'expected: the stream-ordered pipeline at least %sx as fast\nhappened: %s ms against %s ms, %sx\nusual cause: a synchronize inside the loop, or cudaFree of the scratch, makes the host wait for each chunk' \
      "$MIN_SPEEDUP" "$t1" "$t2" "$ratio")"
}

# hint: When a call fails: print one line "error: CALL of N bytes failed: <cudaGetErrorString>" on stderr,
# hint: release what is already held (a chunk's scratch too), and exit with status 1. cudaMallocAsync
# hint: reports out of memory when it is called, so check its return value like cudaMalloc's.
@test "step 9: survives running out of device memory (3 points)" {
  require_program
  expect_real_oom "error: cudaMallocAsync of 400000000000 bytes failed: out of memory" \
    "the return value of cudaMallocAsync is not checked: it fails at once, not later in the stream"
  # One chunk, of a size drawn per grading (1 float to a whole chunk): each chunk's scratch is a new
  # allocation, so every chunk would be a call site of its own for the sweep, and one is enough to fail
  # each kind of call in the loop (the checker's step runs two).
  fault_sweep --lesson-work "$(drawn sweep-n 1 "$CHUNK")"
  fault_sweep --name sweep-host -- --host "$(drawn sweep-host-n 1 "$CHUNK")"
  run_program --name probe -- --probe
  expect_answers --find "${PROBE_QUESTIONS[@]}"
  fault_sweep --name sweep-probe --skip "$ANSWER_NS" -- --probe
  fault_sweep --name sweep-timed -- --timed "$(drawn sweep-timed-n 1 "$CHUNK")"
}
