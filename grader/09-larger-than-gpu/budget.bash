# Lesson 09's grader helpers (loaded by grader/09-larger-than-gpu.bats): the sizes and budgets the grader
# chooses, the sum it expects, and what it reads in the trace about device memory, retries and streams.

# shellcheck shell=bash
MIB=1048576
MIN_CHUNK=262144 # values (kernels' data: 4 bytes each) in the smallest chunk the lesson allows
MAX_DEVICE=$((2 * (16 * MIB + 8))) # what two chunks of the largest size hold: a budget above it need not be used up
# The device-memory budgets the grader gives (CUDAWB_DEVICE_BUDGET, grader/README.md: the trace keeps them, on
# both backends alike: cudaMemGetInfo's free is what is left of one, an allocation past it fails with 2).
LEAVE_B=6        # MiB for the run without --budget
LEAVE_C=4        # ... for the run whose --budget is more than the device has
LEAVE_SWEEP=5    # ... for the failure sweep: room for chunks of 2 x MIN_CHUNK, so that a failed allocation can be survived

# Sizes and budgets, from the grading's chosen number: no run's output can be written in advance. Every data
# set is larger than the budget's chunks, and no size is a whole number of chunks (a last, shorter one).
budget_a() { echo $((3 * MIB + 4096 + ($(chosen_n) * 7919) % (MIB - 4096))); }
size_a() { echo $((4 * MIN_CHUNK + 1 + $(chosen_n) % (MIN_CHUNK - 1))); }
size_b() { echo $((LEAVE_B * MIB / 4 + 1 + $(chosen_n) % (2 * MIN_CHUNK - 1))); }
size_c() { echo $((LEAVE_C * MIB / 4 + 1 + ($(chosen_n) * 3) % (MIN_CHUNK - 1))); }

run_a() { run_program --name "a-$(size_a)" -- --budget "$(budget_a)" "$(size_a)"; }
run_b() { run_program --name "b-$(size_b)" --env "CUDAWB_DEVICE_BUDGET=$((LEAVE_B * MIB))" -- "$(size_b)"; }
run_c() { run_program --name "c-$(size_c)" --env "CUDAWB_DEVICE_BUDGET=$((LEAVE_C * MIB))" -- --budget $((64 * MIB)) "$(size_c)"; }

# expected_sum N: the Collatz steps of the data set's first N values (kernels/chunks.cuh: value i is
# ((i * 40503 + 12345) mod 16384) + 1), summed here: every 16384 values in a row hold each of 1..16384 once.
expected_sum() {
  awk -v n="$1" 'BEGIN {
    m = 16384
    for (x = 1; x <= m; x++) { y = x; c = 0; while (y != 1) { y = (y % 2) ? 3 * y + 1 : y / 2; c++ }; steps[x] = c; all += c }
    full = int(n / m); s = full * all
    for (i = 0; i < n - full * m; i++) s += steps[(i * 40503 + 12345) % m + 1]
    printf "%.0f\n", s
  }'
}

