#!/usr/bin/env bats
# Grader for lesson 05, unified memory: one @test per graded step, its points in its name.
# The "# hint:" lines above a step are what `make hint LESSON=5` prints while the step is not passed.

setup_file() {
  load lib/grading
  lesson_setup_file
}

setup() {
  load lib/grading
}

# The memory checker's step, and its run's arguments: prime sizes drawn per grading (drawn_prime), the same
# for every step that asks the checker (a run that ended with a kernel's fault waits for it: ended_badly).
MEMCHECK_STEP=8
memcheck_args() { drawn_prime memcheck-n 1001 4000; }

# The calls the TODOs add: the three managed buffers and a prefetch. The memory checker and the
# failure sweep grade how the work is done, so they need it done (expect_lesson_work).
LESSON_WORK="cudaMallocManaged=3 cudaMemPrefetchAsync=1"
# The step that grades each call the lesson teaches: a run that ended because one failed is its finding.
CALL_STEPS="cudaMemPrefetchAsync:4 cudaMemAdvise:5"
TABLE_BYTES=1024 # TABLE_SIZE floats (kernels/managed.cuh)
# The speed-up a prefetch must give the first kernel on 1 GiB of host-written managed memory. The H200
# gave 4.53x to 7.48x in 20 runs of 20 (tests/gpu/README.md): the threshold holds in every one.
MIN_SPEEDUP=2.5

run_chosen() { run_program --name "run-$(chosen_n)" -- "$(chosen_n)"; }

# launch_of KERNEL: the record of the run's first successful launch of KERNEL; fails when there is none.
launch_of() {
  local rec
  rec=$(calls --first fn=cudaLaunchKernel "kernel=$1" status=0)
  [ -n "$rec" ] || fail "$(printf 'expected: the provided launch of %s\nhappened: the program %s and made no such launch\nusual cause: the provided code was edited away (make reset LESSON=5 restores the skeleton), or a call before it failed' "$1" "$RUN_HOW")" || return 1
  printf '%s\n' "$rec"
}

# arg_of RECORD K: the K-th argument of a launch, as the trace names it (managed#2, alloc#1, 1000).
arg_of() { call_field "$1" args | cut -d, -f"$2"; }

