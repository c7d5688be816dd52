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

# The memory checker's step, and its run's arguments: prime sizes drawn per grading (drawn_prime), the same
# for every step that asks the checker (a run that ended with a kernel's fault waits for it: ended_badly).
MEMCHECK_STEP=9
memcheck_args() { drawn_prime memcheck-n 1001 4000; }

# The pipeline must be at least this many times faster than the serial version, in the same run.
# The calls the TODOs add: the allocations and the pipeline's copies (the skeleton makes four async
# copies). The memory checker and the failure sweep grade how the work is done, so they need it.
LESSON_WORK="cudaMalloc=2 cudaMallocManaged=1 cudaMemcpyAsync=5"
MIN_SPEEDUP=1.3
# The graded run's size is at most this (plus 1000): each of slow_fill's four waits is 50 ms of a CPU
# backend's thread too, and the pipeline runs its kernel over every element.
WB_CHOSEN_MAX=1000000
# The bits of the floats slow_fill writes, as the trace shows a launch's float arguments.
ONE=1065353216 TWO=1073741824 THREE=1077936128 FOUR=1082130432
# The floats `sync --pipeline` times by default (TIMED_N).
TIMED_N=67108864


run_chosen() { run_program --name "run-$(chosen_n)" -- "$(chosen_n)"; }