# expect_summed N CAUSE: the last run summed its N values on the device and printed the sum the grader
# computes: every value copied to the device once, sum_steps over all of them, the sums copied back and
# waited for before the line is printed. CAUSE: the usual cause of a wrong sum.
expect_summed() {
  local n=$1 copies launches bytes counted d2h
  # Any copy counts here, whatever its kind named and whether it waits: overlapping them is step 6's.
  copies=$(calls "fn=cudaMemcpy*" moved=HostToDevice status=0 | awk -F '\t' '$2 ~ /^cudaMemcpy(Async)?$/')
  bytes=$(awk -F '\t' '{ v = " " $7 " "; sub(/.* bytes=/, "", v); sub(/ .*/, "", v); t += v * $6 } END { print t + 0 }' <<<"$copies")
  [ "$bytes" = "$((n * 4))" ] ||
    fail "$(printf 'expected: the %s values (%s bytes) copied to the device once each, in chunks (cudaMemcpyAsync)\nhappened: %s bytes copied in %s call(s)%s\nusual cause: the last, shorter chunk dropped or copied whole, or a chunk copied twice' \
      "$n" "$((n * 4))" "$bytes" "$(grep -c . <<<"$copies")" "$(cut -f5 <<<"$copies" | sort -u | paste -sd' ' | sed '/./s/^/ at /')")"
  launches=$(calls fn=cudaLaunchKernel kernel=sum_steps status=0)
  counted=$(awk -F '\t' '{ a = $7; sub(/.* args=/, "", a); sub(/ .*/, "", a); split(a, v, ","); t += v[2] * $6 } END { print t + 0 }' <<<"$launches")
  [ "$counted" = "$n" ] ||
    fail "$(printf 'expected: sum_steps launched over the %s values, one launch per chunk\nhappened: its launches covered %s values\nusual cause: a launch given the whole chunk size for the last chunk, or a chunk not summed' "$n" "$counted")"
  d2h=$(calls "fn=cudaMemcpy*" moved=DeviceToHost status=0 | awk -F '\t' '$2 ~ /^cudaMemcpy(Async)?$/' | cut -f1 | tr '\n' ' ')
  [ -n "$d2h" ] || fail "expected: the sums copied back to the host (cudaMemcpyAsync, or cudaMemcpy); happened: no such copy; the program $RUN_HOW"
  # shellcheck disable=SC2086 # one call number per word
  expect_waited "the copies of the sums" "sum of steps: " \
    "each sum is copied back on its stream: cudaStreamSynchronize that stream before the host reads it" $d2h
  expect_printed "sum of steps: $(expected_sum "$n")" "$2"
}

# provenance_total N: the total the provenance run (lib/grading.bash) must print for its N values: each sum
# the program copied back, times its copy's scale. A sum is what the sum_steps launches that add into it
# counted: launch k sums the data set's values from where launch k - 1 stopped (the chunks in order),
# its count of them; the sum it adds into is its third argument.
provenance_total() {
  calls status=0 | awk -F '\t' -v n="$1" "$RECORD_AWK"'
    BEGIN { m = 16384
      for (x = 1; x <= m; x++) { y = x; c = 0; while (y != 1) { y = (y % 2) ? 3 * y + 1 : y / 2; c++ }; steps[x] = c }
      pre[0] = 0; for (i = 0; i < m; i++) pre[i + 1] = pre[i] + steps[(i * 40503 + 12345) % m + 1] }
    function upto(x) { return int(x / m) * pre[m] + pre[x % m] }
    $2 == "cudaLaunchKernel" && field("kernel") == "sum_steps" {
      split(field("args"), a, ","); count = a[2] + 0
      for (t = 0; t < $6; t++) { key = ptr_base(a[3]) SUBSEP ptr_offset(a[3]); partial[key] += upto(first + count) - upto(first); first += count }
      next }
    $2 ~ /^cudaMemcpy/ && field("scale") != "" {
      copies[++nc] = ptr_base(field("src")) SUBSEP ptr_offset(field("src")) SUBSEP field("bytes") SUBSEP field("scale") }
    END {
      for (key in partial) { split(key, k, SUBSEP); sc = 1
        for (c = 1; c <= nc; c++) { split(copies[c], cp, SUBSEP); if (cp[1] == k[1] && cp[2] <= k[2] && k[2] < cp[2] + cp[3]) sc = cp[4] }
        total += partial[key] * sc }
      printf "%.0f\n", total }'
}

# device_allocs: the last run's device allocations (successful or not), for a message.
device_allocs() {
  calls class=alloc | awk -F '\t' '$2 ~ /^cudaMalloc(Async|FromPoolAsync|Pitch|3D)?$/' | head -n 8 |
    while IFS= read -r rec; do printf '    %s\n' "$(call_text "$rec")"; done
}

# expect_peak_within LIMIT WHAT: the last run never held more than LIMIT bytes of device memory at once (the
# trace's peak), and used at least a quarter of it (or of MAX_DEVICE): chunks that fit, and not tiny ones.
expect_peak_within() {
  local limit=$1 what=$2 peak use
  peak=$(report_total peak)
  [ -n "$peak" ] || fail "expected: a record of the program's device memory; happened: no report; the program $RUN_HOW"
  [ "$peak" -le "$limit" ] ||
    fail "$(printf 'expected: at most %s bytes of device memory held at once: %s\nhappened: %s bytes at the peak; its allocations:\n%s\nusual cause: the budget ignored, or the whole data set allocated on the device' \
      "$limit" "$what" "$peak" "$(device_allocs)")"
  use=$((limit < MAX_DEVICE ? limit : MAX_DEVICE))
  [ "$((peak * 4))" -ge "$use" ] ||
    fail "$(printf 'expected: chunks as large as the budget allows: at least a quarter of %s bytes held\nhappened: %s bytes at the peak\nusual cause: a chunk size typed in, not computed from the budget' "$use" "$peak")"
}

