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

# The memory checker's step, and its run's arguments: prime sizes drawn per grading (drawn_prime), the same
# for every step that asks the checker (a run that ended with a kernel's fault waits for it: ended_badly).
MEMCHECK_STEP=7
memcheck_args() { drawn_prime memcheck-n 1000 4000; }

# Pinned host-to-device copies must be at least this many times as fast as pageable ones (H200: ~7.8).
# The calls the TODOs add: the allocations and at least one copy of the student's own (the skeleton
# makes four). The memory checker and the failure sweep grade how the work is done, so they need it.
LESSON_WORK="cudaMalloc=2 cudaMallocHost|cudaHostAlloc=1 cudaMemcpy|cudaMemcpyAsync=5"
MIN_RATIO=3

# expect_copies_ran: the last run exited 0. When a cudaMemcpy failed, the message says what makes one fail.
expect_copies_ran() {
  local line
  line=$(grep -m1 '^error: cudaMemcpy' "$RUN_DIR/stderr" 2>/dev/null || true)
  if [ "$RUN_NORMAL" = 1 ] && [ "$RUN_STATUS" -ne 0 ] && [ -n "$line" ]; then
    # The run's ending is this step's finding: a later step on the same run waits for it (ended_badly).
    ended_badly 0 "this step grades the same run, which $RUN_HOW"
    fail "$(printf 'expected: every copy succeeds and the program exits with status 0\nhappened: %s%s\nusual cause: a cudaMemcpyKind that does not match the pointers (host to device is cudaMemcpyHostToDevice: destination on the device, source on the host); cudaMemcpy then returns cudaErrorInvalidValue and copies nothing. A device pointer already freed, or a count past the end of a buffer, fails the same way' "$line" \
      "$(first_failed_call | while IFS= read -r c; do printf '\nthe call that failed: %s' "$(call_site_text "$c")"; done)")"
  fi
  expect_exit 0
}


run_chosen() { run_program --name "run-$(chosen_n)" -- "$(chosen_n)"; }

# The checksum of the lesson's pattern (1..1000, repeating) over n floats, as the checksum kernel sums it.
pattern_sum() { echo $(( ($1 / 1000) * 500500 + ($1 % 1000) * ($1 % 1000 + 1) / 2 )); }