# expect_span_work WHAT START END N: the calls of the last run between call START and call END (a timed span)
# are exactly the work WHAT names, once: busy over N elements in all, with one number of rounds, and N
# floats copied in and N copied back; no other launch, copy or memset. A span padded with more work (the
# serial kernel run twice, an extra copy, more rounds) would time something else than it says.
expect_span_work() {
  local got
  got=$(calls status=0 | awk -F '\t' -v s="$2" -v e="$3" "$RECORD_AWK"'
    $1 > s && $1 < e {
      if ($2 == "cudaLaunchKernel" && field("kernel") == "busy") { split(field("args"), a, ","); elems += a[2] * $6; rounds[a[3]] = 1 }
      else if ($2 == "cudaLaunchKernel") other = other " " field("kernel")
      else if ($2 ~ /^cudaMemcpy/ && field("moved") == "HostToDevice") in_b += field("bytes") * $6
      else if ($2 ~ /^cudaMemcpy/ && field("moved") == "DeviceToHost") out_b += field("bytes") * $6
      else if ($2 ~ /^cudaMem(cpy|set)/) other = other " " $2 }
    END { for (r in rounds) nr++; printf "busy over %d elements, %d number(s) of rounds, %d bytes in, %d bytes back%s\n", elems, nr, in_b, out_b, (other == "" ? "" : ", and" other) }')
  [ "$got" = "busy over $4 elements, 1 number(s) of rounds, $(($4 * 4)) bytes in, $(($4 * 4)) bytes back" ] && return 0
  local elems rounds cause="work run twice, or other work, inside the timed span: the speed-up then compares something else"
  read -r _ _ elems _ rounds _ <<<"$got"
  if [ "$rounds" = 1 ] && [ "$elems" -gt "$4" ] && [ "$elems" -lt $(($4 * 2)) ]; then
    # A kernel past its chunk reads outside the buffer too: where the memory checker sees it, that is its step.
    wait_for_memcheck
    cause="busy launched over more elements than its chunk holds (the last chunk is shorter than the others when n is not a multiple of the chunk count): the kernel runs past the chunk"
  fi
  fail "$(printf 'expected: %s timed with exactly its work: busy over the %s elements once, with one number of rounds, and %s bytes copied in and back\nhappened: between its events, %s\nusual cause: %s' \
    "$1" "$4" "$(($4 * 4))" "$got" "$cause")"
}

# expect_from_gpu PREFIX VALUE WHAT: the line PREFIX counts elements the GPU wrote: in the provenance run
# (lib/grading.bash), where WHAT was scaled by 2, 8 or 32 on its way to the host, none of the n elements
# equals VALUE any more, and the line says so.
expect_from_gpu() {
  provenance_run "provenance-$(chosen_n)" f32 "$(chosen_n)"
  expect_provenance "${1}0 of $(chosen_n) elements are $2" "$3"
}

# fill_launch BITS: the record of slow_fill's fill of the value BITS (one of the above); fails when none.
fill_launch() {
  local rec
  rec=$(calls fn=cudaLaunchKernel kernel=fill status=0 | awk -F '\t' -v v="$1" '$7 ~ ("args=[^ ]*," v " ")' | head -n 1)
  [ -n "$rec" ] || fail "$(printf 'expected: the provided slow_fill launch that writes %s\nhappened: the program %s and made no such launch\nusual cause: the provided code was edited away (make reset LESSON=3 restores the skeleton)' "$1" "$RUN_HOW")" || return 1
  printf '%s\n' "$rec"
}

# The buffer a fill launch writes: its first argument.
fill_target() { call_field "$1" args | cut -d, -f1; }


# hint: Build it yourself with `make run LESSON=3`. The build uses -Wall -Wextra: a warning about an
# hint: unused variable often means a step is not written yet.
@test "step 1: compiles cleanly, without warnings (1 point)" {
  expect_clean_build
}

# hint: A launch returns before the kernel has run; slow_fill writes 50 ms later. A blocking cudaMemcpy
# hint: waits for the kernels before it on the default stream; managed memory needs an explicit wait
# hint: (cudaDeviceSynchronize) before the host reads it.
@test "step 2: waits for the kernel before reading its results on the host (2 points)" {
  local n fill buf copy query
  require_program
  n=$(chosen_n)
  run_chosen
  expect_exit 0
  expect_answers "launch returned before the kernel finished: cudaStreamQuery says |fn=cudaStreamQuery stream=0"
  expect_printed "launch returned before the kernel finished: cudaStreamQuery says cudaErrorNotReady" \
    "the program waited for the device between the launch and cudaStreamQuery"
  fill=$(fill_launch "$ONE")
  buf=$(fill_target "$fill")
  copy=$(calls fn=cudaMemcpy "src=$buf" moved=DeviceToHost "bytes=$((n * 4))" status=0 | awk -F '\t' -v a="$(call_field "$fill" n)" '$1 > a' | head -n 1)
  [ -n "$copy" ] ||
    fail "$(printf 'expected: after slow_fill of %s, a blocking cudaMemcpy of its %s bytes to the host (cudaMemcpyDeviceToHost)\nhappened: the program'"'"'s cudaMemcpy calls:\n%s\nusual cause: the results were not copied back, copied with cudaMemcpyAsync (it does not wait), or copied short' "$buf" "$((n * 4))" "$(calls_of cudaMemcpy)")"
  expect_waited "slow_fill of 1 and the copy back" "copied back with cudaMemcpy: " \
    "the results were read before the cudaMemcpy that brings them back" "$(call_field "$copy" n)"
  expect_printed "copied back with cudaMemcpy: $n of $n elements are 1" \
    "the results were read before the copy that brings them back"
  expect_from_gpu "copied back with cudaMemcpy: " 1 "the copy back of slow_fill's 1s"
  run_chosen
  fill=$(fill_launch "$TWO")
  [[ $(fill_target "$fill") == managed#* ]] ||
    fail "expected: the fill of 2 writes the managed buffer (cudaMallocManaged); happened: $(call_text "$fill")"
  expect_waited "the kernel that writes the managed memory" "managed memory read by the host: " \
    "managed memory needs no copy, but the host must wait for the kernel: cudaDeviceSynchronize after the launch, before reading (a sleep is not a wait)" \
    "$(call_field "$fill" n)"
  expect_printed "managed memory read by the host: $n of $n elements are 2" \
    "the host read managed memory before the kernel had written it"
  expect_from_gpu "managed memory read by the host: " 2 "the managed buffer slow_fill wrote"
}

# hint: cudaStreamSynchronize(s) waits for the work queued on s, and only that: waiting for another
# hint: stream, one that is idle, returns at once.
@test "step 3: waits for the stream that did the work (2 points)" {
  local n fill stream copy
  require_program
  n=$(chosen_n)
  run_chosen
  expect_exit 0
  fill=$(fill_launch "$THREE")
  stream=$(call_field "$fill" stream)
  copy=$(calls --first fn=cudaMemcpyAsync "src=$(fill_target "$fill")" moved=DeviceToHost "stream=$stream" status=0)
  [ -n "$copy" ] ||
    fail "expected: an async copy of the buffer slow_fill wrote with 3, on its stream ($stream); happened: $(calls_of cudaMemcpyAsync)"
  expect_waited "stream 1's kernel and copy" "stream 1's copy read by the host: " \
    "the host read h_out before stream[1] had finished its kernel and its copy: cudaStreamSynchronize(stream[1]), not another stream" \
    "$(call_field "$copy" n)"
  expect_printed "stream 1's copy read by the host: $n of $n elements are 3" \
    "the host read h_out before stream[1] had finished"
  expect_from_gpu "stream 1's copy read by the host: " 3 "stream 1's copy back"
}

# hint: An event is a mark in one stream: cudaEventRecord(done, s) after the copy, in the copy's stream,
# hint: then cudaEventSynchronize(done). Recorded in an idle stream, it is reached at once.
@test "step 4: waits on an event recorded behind the copy (2 points)" {
  local n fill stream copy record at
  require_program
  n=$(chosen_n)
  run_chosen
  expect_exit 0
  fill=$(fill_launch "$FOUR")
  stream=$(call_field "$fill" stream)
  copy=$(calls --first fn=cudaMemcpyAsync "src=$(fill_target "$fill")" moved=DeviceToHost "stream=$stream" status=0)
  [ -n "$copy" ] || fail "expected: an async copy of the buffer slow_fill wrote with 4, on its stream ($stream)"
  # On a GPU a copy into h_out still running from before would overwrite this one's results.
  expect_ordered --with "$(call_field "$copy" n)" \
    "an earlier copy into the same host buffer was not waited for: synchronizing the wrong stream in step 3 leaves stream[1]'s copy running"
  record=$(calls fn=cudaEventRecord "stream=$stream" status=0 | awk -F '\t' -v a="$(call_field "$copy" n)" '$1 > a' | head -n 1)
  at=$(printed_at "the copy behind the event read by the host: ")
  # The wait: cudaEventSynchronize on it, or cudaEventQuery polled until it returned cudaSuccess (both
  # mean the event was reached).
  [ -n "$record" ] && [ -n "$(calls "event=$(call_field "$record" event)" status=0 |
    awk -F '\t' -v a="$(call_field "$record" n)" -v at="${at:-0}" '$1 > a && $2 ~ /^cudaEvent(Synchronize|Query)$/ { p = $7; sub(/.*printed=/, "", p); sub(/ .*/, "", p); if (p + 0 <= at + 0) print }')" ] ||
    fail "$(printf 'expected: an event recorded on %s after the copy, and a wait for it (cudaEventSynchronize, or cudaEventQuery until it returns cudaSuccess) before the line is printed\nhappened: the program'"'"'s cudaEventRecord and cudaEventSynchronize calls:\n%s\n%s\nusual cause: the event was not recorded, recorded in another stream than the copy, or not waited for' \
      "$stream" "$(calls_of cudaEventRecord)" "$(calls_of cudaEventSynchronize)")"
  expect_printed "the copy behind the event read by the host: $n of $n elements are 4" \
    "the event was not recorded behind the copy, or not waited for"
  expect_from_gpu "the copy behind the event read by the host: " 4 "the copy back behind the event"
}

# hint: Device printf writes into a buffer that the host prints at the next synchronizing call. A program
# hint: that returns first prints nothing from the kernel.
@test "step 5: synchronizes so that the device's printf appears (1 point)" {
  local launch after
  require_program
  run_program --name printf -- --printf
  expect_exit 0
  expect_call cudaLaunchKernel kernel=hello status=0 --because "the provided launch of hello was edited away"
  # The line is the kernel's only when the program waited for the kernel: a call after the launch, before
  # the program ends, that finishes it (what the wait covers, as unfinished_at reads it, whichever call).
  launch=$(calls fn=cudaLaunchKernel kernel=hello status=0 | tail -n 1)
  if [ -n "$(unfinished_at 999999999999 "$(call_field "$launch" n)")" ]; then
    after=$(calls | awk -F '\t' -v l="$(call_field "$launch" n)" '$1 > l' | head -n 6 |
      while IFS= read -r c; do printf '\n    %s' "$(call_text "$c")"; done)
    after=${after:+the calls after it, none of which waits for it:$after}
    fail "$(printf 'expected: after the launch of hello, a call that waits for it before the program ends (cudaDeviceSynchronize, or a wait that covers its stream)\nhappened: %s; then %s\nso the line "device: ..." is not the kernel'"'"'s: the device prints it at a synchronizing call, and a program that ends first loses it\nusual cause: no synchronizing call (cudaDeviceSynchronize) between the launch and the return' \
      "$(call_text "$launch")" "${after:-no CUDA call after it}")"
  fi
  expect_line "device: " "$(expected_file printf.out)" \
    "no synchronizing call (cudaDeviceSynchronize) between the launch and the return: the kernel's line is lost when the program ends first"
  expect_line "host: " "$(expected_file printf.out)" "read the program's own error message"
}

# expect_pipeline N: the last run's pipeline over N floats did what step 6 asks, as its trace shows: each
# chunk in, through busy and out in one stream; no copies racing in d_work; the host compared only after
# waiting for both sides; and it printed that they match.
expect_pipeline() {
  local n=$1 chunk c first count bytes stream in out work at serial_in serial outs=()
  chunk=$(( (n + 7) / 8 ))
  # The serial run's copy in names the work buffer: the chunks go to offsets in it.
  serial_in=$(calls --first fn=cudaMemcpyAsync moved=HostToDevice "bytes=$((n * 4))" status=0)
  work=$(call_field "$serial_in" dst)
  serial=$(calls fn=cudaMemcpyAsync moved=DeviceToHost "src=$work" "bytes=$((n * 4))" status=0 |
    awk -F '\t' -v a="$(call_field "$serial_in" n)" '$1 > a' | head -n 1)
  [ -n "$serial" ] || fail "expected: the serial run copies its $((n * 4)) bytes back from $work with cudaMemcpyAsync; happened: $(calls_of cudaMemcpyAsync)"
  for ((c = 0; c * chunk < n; c++)); do
    first=$((c * chunk)) count=$(( n - c * chunk < chunk ? n - c * chunk : chunk ))
    bytes=$((count * 4))
    if [ "$first" = 0 ]; then at=$work; else at="$work+$((first * 4))"; fi
    in=$(calls fn=cudaMemcpyAsync moved=HostToDevice "dst=$at" "bytes=$bytes" status=0 | awk -F '\t' '$7 !~ / bytes='"$((n * 4))"' /' | head -n 1)
    stream=$(call_field "$in" stream)
    out=$(calls --first fn=cudaMemcpyAsync moved=DeviceToHost "src=$at" "bytes=$bytes" "stream=${stream:-none}" status=0)
    [ -n "$in" ] && [ -n "$out" ] && [ -n "$(calls fn=cudaLaunchKernel kernel=busy "args=$at,*" "stream=$stream")" ] ||
      fail "$(printf 'expected: with n = %s, chunk %s (floats %s to %s) copied in to %s, worked on by busy and copied out, all three in one stream\nhappened: the program'"'"'s calls on it:\n%s\nusual cause: a chunk not copied in or out, the kernel not run on it, a copy back to the start of the buffer, or a last chunk not cut short (it holds n - first floats)' \
        "$n" "$c" "$first" "$((first + count - 1))" "$at" "$(calls "dst=$at"; calls "src=$at" | cut -f1-2,5,7 | sed 's/^/    /')")"
    outs+=("$(call_field "$out" n)")
  done
  expect_ordered --from "$(call_field "$serial_in" n)" "streams made with cudaStreamNonBlocking are not ordered by the default stream (0): the serial run's work and the pipeline's then overlap in d_work; or a chunk's copies were put in different streams"
  # Both sides of the comparison must have arrived: compared too early, two stale buffers match too.
  expect_waited "the serial run's copy back and every chunk's" "pipeline of " \
    "the stop event recorded on the default stream (0) waits for the other streams only when they were created blocking (cudaStreamCreate, not cudaStreamNonBlocking); or a wait was left out" \
    "$(call_field "$serial" n)" "${outs[@]}"
  expect_printed "pipeline of $n floats in 8 chunks over 2 streams: $n of $n elements match the serial run" \
    "a chunk not copied in or out, or h_piped read before the stop event was waited for"
}

# hint: Each chunk goes in (cudaMemcpyAsync from h_in), through busy, and out (cudaMemcpyAsync into
# hint: h_piped) in one stream, stream[c % STREAMS]; the last chunk may be shorter. Wait for everything
# hint: before reading h_piped.
@test "step 6: pipelines the chunks with the serial run's results (2 points)" {
  local n schedule
  require_program
  n=$(chosen_n)
  run_chosen
  expect_exit 0
  expect_pipeline "$n"
  # The CPU backend ran the streams latest-issued first; a seeded shuffle of them must give the same.
  schedule=shuffle:$(( ${WB_SEED:-$n} % 1000 + 1 ))
  run_program --name "run-$n-$schedule" --env "CUDAWB_SCHEDULE=$schedule" -- "$n"
  expect_exit 0
  expect_printed "pipeline of $n floats in 8 chunks over 2 streams: $n of $n elements match the serial run" \
    "with the streams' work in another order (CUDAWB_SCHEDULE=$schedule on the CPU backend; a GPU runs streams side by side), the results differ: the program relies on issue order across streams where only an event or a synchronizing call orders them"
}

# hint: Copies overlap with kernels only from pinned memory (cudaMallocHost) and only when they are in
# hint: different streams: pageable memory or a single stream makes the pipeline as slow as the serial run.
@test "step 7: the pipeline is at least 1.3x faster than the serial version (2 points)" {
  require_program
  local line speedup pageable streams pn leaks times spans kind s e
  # What makes the pipeline fast is checked on every backend, in the normal run: its copies use pinned
  # host memory and its chunks two streams. Only the time needs a real GPU.
  run_chosen
  expect_exit 0
  pageable=$(calls fn=cudaMemcpyAsync status=0 | grep -cE $'\t(dst|src)=host |\tdst=[^ ]* src=host ' || true)
  [ "$pageable" = 0 ] ||
    fail "$(printf 'expected: every cudaMemcpyAsync to or from pinned memory (cudaMallocHost)\nhappened: %s of them use pageable host memory:\n%s\nusual cause: host buffers from malloc: an async copy from pageable memory waits, and copies through a bounce buffer' "$pageable" "$(calls fn=cudaMemcpyAsync | grep -E ' (dst|src)=host ' | head -n 3 | while IFS= read -r c; do printf '    %s\n' "$(call_text "$c")"; done)")"
  streams=$(calls fn=cudaLaunchKernel kernel=busy | tail -n +2 | while IFS= read -r c; do call_field "$c" stream; done | sort -u | grep -c . || true)
  [ "$streams" -ge 2 ] ||
    fail "expected: the pipeline's kernels in at least 2 streams; happened: they ran in $streams"
  # The timed mode runs on every backend and its results are checked; a CPU backend times a smaller
  # pipeline (64 Mi floats would take it minutes), whose time means nothing. On both the size is a drawn
  # prime (on the GPU some 500 to 1000 floats under the chapter's size): whatever number of chunks the
  # program cuts it into, its last chunk is shorter than the others, so that a pipeline written for whole
  # chunks shows it on either backend.
  if [ "$WB_BACKEND" = gpu ]; then pn=$(drawn_prime pipeline-n $((TIMED_N - 1000)) $((TIMED_N - 500))); else
    pn=$(drawn_prime pipeline-n 1001 101000); fi
  run_program --name "pipeline-$pn" --alone -- --pipeline "$pn"
  expect_exit 0
  # A pipeline that is not right has no speed to measure: the timed one is checked as step 6 checks its own.
  expect_pipeline "$pn"
  leaks=$(leaks_beyond "$WB_WORK/runs/run-$(chosen_n)")
  [ -z "$leaks" ] || fail "$(printf 'expected: the timed mode frees what it allocates (as the normal run does)\nhappened: still alive at exit:\n%s' "$leaks")"
  # The times are the ones the events measured, as the trace recorded them: the serial run is the span
  # whose kernels ran in one stream, the pipeline the span whose kernels ran in two or more.
  spans=$(elapsed_spans | while IFS=$'\t' read -r ms s e _; do
    streams=$(calls fn=cudaLaunchKernel kernel=busy status=0 | awk -F '\t' -v s="$s" -v e="$e" '$1 > s && $1 < e' |
      while IFS= read -r c; do call_field "$c" stream; done | sort -u | grep -c . || true)
    if [ "$streams" = 1 ]; then echo "serial $ms $s $e"; elif [ "$streams" -ge 2 ]; then echo "pipelined $ms $s $e"; fi
  done | awk '!seen[$1]++')
  times=$(awk '{ t[$1] = $2 } END { if (("serial" in t) && ("pipelined" in t)) print t["serial"], t["pipelined"] }' <<<"$spans")
  [ -n "$times" ] ||
    fail "$(printf 'expected: the serial run and the pipeline each timed by two events recorded around them (cudaEventRecord before, cudaEventRecord after, cudaEventElapsedTime)\nhappened: the elapsed-time calls were:\n%s\nusual cause: an event recorded on the wrong side of the work it times' "$(calls_of cudaEventElapsedTime)")"
  speedup=$(awk -v t="$times" 'BEGIN { split(t, m, " "); printf "%.2f", (m[2] > 0 ? m[1] / m[2] : 0) }')
  line=$(grep -m1 '^serial: ' "$RUN_DIR/stdout" || true)
  printed_times "$line" 2 "${times% *}" 5 "${times#* }" 2 ||
    fail "$(printf 'expected: "serial: %.2f ms, pipelined: %.2f ms, speed-up: %sx", the times cudaEventElapsedTime gave\nhappened: %s\nusual cause: the times printed are not the ones measured' \
      "${times% *}" "${times#* }" "$speedup" "${line:-no such line}")"
  # What the events time is the GPU's work, not the host's, and all of it exactly once: checked here, on
  # every backend.
  while read -r kind _ s e; do expect_span_host "the $kind run" "$s" "$e"; done <<<"$spans"
  while read -r kind _ s e; do expect_span_work "the $kind run" "$s" "$e" "$pn"; done <<<"$spans"
  require_real_gpu "the pipeline's speed-up"
  awk -v r="$speedup" -v m="$MIN_SPEEDUP" 'BEGIN { exit !(r >= m) }' && return 0
  fail "$(printf 'expected: the pipeline at least %sx faster than the serial version\nhappened: %s (speed-up %sx)\nusual cause: host buffers from malloc (pageable: an async copy then waits for the kernel and copies through a bounce buffer), or every chunk on the same stream' \
    "$MIN_SPEEDUP" "$line" "$speedup")"
}

# hint: Free every buffer in the one cleanup block that every path reaches: cudaFree for device and
# hint: managed memory, cudaFreeHost for pinned memory; destroy the streams and events there too.
@test "step 8: frees every buffer exactly once and destroys its streams and events (2 points)" {
  require_program
  run_chosen
  expect_exit 0
  expect_no_leaks
  expect_no_invalid_frees
}

# hint: The memory checker (compute-sanitizer, or the CPU backend's) reports any access outside an
# hint: allocation, even the small overruns a real GPU lets pass: a kernel or copy that reaches one past the end.
@test "step 9: runs clean under the memory checker (2 points)" {
  require_program
  expect_memcheck_clean
}

# hint: When an allocation fails: print one line "error: cudaMalloc of N bytes failed: <cudaGetErrorString>"
# hint: on stderr (the call's own name: cudaMallocManaged, cudaMallocHost), free what is already held
# hint: (goto cleanup), and exit with status 1.
@test "step 10: survives running out of device memory (3 points)" {
  require_program
  expect_real_oom
  fault_sweep --lesson-work "$(chosen_n)"
  fault_sweep --name sweep-printf -- --printf
}