# managed_buffer NAME PTR BYTES: fails unless PTR is a managed allocation of BYTES bytes (NAME: the
# kernel argument it was given as, for the message).
managed_buffer() {
  local rec
  rec=$(calls --first "ptr=$2" class=alloc)
  [[ $2 == managed#* ]] && [ "$(call_field "$rec" bytes)" = "$3" ] && return 0
  fail "$(printf 'expected: %s is managed memory of %s bytes (cudaMallocManaged)\nhappened: the kernel was given %s%s\nusual cause: %s' "$1" "$3" "$2" \
    "${rec:+, from $(call_text "$rec")}" \
    "$([[ $2 == managed#* ]] && echo "the size is in bytes: the number of floats times sizeof(float)" || echo "the buffer comes from cudaMalloc or malloc: the host and the GPU share only cudaMallocManaged memory")")"
}

# The sum the run must print: out[i] = f(i) + f(n-1-i), f(i) = (i % 7) * ((i % 256) % 5), so twice the
# sum of f over 0..n-1, computed here from n alone.
expected_sum() {
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) s += (i % 7) * ((i % 256) % 5); printf "%.0f\n", 2 * s }'
}

# prefetches_of PTR TO: the run's successful prefetches of PTR to TO (device:0, host).
prefetches_of() { calls fn=cudaMemPrefetchAsync "ptr=$1" "to=$2" status=0; }

# The kinds of memory the --where mode asks about, in its order: the line's start, the pointer the
# trace must show for it (a prefix), and whether the host can read it.
WHERE_QUESTIONS=(
  "managed pointer|managed#|yes"
  "device pointer|alloc#|no"
  "inside the device buffer|alloc#|no"
  "pinned pointer|pinned#|yes"
  "pageable pointer|host|yes"
)

# The probe's questions, in the order it asks them, and the trace record that must have produced each.
PROBE_QUESTIONS=(
  "cudaMallocManaged of 0 bytes|fn=cudaMallocManaged bytes=0"
  "cudaMallocManaged with flags 4|fn=cudaMallocManaged flags=4"
  "prefetch of the whole buffer to device 0|fn=cudaMemPrefetchAsync ptr=managed#* bytes=4096 to=device:0"
  "prefetch of one byte past its end|fn=cudaMemPrefetchAsync ptr=managed#* bytes=4097"
  "prefetch to device 99|fn=cudaMemPrefetchAsync ptr=managed#* to=device:99"
  "prefetch of cudaMalloc memory|fn=cudaMemPrefetchAsync ptr=alloc#*"
  "ReadMostly advice on cudaMalloc memory|fn=cudaMemAdvise ptr=alloc#* advice=ReadMostly"
  "cudaFreeHost of managed memory|fn=cudaFreeHost ptr=managed#*"
  "cudaGetLastError|fn=cudaGetLastError|then"
)

# The floats `managed --timed` times: its default, 1 GiB of them (TIMED_N), on a GPU; on a CPU backend
# enough to run every call, fast to fill.
GPU_TIMED_N=268435456
CPU_TIMED_N=262144

# timed_span LAUNCH FROM TO: "MS START END", the ms= of the first cudaEventElapsedTime after launch LAUNCH
# (and before call TO) whose start event was last recorded at or before call FROM and whose end event after
# LAUNCH, and the records of those events.
timed_span() {
  elapsed_spans | awk -F '\t' -v l="$1" -v from="$2" -v to="$3" '$4 > l && $4 < to && $2 <= from && $3 > l { print $1, $2, $3; exit }'
}

# hint: Build it yourself with `make run LESSON=5`. nvcc 13 refuses CUDA 12's cudaMemPrefetchAsync(p,
# hint: bytes, device, stream): the place is a struct cudaMemLocation now (the chapter shows both).
@test "step 1: compiles cleanly, without warnings (1 point)" {
  expect_clean_build
}

# hint: cudaMallocManaged((void **)&p, bytes, cudaMemAttachGlobal) gives one pointer that the host and
# hint: the kernels both use. A kernel launch returns at once: wait for the stream before the host reads.
# hint: Print what the kernels left in out: the grader scales it after the wait in one of its runs.
@test "step 2: shares the data through managed memory and reads the GPU's results only after waiting (3 points)" {
  local n bytes scale mirror
  require_program
  n=$(chosen_n) bytes=$(($(chosen_n) * 4))
  run_chosen
  expect_exit 0
  scale=$(launch_of scale_by_table)
  mirror=$(launch_of mirror_sum)
  managed_buffer "in, scale_by_table's first argument," "$(arg_of "$scale" 1)" "$bytes"
  managed_buffer "table, scale_by_table's second argument," "$(arg_of "$scale" 2)" "$TABLE_BYTES"
  managed_buffer "out, mirror_sum's second argument," "$(arg_of "$mirror" 2)" "$bytes"
  expect_waited "mirror_sum, which writes the results" "results checked on the host: " \
    "one pointer does not mean one moment: the host must wait for the stream (cudaStreamSynchronize) after the launches and before it reads out" \
    "$(call_field "$mirror" n)"
  grep -qxF "results checked on the host: $n of $n as expected" "$RUN_DIR/stdout" || wait_for_memcheck
  expect_printed "results checked on the host: $n of $n as expected" \
    "the host read out before the kernels had written it, or the buffers are not the ones the kernels were given"
  expect_printed "sum of the results: $(expected_sum "$n")" \
    "the sum is of out, as the kernels wrote it, for the n the program was given"
  # The provenance run (lib/grading.bash): out, scaled whole by its factor when the wait after mirror_sum
  # returned; the sum printed must be of it.
  provenance_run "provenance-$n" f32 "$n"
  mirror=$(launch_of mirror_sum)
  scale=$(call_field "$mirror" scale | cut -d, -f2)
  expect_provenance "sum of the results: $(expected_sum "$n" | awk -v f="${scale:-1}" '{ printf "%.0f\n", $1 * f }')" \
    "out, which mirror_sum wrote, by ${scale:-1}"
}

# hint: cudaPointerGetAttributes(&attr, p) fills attr.type: cudaMemoryTypeManaged, Device, Host
# hint: (pinned) or Unregistered (malloc, the stack). Only device memory is out of the host's reach.
@test "step 3: tells managed, device, pinned and pageable memory apart (2 points)" {
  local q question prefix readable line at rec type
  require_program
  run_program --name where -- --where
  expect_exit 0
  for q in "${WHERE_QUESTIONS[@]}"; do
    IFS='|' read -r question prefix readable <<<"$q"
    at=$(printed_at "$question: ")
    [ -n "$at" ] || fail "$(printf 'expected: a line "%s: TYPE, the host can read it: yes|no"\nhappened: no such line; the program %s\nusual cause: describe() is not written yet' "$question" "$RUN_HOW")"
    line=$(grep -m1 -F -- "$question: " "$RUN_DIR/stdout")
    # The answer comes from the last cudaPointerGetAttributes made before the line was printed.
    rec=$(calls fn=cudaPointerGetAttributes status=0 | awk -F '\t' -v at="$at" '
      { p = $7; if (!sub(/.*printed=/, "", p)) next; sub(/ .*/, "", p); if (p + 0 <= at + 0) last = $0 }
      END { print last }')
    [ -n "$rec" ] && [[ $(call_field "$rec" ptr) == "$prefix"* ]] ||
      fail "$(printf 'expected: "%s" answered by cudaPointerGetAttributes on that pointer (%s...)\nhappened: %s\nusual cause: an answer typed in instead of asked of the runtime, or asked about another pointer' \
        "$question" "$prefix" "${rec:+the last such call before the line was $(call_text "$rec")}$([ -n "$rec" ] || echo "the program made no such call before the line")")"
    type=$(call_field "$rec" type)
    type=cudaMemoryType${type^}
    [ "$line" = "$question: $type, the host can read it: $readable" ] ||
      fail "$(printf 'expected: "%s: %s, the host can read it: %s" (what cudaPointerGetAttributes answered)\nhappened: "%s"\nusual cause: the type printed is not attr.type, or the host can read every kind but device memory' \
        "$question" "$type" "$readable" "$line")"
  done
}

# hint: cudaMemPrefetchAsync(p, bytes, location, 0, stream) moves the pages in bulk, in stream order:
# hint: the inputs to {cudaMemLocationTypeDevice, 0} before the kernels, out to the host after them.
@test "step 4: prefetches the inputs to the GPU and the results back, in stream order (2 points)" {
  local n bytes scale mirror in table out stream pre post
  require_program
  n=$(chosen_n) bytes=$(($(chosen_n) * 4))
  run_chosen
  expect_exit 0
  scale=$(launch_of scale_by_table)
  mirror=$(launch_of mirror_sum)
  in=$(arg_of "$scale" 1) table=$(arg_of "$scale" 2) out=$(arg_of "$mirror" 2) stream=$(call_field "$scale" stream)
  pre=$(prefetches_of "$in" device:0 | awk -F '\t' -v k="$(call_field "$scale" n)" -v b="$bytes" '$1 < k && $7 ~ (" bytes=" b " ")' | tail -n 1)
  [ -n "$pre" ] && [ -n "$(prefetches_of "$table" device:0 | awk -F '\t' -v k="$(call_field "$scale" n)" -v b="$TABLE_BYTES" '$1 < k && $7 ~ (" bytes=" b " ")')" ] ||
    fail "$(printf 'expected: before scale_by_table, a prefetch of all %s bytes of in (%s), and all %s of the table (%s), to device 0\nhappened: the prefetches of in and the table were:\n%s\nusual cause: no prefetch (the kernel then faults the pages over one by one), a count in elements, or a prefetch after the launch' \
      "$bytes" "$in" "$TABLE_BYTES" "$table" "$(calls fn=cudaMemPrefetchAsync | grep -E "ptr=($in|$table) " | while IFS= read -r c; do printf '    %s\n' "$(call_text "$c")"; done)")"
  follows "$(call_field "$pre" n)" "$(call_field "$scale" n)" ||
    fail "$(printf 'expected: the prefetch of in ordered before scale_by_table (queued on its stream, %s)\nhappened: %s\nusual cause: a prefetch on a stream that nothing ties to the kernels'"'"' stream: the kernel may start first and fault the pages over itself' "$stream" "$(call_text "$pre")")"
  post=$(prefetches_of "$out" host | awk -F '\t' -v k="$(call_field "$mirror" n)" -v b="$bytes" '$1 > k && $7 ~ (" bytes=" b " ")' | head -n 1)
  [ -n "$post" ] ||
    fail "$(printf 'expected: after mirror_sum, a prefetch of all %s bytes of out (%s) to the host ({cudaMemLocationTypeHost, 0})\nhappened: the prefetches of out were:\n%s\nusual cause: the results are left for the host to fault back page by page' \
      "$bytes" "$out" "$(calls fn=cudaMemPrefetchAsync "ptr=$out" | while IFS= read -r c; do printf '    %s\n' "$(call_text "$c")"; done)")"
  follows "$(call_field "$mirror" n)" "$(call_field "$post" n)" ||
    fail "$(printf 'expected: the prefetch of out ordered behind mirror_sum (queued on its stream)\nhappened: %s\nusual cause: a prefetch on a stream that nothing ties to the kernels'"'"' stream: it may move the pages before the kernel has written them' "$(call_text "$post")")"
  expect_waited "the prefetch of the results" "results checked on the host: " \
    "the prefetch is asynchronous like a kernel: wait for the stream after it" "$(call_field "$post" n)"
}

# hint: cudaMemAdvise(table, bytes, cudaMemAdviseSetReadMostly, location): the GPU only reads the table.
# hint: ReadMostly on data a kernel writes is a trap: every write invalidates every copy (56.5 s on the H200).
@test "step 5: advises ReadMostly for the table, and for nothing a kernel writes (2 points)" {
  local scale mirror table written w bad
  require_program
  run_chosen
  expect_exit 0
  scale=$(launch_of scale_by_table)
  mirror=$(launch_of mirror_sum)
  table=$(arg_of "$scale" 2)
  [ -n "$(calls --first fn=cudaMemAdvise "ptr=$table" "bytes=$TABLE_BYTES" advice=ReadMostly status=0)" ] ||
    fail "$(printf 'expected: cudaMemAdvise of the table (%s, %s bytes) with cudaMemAdviseSetReadMostly\nhappened: the advice calls were:\n%s\nusual cause: the advice is not given yet, or not for the whole table' \
      "$table" "$TABLE_BYTES" "$(calls_of cudaMemAdvise)")"
  # What the kernels write: scale_by_table's third argument, mirror_sum's second.
  written="$(arg_of "$scale" 3) $(arg_of "$mirror" 2)"
  for w in $written; do
    bad=$(calls --first fn=cudaMemAdvise "ptr=$w" advice=ReadMostly)
    [ -z "$bad" ] ||
      fail "$(printf 'expected: no ReadMostly advice on memory a kernel writes\nhappened: %s\nusual cause: ReadMostly makes read-only copies; every kernel write then invalidates them all, page by page (the H200 took 56.5 s for what takes 0.8 ms)' "$(call_text "$bad")")"
  done
}

# hint: Make each call the question names and print what it returns; the chapter's tables say what a
# hint: real H200 answers. The CUDA 13 forms take a cudaMemLocation: {cudaMemLocationTypeDevice, 99}.
@test "step 6: answers the probe's questions as the CUDA runtime does (3 points)" {
  require_program
  run_program --name probe -- --probe
  expect_exit 0
  expect_answers "${PROBE_QUESTIONS[@]}"
  expect_output "$(expected_file probe.out)" \
    "a question asked with other arguments than it names, or a call on the wrong pointer"
}

# hint: Managed memory is freed with cudaFree, like device memory: cudaFreeHost refuses it. One cleanup
# hint: that every path reaches frees the buffers and destroys the stream.
@test "step 7: frees every buffer once, managed memory with cudaFree (2 points)" {
  require_program
  run_chosen
  expect_exit 0
  expect_no_leaks
  expect_no_invalid_frees
  run_program --name where -- --where
  expect_exit 0
  expect_no_leaks
  expect_no_invalid_frees
  # The probe frees managed memory with cudaFreeHost on purpose (a question): that free alone may fail.
  expect_probe_frees_asked
}

# hint: The memory checker (compute-sanitizer, or the CPU backend's) reports any access outside an
# hint: allocation, even the small overruns a real GPU lets pass: a prefetch or a kernel past the end.
@test "step 8: runs clean under the memory checker (2 points)" {
  require_program
  expect_memcheck_clean
}

# hint: Time the first kernel on host-written data twice: as it is, then with cudaMemPrefetchAsync to the
# hint: device between the start event and the launch. Moving pages in bulk beats faulting them one by one.
@test "step 9: a prefetch makes the first kernel on host-written data at least 2.5x faster (2 points)" {
  local n launches first second start pre t1 t2 ratio span1 span2 s e
  require_program
  run_timed "$GPU_TIMED_N" "$CPU_TIMED_N"
  n=$TIMED_SIZE
  grep -qx 'timed data checked: yes' "$RUN_DIR/stdout" ||
    fail "$(printf 'expected: the line "timed data checked: yes" (every element is 2 after the two kernels)\nhappened: %s' "$(grep -m1 '^timed data checked' "$RUN_DIR/stdout" || echo "no such line; the program $RUN_HOW")")"
  # The two timed launches are those over all n floats (the provided warm-up launch covers none).
  launches=$(calls fn=cudaLaunchKernel kernel=add_one status=0 | awk -F '\t' -v n="$n" '$7 ~ ("args=[^ ]*," n " ")' | cut -f1)
  [ "$(wc -w <<<"$launches")" = 2 ] ||
    fail "expected: two launches of add_one over the $n floats, the first without a prefetch and the second with one; happened: $(wc -w <<<"$launches") launch(es)"
  first=$(head -n 1 <<<"$launches") second=$(tail -n 1 <<<"$launches")
  # The second timing starts at the last event recorded before its launch (the first one's stop comes before).
  start=$(calls fn=cudaEventRecord status=0 | awk -F '\t' -v a="$first" -v b="$second" '$1 > a && $1 < b' | tail -n 1 | cut -f1)
  pre=$(calls fn=cudaMemPrefetchAsync to=device:0 "bytes=$((n * 4))" status=0 | awk -F '\t' -v s="${start:-0}" -v b="$second" '$1 > s && $1 < b' | head -n 1)
  [ -n "$start" ] && [ -n "$pre" ] ||
    fail "$(printf 'expected: between the start event of the second timing and the second add_one, a prefetch of all %s bytes to device 0\nhappened: the prefetches were:\n%s\nusual cause: the prefetch is not written yet, or outside the timed part' "$((n * 4))" "$(calls_of cudaMemPrefetchAsync)")"
  [ -z "$(calls fn=cudaMemPrefetchAsync status=0 | awk -F '\t' -v a="$first" '$1 < a')" ] ||
    fail "expected: no prefetch before the first timing, which measures the kernel's own page faults; happened: $(calls_of cudaMemPrefetchAsync | head -n 1)"
  # The times are the ones the events measured around each launch (the second from before its prefetch),
  # as the trace recorded them, and the printed line must say the same.
  span1=$(timed_span "$first" "$first" "$second") span2=$(timed_span "$second" "$start" 999999999)
  t1=${span1%% *} t2=${span2%% *}
  [ -n "$t1" ] && [ -n "$t2" ] ||
    fail "$(printf 'expected: each timing a cudaEventElapsedTime of two events recorded around its add_one (the second from before its prefetch)\nhappened: the elapsed-time calls were:\n%s\nusual cause: an event recorded on the wrong side of the launch, or one timing not measured' "$(calls_of cudaEventElapsedTime)")"
  ratio=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  printed_times "$(grep -m1 '^first touch: ' "$RUN_DIR/stdout")" 3 "$t1" 6 "$t2" 2 ||
    fail "$(printf 'expected: "first touch: %.2f ms, prefetched: %.2f ms, speed-up: %sx", the times cudaEventElapsedTime gave\nhappened: %s\nusual cause: the times printed are not the ones measured' \
      "$t1" "$t2" "$ratio" "$(grep -m1 '^first touch' "$RUN_DIR/stdout" || echo "no such line")")"
  # What the events time is the kernel's page faults or the prefetch, not the host's own work: checked here,
  # on every backend.
  read -r _ s e <<<"$span1"
  expect_span_host "the first touch" "$s" "$e"
  read -r _ s e <<<"$span2"
  expect_span_host "the prefetch and the kernel" "$s" "$e"
  require_real_gpu "the ratio of two kernel times"
  awk -v r="$ratio" -v min="$MIN_SPEEDUP" 'BEGIN { exit !(r >= min) }' ||
    fail "$(printf 'expected: the prefetched kernel at least %sx as fast as the first touch\nhappened: %s ms against %s ms, %sx\nusual cause: the prefetch goes to the host, covers part of the buffer, or is queued on another stream than the kernel' \
      "$MIN_SPEEDUP" "$t1" "$t2" "$ratio")"
}

# hint: When a call fails: print one line "error: CALL of N bytes failed: <cudaGetErrorString>" on stderr,
# hint: free what is already held (goto cleanup), and exit with status 1. Prefetches and advice too.
@test "step 10: survives running out of device memory (3 points)" {
  require_program
  expect_real_oom
  fault_sweep --lesson-work "$(chosen_n)"
  fault_sweep --name sweep-where -- --where
  run_program --name probe -- --probe
  expect_answers --find "${PROBE_QUESTIONS[@]}"
  fault_sweep --name sweep-probe --skip "$ANSWER_NS" -- --probe
  fault_sweep --name sweep-timed -- --timed "$CPU_TIMED_N"
}