# expect_report WHAT FIRST [SUM] CAUSE: the lines the program prints for one copy, as computed here: its
# first float (did the copy go the right way?) and, when SUM is given, its checksum (did all of it go?).
expect_report() {
  local line lines=("$1: first float $2, expected $2")
  [ $# -lt 4 ] || { lines+=("$1: checksum $3, expected $3"); shift; }
  for line in "${lines[@]}"; do
    grep -qxF -- "$line" "$RUN_DIR/stdout" && continue
    fail "$(printf 'expected: %s\nprinted:  %s\nusual cause: %s' "$line" \
      "$(grep -m1 -F -- "${line%% [0-9]*}" "$RUN_DIR/stdout" || echo "(no such line; the program $RUN_HOW)")" "$3")"
  done
}

# copy_into FROM KINDS BYTES DST [AFTER]: the first successful cudaMemcpy or cudaMemcpyAsync (after call
# AFTER) of BYTES from FROM (host, alloc#K or alloc#*) into DST (alloc#*, host, pinned#* or *) with one of
# KINDS (a | list, or * for any: the kind is step 2's to judge), as a calls line; nothing if none. An
# asynchronous copy is as good as a blocking one: what the host read after it is judged by the waits
# (expect_waited, the printed checksums).
copy_into() {
  local from=$1 kinds=$2 bytes=$3 dst=$4 after=${5:-0}
  { calls fn=cudaMemcpy "src=$from" "dst=$dst" "bytes=$bytes" status=0
    calls fn=cudaMemcpyAsync "src=$from" "dst=$dst" "bytes=$bytes" status=0; } | sort -t $'\t' -k1,1n |
    awk -F '\t' -v k="|$kinds|" -v a="$after" '$1 > a { if (k == "|*|" || (match($7, /kind=[A-Za-z0-9]+/) && index(k, "|" substr($7, RSTART + 5, RLENGTH - 5) "|"))) { print; exit } }'
}

# copy_back B KIND: the first copy of the device buffer B to the host with KIND after the add kernel on B.
copy_back() {
  local add
  add=$(first_n fn=cudaLaunchKernel kernel=add "args=$1,*")
  [ -z "$add" ] || copy_into "$1" "$2" "*" "$([ "$2" = Default ] && echo host || echo "*")" "$add" | awk -F '\t' '$7 !~ /dst=alloc/'
}

# The probe's questions: the printed answer's start, and the call that must have produced it (grader/lib/trace.bash).
PROBE_QUESTIONS=(
  "device dst, host src, kind cudaMemcpyHostToDevice|fn=cudaMemcpy dst=alloc#* src=host kind=HostToDevice"
  "device dst, host src, kind cudaMemcpyDeviceToHost|fn=cudaMemcpy dst=alloc#* src=host kind=DeviceToHost"
  "device dst, host src, kind cudaMemcpyDeviceToDevice|fn=cudaMemcpy dst=alloc#* src=host kind=DeviceToDevice"
  "device dst, host src, kind cudaMemcpyHostToHost|fn=cudaMemcpy dst=alloc#* src=host kind=HostToHost"
  "host dst, device src, kind cudaMemcpyDeviceToHost|fn=cudaMemcpy dst=host src=alloc#* kind=DeviceToHost"
  "host dst, device src, kind cudaMemcpyHostToDevice|fn=cudaMemcpy dst=host src=alloc#* kind=HostToDevice"
  "host dst, host src, kind cudaMemcpyHostToDevice|fn=cudaMemcpy dst=host src=host kind=HostToDevice"
  "device dst, host src, kind cudaMemcpyDefault|fn=cudaMemcpy dst=alloc#* src=host kind=Default"
  "host dst, device src, kind cudaMemcpyDefault|fn=cudaMemcpy dst=host src=alloc#* kind=Default"
  "device dst, device src, kind cudaMemcpyDefault|fn=cudaMemcpy dst=alloc#* src=alloc#* kind=Default"
  "host dst, host src, kind cudaMemcpyDefault|fn=cudaMemcpy dst=host src=host kind=Default"
  "device dst, host src, kind 7|fn=cudaMemcpy dst=alloc#* src=host kind=7"
  "device to host, twice the allocation's bytes|fn=cudaMemcpy dst=host src=alloc#* bytes=32"
  "device to host from a freed device pointer|fn=cudaMemcpy dst=host src=freed#*"
  "cudaFree of pinned memory|fn=cudaFree ptr=pinned#*"
  "cudaFreeHost of the same pinned memory|fn=cudaFreeHost ptr=pinned#*"
)

# expect_verdicts_seen: after expect_answers on the probe's run, each answer that says what reached a device
# destination ("copied", "nothing copied") comes from the destination's data: it was written (cleared)
# after the previous question's copy and before the one asked about, and copied back to the host after that
# copy and before the line was printed. (A pageable host destination has no name in the trace: its verdicts
# are taken as printed.)
expect_verdicts_seen() {
  local q question n prev=0 last line rec dst at clear check i=0
  local -a ns
  read -r -a ns <<<"$ANSWER_NS"
  for q in "${PROBE_QUESTIONS[@]}"; do
    question=${q%%|*} n=${ns[$i]} i=$((i + 1)) last=$prev prev=$n
    line=$(grep -m1 -F -- "$question: " "$RUN_DIR/stdout" || true)
    if [[ $line == *" copied" ]]; then
      rec=$(calls "n=$n")
      dst=$(call_field "$rec" dst | sed 's/+.*//')
      # pageable host memory has no name in the trace: a copy into it cannot be told from another
      [ "$dst" != host ] || continue
      at=$(grep -b -m1 -F -- "$question: " "$RUN_DIR/stdout" | cut -d: -f1)
      clear=$(calls fn=cudaMemcpy status=0 | awk -F '\t' -v p="$last" -v n="$n" -v d="$dst" \
        '$1 > p && $1 < n && (" " $7 " ") ~ (" dst=" d "[ +]")' | head -n 1)
      check=$(calls fn=cudaMemcpy status=0 | awk -F '\t' -v n="$n" -v at="$at" -v d="$dst" '
        { p = $7; if (!sub(/.*printed=/, "", p)) next; sub(/ .*/, "", p) }
        $1 > n && p + 0 <= at + 0 && (" " $7 " ") ~ (" src=" d "[ +]")' | head -n 1)
      [ -n "$clear" ] && [ -n "$check" ] && continue
      clear=$([ -n "$clear" ] && echo "it was cleared: $(call_text "$clear")" || echo "nothing wrote it after the previous question")
      check=$([ -n "$check" ] && echo "it was read back: $(call_text "$check")" || echo "nothing copied it back before the line")
      fail "$(printf 'expected: "%s" says what reached the destination (%s): written over before the copy asked about, and copied back to the host after it, before the line is printed\nhappened: %s\n          %s\nusual cause: a verdict typed in, or a destination not cleared between questions (a failed copy then looks copied)' \
        "$line" "$dst" "$clear" "$check")"
    fi
  done
}

# checked_on BUF AFTER: the checksum kernel ran on BUF after call AFTER and its sum was copied back.
checked_on() {
  local launch
  launch=$(calls fn=cudaLaunchKernel kernel=checksum "args=$1,*" | awk -F '\t' -v a="$2" '$1 > a' | head -n 1)
  [ -n "$launch" ] ||
    fail "$(printf 'expected: the provided checksum kernel run on %s after the copy into it\nhappened: no such launch; the program %s\nusual cause: the provided device_summary call was removed' "$1" "$RUN_HOW")"
}

# hint: Build it yourself with `make run LESSON=2`. The build uses -Wall -Wextra: a warning about an
# hint: unused variable often means a step is not written yet.
@test "step 1: compiles cleanly, without warnings (1 point)" {
  expect_clean_build
}

# hint: cudaMemcpy(dst, src, bytes, kind) copies from src to dst, destination first like memcpy, and
# hint: the kind names the direction: host to device is cudaMemcpyHostToDevice. Check what it returns.
@test "step 2: copies to the device with the kind that matches the pointers (3 points)" {
  local n h2d d2d a b
  require_program
  n=$(chosen_n)
  run_chosen
  expect_copies_ran
  h2d=$(copy_into host "HostToDevice|Default" "*" "alloc#*")
  [ -n "$h2d" ] ||
    fail "$(printf 'expected: a cudaMemcpy from the host into a device buffer, with cudaMemcpyHostToDevice (or cudaMemcpyDefault)\nhappened: the program'"'"'s cudaMemcpy calls:\n%s\nusual cause: the copy host to device is missing, or goes the wrong way (destination first), or names a kind that does not match (cudaMemcpyHostToHost happens to work, but says the destination is on the host)' "$(calls_of cudaMemcpy)")"
  a=$(call_field "$h2d" dst)
  checked_on "$a" "$(call_field "$h2d" n)"
  d2d=$(copy_into "$a" "DeviceToDevice|Default" "*" "alloc#*")
  [ -n "$d2d" ] && [ "$(call_field "$d2d" dst)" != "$a" ] ||
    fail "$(printf 'expected: a cudaMemcpy from %s (the buffer the host data went to) into the other device buffer, with cudaMemcpyDeviceToDevice\nhappened: the program'"'"'s cudaMemcpy calls:\n%s\nusual cause: the copy from d_a to d_b is missing, goes the wrong way (destination first), goes through the host, or names a kind that does not match' "$a" "$(calls_of cudaMemcpy)")"
  b=$(call_field "$d2d" dst)
  checked_on "$b" "$(call_field "$d2d" n)"
  expect_report "host to device" 1 "nothing reached d_a: the copy host to device is missing, or failed unchecked"
  expect_report "device to device" 1 "nothing reached d_b: the copy from d_a to d_b is missing or failed unchecked"
}

# hint: cudaMemcpy counts bytes, not elements: n floats are n * sizeof(float) bytes. A count of n copies
# hint: a quarter of the floats, and cudaMemcpy still returns cudaSuccess.
@test "step 3: copies whole buffers: counts bytes, not elements (2 points)" {
  local n bytes h2d d2d b c sum
  require_program
  n=$(chosen_n) bytes=$(($(chosen_n) * 4)) sum=$(pattern_sum "$(chosen_n)")
  run_chosen
  expect_copies_ran
  h2d=$(copy_into host "*" "*" "alloc#*")
  d2d=$(copy_into "$(call_field "$h2d" dst)" "*" "*" "alloc#*")
  b=$(call_field "$d2d" dst)
  for c in "$h2d" "$d2d" "$(copy_back "${b:-none}" DeviceToHost)" "$(copy_back "${b:-none}" Default)"; do
    [ -n "$c" ] || skip "needs steps 2 and 4 first: this step counts the bytes of their copies, and one of them is not made yet (they say which)"
    [ "$(call_field "$c" bytes)" = "$bytes" ] ||
      fail "$(printf 'expected: with n = %s, each copy moves %s bytes (n * sizeof(float))\nhappened: %s\nusual cause: the count is in bytes, n * sizeof(float), not n (a quarter of the bytes is the sign of a count in elements)' "$n" "$bytes" "$(call_text "$c")")"
  done
  expect_report "host to device" 1 "$sum" "the copy moved less than the whole buffer"
  expect_report "device to device" 1 "$sum" "the copy moved less than the whole buffer"
}

# hint: The host sees the GPU's results only after a device-to-host copy brings them back: read h_pinned
# hint: (or h_pageable) after the cudaMemcpy that fills it, never before.
@test "step 4: reads the results only after copying them back to the host (2 points)" {
  local h2d d2d b back dflt
  require_program
  run_chosen
  expect_copies_ran
  h2d=$(copy_into host "*" "*" "alloc#*")
  d2d=$(copy_into "$(call_field "$h2d" dst)" "*" "*" "alloc#*")
  b=$(call_field "$d2d" dst)
  back=$(copy_back "$b" DeviceToHost)
  dflt=$(copy_back "$b" Default)
  [ -n "$back" ] && [ -n "$dflt" ] ||
    fail "$(printf 'expected: after the add kernel on %s, a cudaMemcpy of it to the host with cudaMemcpyDeviceToHost (into h_pinned), and one with cudaMemcpyDefault (into h_pageable)\nhappened: the program'"'"'s cudaMemcpy calls:\n%s\nusual cause: a copy back is missing, or goes the wrong way' "${b:-d_b}" "$(calls_of cudaMemcpy)")"
  # Each line is printed from the copy's data: after that copy.
  expect_waited "the copy back into h_pinned" "plus 1 on the device, device to host: " \
    "the host buffer was read before the device-to-host copy filled it" "$(call_field "$back" n)"
  expect_waited "the copy back with cudaMemcpyDefault" "device to host with cudaMemcpyDefault: " \
    "the host buffer was read before the copy with cudaMemcpyDefault filled it" "$(call_field "$dflt" n)"
  expect_report "plus 1 on the device, device to host" 2 \
    "the host buffer was read before the device-to-host copy filled it (zeros, or the old data, are the sign)"
  expect_report "device to host with cudaMemcpyDefault" 2 \
    "the host buffer was read before the copy with cudaMemcpyDefault filled it"
}

# hint: Make each copy with the pointers and the kind its question names, and print what it returns; the
# hint: chapter's table says what a real H200 answers, including the one wrong kind that works.
@test "step 5: answers the probe's questions as the CUDA runtime does (3 points)" {
  require_program
  run_program --name probe -- --probe
  expect_exit 0
  expect_answers "${PROBE_QUESTIONS[@]}"
  expect_verdicts_seen
  expect_output "$(expected_file probe.out)" \
    "a copy with other pointers or another kind than its question names, or a destination not cleared between questions (a failed copy then looks copied)"
}

# hint: Free each buffer once, with the call that matches how it was allocated: cudaFree for cudaMalloc,
# hint: cudaFreeHost for cudaMallocHost, free for malloc; all in the one cleanup every path reaches.
@test "step 6: frees each buffer once, with the call matching its allocator (2 points)" {
  require_program
  run_chosen
  expect_copies_ran
  expect_no_invalid_frees
  expect_no_leaks
  expect_probe_frees_asked
}

# hint: The memory checker (compute-sanitizer, or the CPU backend's) reports any access outside an
# hint: allocation, even the small overruns a real GPU lets pass: a kernel or copy that reaches one past the end.
@test "step 7: runs clean under the memory checker (2 points)" {
  require_program
  expect_memcheck_clean
}

# hint: Time the copies with cudaEventRecord before and after them, cudaEventSynchronize on the second
# hint: event, then cudaEventElapsedTime. The pinned copies must read the buffer from cudaMallocHost.
@test "step 8: copies from pinned memory at least 3x as fast as pageable (2 points)" {
  local ratio times bytes=268435456 pinned pageable spans kind s e
  require_program
  # Everything but the ratio is checked on every backend: the mode runs, its copies are the ones timed,
  # its data arrives, nothing leaks. Only the ratio needs a real GPU.
  run_program --name bandwidth --alone -- --bandwidth
  expect_copies_ran
  expect_no_leaks
  pinned=$(calls fn=cudaMemcpy moved=HostToDevice src=pinned#* "bytes=$bytes" status=0 | awk -F '\t' '{ t += $6 } END { print t + 0 }')
  pageable=$(calls fn=cudaMemcpy moved=HostToDevice src=host "bytes=$bytes" status=0 | awk -F '\t' '{ t += $6 } END { print t + 0 }')
  [ "$pinned" -ge 5 ] && [ "$pageable" -ge 5 ] ||
    fail "$(printf 'expected: the timed copies of %s bytes host to device, at least 5 from pinned memory (cudaMallocHost) and 5 from pageable memory (malloc)\nhappened: %s from pinned memory, %s from pageable memory\nusual cause: the "pinned" copies read a malloc buffer (pinned memory comes from cudaMallocHost), or copy fewer bytes than the buffer' "$bytes" "$pinned" "$pageable")"
  expect_call cudaEventElapsedTime status=0 --because "the copies are timed with CUDA events: cudaEventRecord, cudaEventSynchronize, cudaEventElapsedTime"
  grep -qx 'copied data checked: yes' "$RUN_DIR/stdout" ||
    fail "$(printf 'expected: the line "copied data checked: yes" (the device buffer holds the host data after the timed copies)\nhappened: %s\nusual cause: the timed copies move fewer bytes than the buffer, or copy into another buffer' \
      "$(grep -m1 '^copied data checked' "$RUN_DIR/stdout" || echo "no such line")")"
  # The times are the ones the events measured around the copies, as the trace recorded them: a span
  # that holds only pinned copies times those, one that holds only pageable ones times them.
  spans=$(elapsed_spans | while IFS=$'\t' read -r ms s e _; do
    pinned=$(span_count "$s" "$e" fn=cudaMemcpy moved=HostToDevice src=pinned#* "bytes=$bytes" status=0)
    pageable=$(span_count "$s" "$e" fn=cudaMemcpy moved=HostToDevice src=host "bytes=$bytes" status=0)
    if [ "$pinned" -gt 0 ] && [ "$pageable" = 0 ]; then echo "pinned $ms $pinned $s $e"; fi
    if [ "$pageable" -gt 0 ] && [ "$pinned" = 0 ]; then echo "pageable $ms $pageable $s $e"; fi
  done)
  times=$(awk '{ ms[$1] += $2; n[$1] += $3 } END { if (n["pinned"] && n["pageable"]) printf "%.4f %.4f", ms["pageable"] / n["pageable"], ms["pinned"] / n["pinned"] }' <<<"$spans")
  [ -n "$times" ] ||
    fail "$(printf 'expected: the pageable copies and the pinned copies each timed by two events recorded around them (cudaEventRecord before, cudaEventRecord after, cudaEventElapsedTime)\nhappened: the elapsed-time calls were:\n%s\nusual cause: one event recorded on the wrong side of the copies, or the two kinds in one timing' "$(calls_of cudaEventElapsedTime)")"
  ratio=$(awk -v t="$times" 'BEGIN { split(t, m, " "); printf "%.2f", m[1] / m[2] }')
  awk -v r="$ratio" -v line="$(grep -m1 '^pinned/pageable: ' "$RUN_DIR/stdout")" 'BEGIN {
    if (!match(line, /^pinned\/pageable: [0-9.]+x$/)) exit 1; p = substr(line, 18) + 0; exit !(p - r < 0.06 && r - p < 0.06) }' ||
    fail "$(printf 'expected: the line "pinned/pageable: %sx" (the mean pageable copy took %s ms, the mean pinned one %s ms, as the events measured)\nhappened: %s\nusual cause: the bandwidth mode is not written yet (step 8 TODO), or the ratio printed is not the one measured' \
      "$(printf '%.1f' "$ratio")" "${times% *}" "${times#* }" "$(grep -m1 '^pinned/pageable' "$RUN_DIR/stdout" || echo "no such line")")"
  # What the events time is the copies, not the host's own work: checked here, on every backend.
  while read -r kind _ _ s e; do expect_span_host "the $kind copies" "$s" "$e"; done <<<"$spans"
  require_real_gpu "the ratio of two copy times"
  awk -v r="$ratio" -v min="$MIN_RATIO" 'BEGIN { exit !(r >= min) }' ||
    fail "$(printf 'expected: copies from pinned memory at least %sx as fast as from pageable memory (the H200: about 7.8x)\nhappened: measured %sx (a pageable copy %s ms, a pinned one %s ms)\nusual cause: the two timings are swapped, or the events do not bracket the copies' \
      "$MIN_RATIO" "$ratio" "${times% *}" "${times#* }")"
}

# hint: When an allocation fails: print one line "error: cudaMalloc of N bytes failed: <cudaGetErrorString>"
# hint: (cudaMallocHost the same) on stderr, free what is already allocated (goto cleanup), and exit with status 1.
@test "step 9: survives running out of device memory (3 points)" {
  require_program
  expect_real_oom
  fault_sweep --lesson-work "$(chosen_n)"
  run_program --name probe -- --probe
  expect_answers --find "${PROBE_QUESTIONS[@]}"
  fault_sweep --name sweep-probe --skip "$ANSWER_NS" -- --probe
  fault_sweep --name sweep-bandwidth -- --bandwidth
}