# retry_report: walks the last run's device allocations. Prints "fails N", or first "held N LIST" when an
# allocation after a failed one was made while buffers of the failed round were still held (LIST), or
# "big N BYTES MAX" when it was not at most half the largest of the failed round.
retry_report() {
  trace_table
  awk -F '\t' '
    function field(k,   v) { v = " " $7 " "; if (!match(v, " " k "=[^ ]*")) return ""; return substr(v, RSTART + length(k) + 2, RLENGTH - length(k) - 2) }
    $3 == "alloc" && $2 ~ /^cudaMalloc(Async|FromPoolAsync|Pitch|3D)?$/ {
      b = field("bytes") + 0
      if (after) {
        list = ""; for (p in live) list = list " " p
        if (list != "") { print "held", $1, substr(list, 2); exit }
        if (2 * b > failed_max) { print "big", $1, b, failed_max; exit }
        after = 0; round = 0
      }
      if (b > round) round = b
      if ($4 == 0) live[field("ptr")] = 1
      else if ($4 == 2) { fails++; after = 1; failed_max = round }
    }
    ($2 == "cudaFree" || $2 == "cudaFreeAsync") && $4 == 0 { delete live[field("ptr")] }
    END { print "fails", fails + 0 }' "$RUN_DIR/calls.tsv" | head -n 1
}

# expect_retries_freed MIN_FAILS: in the last run, at least MIN_FAILS device allocations failed, and after
# each the program freed every device buffer it held before it tried again, with chunks at most half as large.
expect_retries_freed() {
  local what n rest
  read -r what n rest <<<"$(retry_report)"
  case $what in
    held) fail "$(printf 'expected: after an allocation fails, every device buffer still held freed before the next try\nhappened: %s still held when %s was called\nusual cause: the buffers of the failed try kept: half a chunk beside them may not fit either, and they leak' \
      "${rest:-?}" "$(call_text "$(calls "n=$n")")")" ;;
    big) fail "$(printf 'expected: after an allocation fails, the next try at most half as large (%s bytes)\nhappened: %s\nusual cause: the chunk not halved before trying again' \
      "$((${rest#* } / 2))" "$(call_text "$(calls "n=$n")")")" ;;
  esac
  [ "$n" -ge "$1" ] ||
    fail "$(printf 'expected: a --budget (64 MiB) larger than the device has (the grader gave it %s MiB): a cudaMalloc that fails with out of memory, then smaller chunks\nhappened: %s failed allocation(s); its allocations:\n%s\nusual cause: the chunk computed from cudaMemGetInfo, not from --budget' \
      "$LEAVE_C" "$n" "$(device_allocs)")"
}

# per_stream_waits: an awk program's part that follows, per stream, up to which call its work is known to be
# finished (done[S]): a wait for the stream or the device, or for an event recorded on it. Shared by the two
# checks below, which read calls.tsv with it.
# shellcheck disable=SC2016 # an awk program: its $ are awk's
WAITS_AWK='
  function field(k,   v) { v = " " $7 " "; if (!match(v, " " k "=[^ ]*")) return ""; return substr(v, RSTART + length(k) + 2, RLENGTH - length(k) - 2) }
  function base(p) { sub(/\+[0-9]+$/, "", p); return p }
  $2 == "cudaEventRecord" && $4 == 0 { on[field("event")] = field("stream"); at[field("event")] = $1 }
  $4 == 0 && ($2 == "cudaStreamSynchronize" || $2 == "cudaStreamQuery") { done[field("stream")] = $1 }
  $4 == 0 && ($2 == "cudaEventSynchronize" || $2 == "cudaEventQuery") && (field("event") in on) {
    e = field("event"); if (at[e] > done[on[e]]) done[on[e]] = at[e]
  }
  $4 == 0 && $2 == "cudaDeviceSynchronize" { all = $1 }
  function finished(s, n) { return done[s] > n || all > n }
'

# trace_overlap: the first copy to the device queued while a sum on another stream was not known to be
# finished (nothing printed when there is none).
trace_overlap() {
  trace_table
  awk -F '\t' "$WAITS_AWK"'
    $2 == "cudaLaunchKernel" && $4 == 0 { last[field("stream")] = $1 }
    $2 == "cudaMemcpyAsync" && $4 == 0 && field("kind") == "HostToDevice" {
      for (s in last) if (s != field("stream") && !finished(s, last[s])) { print $1; exit }
    }' "$RUN_DIR/calls.tsv"
}

# trace_early_refill: the first copy from a staging buffer whose previous copy was not known to be finished
# when it was queued (the host had written the buffer in between), as a sentence; nothing when there is none.
trace_early_refill() {
  trace_table
  awk -F '\t' "$WAITS_AWK"'
    $2 == "cudaMemcpyAsync" && $4 == 0 && field("kind") == "HostToDevice" {
      b = base(field("src"))
      if ((b in prev) && !finished(pstream[b], prev[b])) { print $1, prev[b]; exit }
      prev[b] = $1; pstream[b] = field("stream")
    }' "$RUN_DIR/calls.tsv" | while read -r now before; do
    printf '%s was queued while %s, the copy before from the same buffer, may still have been running' \
      "$(call_text "$(calls "n=$now")")" "$(call_text "$(calls "n=$before")")"
  done
}

# expect_gives_up: with a device budget drawn below what one buffer of the smallest chunk needs (a quarter of
# a MiB to just under 1 MiB), nothing fits, however many streams the program has (one is step 6's mistake,
# and must not turn this step into a pass or a failure): the program halves down to MIN_CHUNK from a
# --budget drawn from 16 to 512 MiB, then keeps the contract for the allocation that failed last, having
# freed what it held.
expect_gives_up() {
  local last bytes line why device budget peak
  device=$(drawn gives-up-device $((MIB / 4)) $((MIN_CHUNK * 4 - 4096)))
  budget=$(drawn gives-up-budget $((16 * MIB)) $((512 * MIB)))
  run_program --name gives-up --env "CUDAWB_DEVICE_BUDGET=$device" -- --budget "$budget" "$(size_c)"
  last=$(calls class=alloc status=2 | tail -n 1)
  bytes=$(call_field "$last" bytes)
  line=$(grep -m1 '^error: ' "$RUN_DIR/stderr" || true)
  why=""
  if [ "$RUN_NORMAL" != 1 ] || [ "$RUN_STATUS" -ne 1 ]; then
    why="it $RUN_HOW"
  elif [ -z "$last" ]; then
    # This run's --budget is more than the device has: a program that does not keep to --budget (step 4's
    # run a, reused) asks cudaMemGetInfo instead and refuses, which is step 4's mistake, not this step's.
    run_a
    peak=$(report_total peak)
    [ -z "$peak" ] || [ "$peak" -le "$(budget_a)" ] ||
      skip "needs step 4 first: this run gives a --budget of $budget bytes, more than the device's $device, and the program does not keep to a --budget (step 4), so it never reaches the allocations that fail"
    why="no allocation failed, though the device had $device bytes for it"
  elif [ "$(grep -c '^error: ' "$RUN_DIR/stderr")" -ne 1 ] || [[ $line != *"$(call_field "$last" fn)"* ]] ||
    [[ $line != *" $bytes "* ]] || [[ $line != *": $(error_string "$(call_field "$last" status)")" ]]; then
    why="its stderr: $(excerpt "$RUN_DIR/stderr" 3 | sed 's/^ *//')"
    # Named by its place: a step before that failed on the same call (its retry) is where to start.
    why+="; the first call that failed: $(call_site_text "$(first_failed_call)")"
  elif [ "$(report_total live)" != 0 ] || [ "$(report_total live-streams)" != 0 ] || [ "$(report_total live-events)" != 0 ]; then
    why="it did not release what it held: $(leaks_beyond "" | tr -s ' ')"
  fi
  [ -z "$why" ] ||
    fail "$(printf 'expected: with %s bytes of device memory and a --budget of %s, chunks halved down to the smallest, then one "error: %s of %s bytes failed: out of memory" line for the allocation that failed last, everything released, exit status 1\nhappened: %s\nusual cause: a retry that never gives up, or a failure whose return value is not checked' \
      "$device" "$budget" "$(fn=$(call_field "$last" fn); echo "${fn:-CALL}")" "${bytes:-N}" "$why")"
  expect_retries_freed 2
}

# expect_budget_refused: a --budget drawn below one buffer of the smallest chunk (a quarter of a MiB to just
# under 1 MiB), which no number of streams fits: one "error: ..." line, exit status 1, and no device memory
# beyond it.
expect_budget_refused() {
  local peak budget
  budget=$(drawn refused-budget $((MIB / 4)) $((MIN_CHUNK * 4 - 4096)))
  run_program --name "refused-$budget" -- --budget "$budget" "$(size_a)"
  peak=$(report_total peak)
  if [ "$RUN_NORMAL" != 1 ] || [ "$RUN_STATUS" != 1 ] || [ "$(grep -c '^error: ' "$RUN_DIR/stderr")" != 1 ] ||
    [ "${peak:-0}" -gt "$budget" ] || [ "$(report_total live)" != 0 ]; then
    fail "$(printf 'expected: a --budget of %s bytes, less than one chunk of %s values, refused: one "error: ..." line on stderr, no device memory beyond the budget, exit status 1\nhappened: it %s, held %s bytes at the peak; its stderr:\n%s\nusual cause: first_chunk() returns a chunk below MIN_CHUNK, or the program goes on without one' \
      "$budget" "$MIN_CHUNK" "$RUN_HOW" "${peak:-0}" "$(excerpt "$RUN_DIR/stderr" 3)")"
  fi
}

# survived_allocation: for fault_sweep --survive: the last run exited with status 0 after its injected
# failure. Passes when the failure was a device allocation and the program went on as the lesson asks:
# everything it held freed, smaller chunks, the right sum, nothing left allocated. Prints why not.
survived_allocation() {
  local failed what want
  failed=$(failed_call)
  if ! [[ $(call_field "$failed" fn) =~ ^cudaMalloc(Async|FromPoolAsync|Pitch|3D)?$ ]]; then
    echo "it exited with status 0, as if $(call_field "$failed" fn) had not failed (the contract: exit status 1)"
    return 1
  fi
  read -r what _ <<<"$(retry_report)"
  [ "$what" = fails ] || { echo "it tried again without freeing what it held, or without halving the chunk"; return 1; }
  [ "$(report_total live)" = 0 ] || { echo "it left device or pinned memory allocated"; return 1; }
  # The sum is judged only where the sweep's run without a failure (CONTRACT_BASELINE) prints it right: a
  # sum wrong without any failure is step 2's mistake, and tells nothing about the recovery.
  want="sum of steps: $(expected_sum "$(sweep_n)")"
  grep -qxF "$want" "$CONTRACT_BASELINE/stdout" || return 0
  grep -qxF "$want" "$RUN_DIR/stdout" ||
    { echo "it went on with smaller chunks, but printed a wrong sum: $(grep -m1 '^sum of steps' "$RUN_DIR/stdout")"; return 1; }
}

# The failure sweep's run: without --budget, under a device budget of LEAVE_SWEEP MiB, of a size drawn per
# grading: more values than the whole budget holds, so that every way of cutting chunks from it (the
# solution's 2 x MIN_CHUNK, a chunk fitted to the budget, one stream or two) makes at least two chunks, and
# a run of one chunk is never the lesson's work.
sweep_n() { drawn sweep-n $((LEAVE_SWEEP * MIB / 4 + 1)) $((LEAVE_SWEEP * MIB / 4 + 2 * MIN_CHUNK)); }
sweep_chunks() {
  fault_sweep --lesson-work --env "CUDAWB_DEVICE_BUDGET=$((LEAVE_SWEEP * MIB))" --survive survived_allocation -- "$(sweep_n)"
}
