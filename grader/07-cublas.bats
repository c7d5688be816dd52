#!/usr/bin/env bats
# Grader for lesson 07, cuBLAS: one @test per graded step, its points in its name.
# The "# hint:" lines above a step are what `make hint LESSON=7` prints while the step is not passed.

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
memcheck_args() { echo "$(drawn_prime memcheck-m 17 97) $(drawn_prime memcheck-n 17 97) $(drawn_prime memcheck-k 17 97)"; }

# The calls the TODOs add: the handle and the product. The memory checker and the failure sweep grade how
# the work is done, so they need it done (expect_lesson_work).
LESSON_WORK="cublasCreate=1 cublasSgemm=1"
# Checks of a later step that can explain why a run ended badly (ended_badly): that step's finding.
ENDING_CHECKS="6:misplaced_scalars"

# The speed-up cublasSgemm must show over the provided naive kernel at 4096 x 4096 on a GPU (the H200:
# 25.5 ms against 2.67 ms, 9.5x in each of 20 runs, tests/gpu/README.md).
MIN_SPEEDUP=5
GPU_TIMED_N=4096
CPU_TIMED_N=48

# The product the grader asks for, chosen when grading starts (chosen_n): A is M x K, B is K x N, none
# of them a round number: 101..300 rows, 51..201 columns, 31..130 inner terms. N is never M: with M = N the
# row-major arrays handed to cuBLAS as they are make a call of the right shape, and A's buffer and B's hold
# as many floats, so that the trace could not tell the operands apart (gemm_rows).
mat_m() { echo $(( $(chosen_n) % 200 + 101 )); }
mat_n() { local n=$(( $(chosen_n) % 150 + 51 )); [ "$n" != "$(mat_m)" ] || n=$((n + 1)); echo "$n"; }
mat_k() { echo $(( $(chosen_n) % 100 + 31 )); }
run_chosen() { run_program --name "run-$(mat_m)x$(mat_n)x$(mat_k)" -- "$(mat_m)" "$(mat_n)" "$(mat_k)"; }

# expected_checksum M N K: the weighted sum of row-major C = A B (kernels/gemm.cuh: a_value, b_value,
# checksum_weight), computed here from the formulas: sum over l of (sum_i a(i,l) u(i)) (sum_j b(l,j) v(j)).
expected_checksum() {
  awk -v m="$1" -v n="$2" -v k="$3" 'BEGIN {
    for (l = 0; l < k; l++) {
      u = 0; for (i = 0; i < m; i++) u += ((i * 7 + l * 3) % 9 - 2) * (i % 13 + 1)
      v = 0; for (j = 0; j < n; j++) v += ((l * 5 + j * 2) % 7 - 1) * (j % 11 + 1)
      s += u * v
    }
    printf "%.0f\n", s }'
}

# read_before_wait BACK: the checksum line (or, with none, the end of the output) came before the host waited
# for BACK, the copy back of the product. A copy that returns only when done (not ...Async) needs no wait.
read_before_wait() {
  local printed
  [[ $(call_field "$1" fn) == *Async ]] || return 1
  printed=$(printed_at "checksum: ")
  [ -n "$(unfinished_at "${printed:-$(stat -c %s "$RUN_DIR/stdout")}" "$(call_field "$1" n)")" ]
}

# expect_checksum M N K WHAT: the last run printed the right "checksum: S" line for M x K times K x N.
expect_checksum() {
  local want line gemm back
  want=$(expected_checksum "$1" "$2" "$3")
  line=$(grep -m1 '^checksum: ' "$RUN_DIR/stdout" || true)
  # A checksum read before the copy back was waited for shows whatever the copy had written by then, right
  # or wrong by luck (on a GPU, by timing): it cannot be graded until step 4's wait is there.
  gemm=$(calls fn=cublasSgemm status=0 | tail -n 1)
  back=$([ -z "$gemm" ] || copy_back "$gemm")
  [ -z "$back" ] || [ -z "$(printed_at "checksum: ")" ] || ! read_before_wait "$back" ||
    skip "needs step 4 first: the checksum was printed before the host waited for $(call_site_text "$back"), so it shows whatever the copy had written by then; step 4 grades the wait"
  [ "$line" = "checksum: $want" ] && return 0
  fail "$(printf 'expected: "checksum: %s", the weighted sum of C = A B for A %s x %s and B %s x %s (%s)\nhappened: %s%s\nusual cause: %s' \
    "$want" "$1" "$3" "$3" "$2" "$4" "${line:-no checksum line; the program $RUN_HOW}" \
    "${gemm:+, from the product of $(call_site_text "$gemm")}" \
    "row-major arrays handed to cuBLAS as they are: cuBLAS reads them column-major, as A^T and B^T, and computes another product. Ask for C^T = B^T A^T (B first, then A, dimensions n, m, k) or use the transposes, with each leading dimension the length of a column-major column")" ||
    return 1
}

# handle_after_destroy: the last run's first use of a cuBLAS handle after a cublasDestroy of it had returned 0
# (a product, a setting, a second destroy), as a phrase naming both calls; nothing when there is none. Such a
# use fails (CUBLAS_STATUS_NOT_INITIALIZED or worse): step 3's mistake, whichever step sees its failure first.
handle_after_destroy() {
  local pair
  local use
  # (a signal's record names the call it came during: an abort inside a second cublasDestroy)
  pair=$(calls | awk -F '\t' '
    { h = " " $7 " "; if (!sub(/.* handle=/, "", h)) next; sub(/ .*/, "", h) }
    h in gone && ($2 ~ /^cublas/ || ($2 == "signal" && $7 ~ /(^| )during=cublas/)) { print gone[h] " " $1; exit }
    $2 == "cublasDestroy" && $4 == 0 { gone[h] = $1 }')
  [ -n "$pair" ] || return 0
  use=$(calls "n=${pair#* }")
  if [ "$(call_field "$use" fn)" = signal ]; then
    printf 'the %s at %s (%s), which the program was killed in (%s), was made after %s' "$(call_field "$use" during)" \
      "$(call_field "$use" line)" "handle=$(call_field "$use" handle)" "$(call_field "$use" sig)" "$(call_site_text "$(calls "n=${pair% *}")")"
  else
    printf '%s was made after %s' "$(call_site_text "$use")" "$(call_site_text "$(calls "n=${pair% *}")")"
  fi
}

# gemm_rows REC M N K: how many rows of row-major C = A B (A M x K, B K x N) the cublasSgemm record REC
# computes, in one of the chapter's two forms; nothing when it computes something else. The buffer that holds
# B is the one the program uploaded K x N floats into (A's got M x K: the grader never chooses M = N).
#   C^T = B^T A^T: CUBLAS_OP_N twice, N x ROWS x K, B's buffer first (lda N), A's rows next (ldb K), ldc N;
#   the transposes: CUBLAS_OP_T twice, ROWS x N x K, A's rows first (lda K), B's buffer next (ldb N), ldc ROWS.
# provenance_checksum M N K: the checksum the provenance run (lib/grading.bash) must print: each element of C
# times the scale of the copy that brought it back (once, if none did). Where the copies back had one scale
# F, F times the checksum; else element by element, C row-major (ldc N) or, for the transposes, column-major.
provenance_checksum() {
  local m=$1 n=$2 k=$3 gemm c colmajor=0
  gemm=$(calls fn=cublasSgemm status=0 | tail -n 1)
  c=$(buffer_of "$gemm" C)
  [ "$(call_field "$gemm" ta)" != T ] || colmajor=1
  calls status=0 | awk -F '\t' -v m="$m" -v n="$n" -v k="$k" -v c="$c" -v colmajor="$colmajor" "$RECORD_AWK"'
    { sc = field("scale"); off = ptr_offset(field("src"))
      if (sc == "" || ptr_base(field("src")) != c) next
      scales[sc] = 1; e0 = int(off / 4)
      if ($2 ~ /^cublasGet/) { ld = field("lda") + 0; if ($2 ~ /Vector/) ld = field("incx") + 0
        for (col = 0; col < field("cols"); col++) for (r = 0; r < field("rows"); r++) scale[e0 + col * ld + r] = sc }
      else if ($2 ~ /^cudaMemcpy2D/) { for (y = 0; y < field("height"); y++) for (x = 0; x < field("width") / 4; x++) scale[e0 + int(y * field("spitch") / 4) + x] = sc }
      else for (e = e0; e < e0 + field("bytes") / 4; e++) scale[e] = sc }
    END {
      for (sc in scales) kinds++
      for (l = 0; l < k; l++) {
        u[l] = 0; for (i = 0; i < m; i++) u[l] += ((i * 7 + l * 3) % 9 - 2) * (i % 13 + 1)
        v[l] = 0; for (j = 0; j < n; j++) v[l] += ((l * 5 + j * 2) % 7 - 1) * (j % 11 + 1)
        s += u[l] * v[l] }
      if (kinds <= 1) { for (sc in scales) s *= sc; printf "%.0f\n", s; exit }
      s = 0
      for (i = 0; i < m; i++) for (j = 0; j < n; j++) {
        e = colmajor ? j * m + i : i * n + j; cij = 0
        for (l = 0; l < k; l++) cij += ((i * 7 + l * 3) % 9 - 2) * ((l * 5 + j * 2) % 7 - 1)
        s += cij * (i % 13 + 1) * (j % 11 + 1) * (e in scale ? scale[e] : 1) }
      printf "%.0f\n", s }'
}

gemm_rows() {
  local rec=$1 n=$3 k=$4 r1 r2 r3 b_bufs
  IFS=x read -r r1 r2 r3 <<<"$(call_field "$rec" mnk)"
  b_bufs=" $(calls status=0 "bytes=$((k * n * 4))" | awk -F '\t' '$2 ~ /^(cublasSet(Matrix|Vector)(Async)?|cudaMemcpy(Async)?)$/' |
    while IFS= read -r up; do buffer_of "$up" dst; done | sort -u | tr '\n' ' ')"
  [ "$r3" = "$k" ] || return 0
  case "$(call_field "$rec" ta)$(call_field "$rec" tb)" in
    NN) [ "$r1" = "$n" ] && [ "$(call_field "$rec" lda)" = "$n" ] && [ "$(call_field "$rec" ldb)" = "$k" ] &&
          [ "$(call_field "$rec" ldc)" = "$n" ] && [[ $b_bufs == *" $(buffer_of "$rec" A) "* ]] && echo "$r2" ;;
    TT) [ "$r2" = "$n" ] && [ "$(call_field "$rec" lda)" = "$k" ] && [ "$(call_field "$rec" ldb)" = "$n" ] &&
          [ "$(call_field "$rec" ldc)" = "$r1" ] && [[ $b_bufs == *" $(buffer_of "$rec" B) "* ]] && echo "$r1" ;;
  esac
  return 0
}

# expect_product M N K: the last run's successful cublasSgemm calls together compute the M rows of row-major
# C = A B (gemm_rows), each a well-formed block: what its checksum says is then cuBLAS's, not the host's.
expect_product() {
  local rec total=0
  rec=$(wrong_gemm "$@")
  [ -z "$rec" ] ||
    fail "$(printf 'expected: each cublasSgemm computes rows of row-major C = A B for A %s x %s and B %s x %s: CUBLAS_OP_N twice, n x rows x k, B first (lda n), then A (ldb k), ldc n (or the transposes: CUBLAS_OP_T twice, rows x n x k, A first (lda k), B (ldb n), ldc rows)\nhappened: %s\nusual cause: %s' \
        "$1" "$3" "$3" "$2" "$(call_text "$rec")" \
        "row-major arrays handed to cuBLAS as they are: cuBLAS reads them column-major, as A^T and B^T, and computes another product; or a leading dimension that is not the length of a column-major column")"
  while IFS= read -r rec; do
    [ -z "$rec" ] || total=$((total + $(gemm_rows "$rec" "$@")))
  done < <(calls fn=cublasSgemm status=0)
  [ "$total" = "$1" ] ||
    fail "$(printf 'expected: the product'"'"'s %s rows computed by cublasSgemm, once each\nhappened: its cublasSgemm calls computed %s rows:\n%s\nusual cause: a block of rows dropped or computed twice, or the product computed elsewhere' "$1" "$total" "$(calls_of cublasSgemm)")"
}

# wrong_gemm M N K: the last run's first cublasSgemm that returned 0 and computes none of the rows of
# row-major C = A B in either of the chapter's forms (gemm_rows); nothing when there is none.
wrong_gemm() {
  local rec
  while IFS= read -r rec; do
    [ -z "$rec" ] || [ -n "$(gemm_rows "$rec" "$@")" ] || { printf '%s\n' "$rec"; return 0; }
  done < <(calls fn=cublasSgemm status=0)
}

# The buffer a record's field names, without its offset: "alloc#3".
buffer_of() { call_field "$1" "$2" | sed 's/+.*//'; }

# copy_back GEMM: the first call after cublasSgemm record GEMM that copies the gemm's output to the host.
copy_back() {
  local c
  c=$(buffer_of "$1" C)
  calls status=0 | awk -F '\t' -v after="$(call_field "$1" n)" -v c="$c" '
    $1 > after && $2 ~ /^(cublasGetMatrix|cublasGetMatrixAsync|cublasGetVector|cublasGetVectorAsync|cudaMemcpy|cudaMemcpyAsync|cudaMemcpy2D|cudaMemcpy2DAsync)$/ &&
      (" " $7 " ") ~ (" src=" c "[ +]") { print; exit }'
}

PROBE_QUESTIONS=(
  "cublasSetMatrix of 4 x 2 floats with lda 2|fn=cublasSetMatrix rows=4 cols=2 lda=2"
  "cublasSetVector with incy 0|fn=cublasSetVector incy=0"
  "cublasSgemm with m = -1|fn=cublasSgemm mnk=-1x2x2"
  "cublasSgemm with k = 0|fn=cublasSgemm mnk=2x2x0"
  "cublasSgemm on a NULL handle|fn=cublasSgemm handle=null"
)

# The budget the grader gives --budget: B (K x N floats) and a third of A's rows and C's, plus 7: the one-
# shot product does not fit, and the blocks do not divide M.
budget_rows() { echo $(( $(mat_m) / 3 + 7 )); }
budget_bytes() { echo $(( 4 * ($(mat_k) * $(mat_n) + $(budget_rows) * ($(mat_k) + $(mat_n))) )); }
run_budget() {
  run_program --name "${1:-budget}" ${2:+--env "$2"} -- --budget "$(budget_bytes)" "$(mat_m)" "$(mat_n)" "$(mat_k)"
}

@test "step 1: compiles cleanly, without warnings (1 point)" {
  expect_clean_build
}

# hint: cuBLAS reads every matrix column-major: the row-major m x k array A is, to it, A^T (k x m). Ask it
# hint: for C^T = B^T A^T: which operand comes first then, what are the product's rows and columns, and what
# hint: is each matrix's leading dimension (the length of one of its rows, as C stores it)?
# hint: The checksum is of C as it came back: the grader scales it on the way in one of its runs.
@test "step 2: multiplies row-major matrices as column-major cuBLAS sees them, on the GPU (3 points)" {
  local gemm back late
  require_program
  run_chosen
  late=$(handle_after_destroy)
  [ -z "$late" ] || skip "needs step 3 first: $late; step 3 grades the handle's life"
  # A product of another shape is this step's finding however the run then ended: a leading dimension that
  # reaches past B's buffer faults in the library on the CPU backend, and on a GPU reads a neighbour or faults.
  if [ -n "$(wrong_gemm "$(mat_m)" "$(mat_n)" "$(mat_k)")" ]; then
    ended_badly 0 "" --record
    expect_product "$(mat_m)" "$(mat_n)" "$(mat_k)"
  fi
  expect_exit 0
  gemm=$(calls fn=cublasSgemm status=0 | tail -n 1)
  [ -n "$gemm" ] ||
    fail "$(printf 'expected: the product computed by cublasSgemm\nhappened: no cublasSgemm returned 0:\n%s\nusual cause: the TODO of step 2 is not written yet' "$(calls_of cublasSgemm)")"
  back=$(copy_back "$gemm")
  [ -n "$back" ] ||
    fail "$(printf 'expected: after the cublasSgemm, its output (C=%s) copied back to the host (cublasGetMatrix, or cudaMemcpy)\nhappened: no call copies %s to the host after it\nusual cause: the result read from another buffer, or not copied back at all' "$(buffer_of "$gemm" C)" "$(buffer_of "$gemm" C)")"
  expect_product "$(mat_m)" "$(mat_n)" "$(mat_k)"
  expect_checksum "$(mat_m)" "$(mat_n)" "$(mat_k)" "the grader's product"
  provenance_run "provenance-$(mat_m)x$(mat_n)x$(mat_k)" f32 "$(mat_m)" "$(mat_n)" "$(mat_k)"
  expect_provenance "checksum: $(provenance_checksum "$(mat_m)" "$(mat_n)" "$(mat_k)")" \
    "the product copied back by $(calls status=0 | grep -o 'scale=[0-9]*' | cut -d= -f2 | paste -sd, -)"
}

# hint: Create the handle once, before the big buffers (the library takes about 68 MiB of device memory
# hint: there), use it for every call, and destroy it once, after the last call that uses it.
@test "step 3: creates one handle before the buffers, and destroys it after its last use (2 points)" {
  local creates create first_alloc destroys last_use late
  require_program
  run_chosen
  # A handle used after its destroy is this step's finding even where that use ended the run.
  late=$(handle_after_destroy)
  # (the run's bad ending, if it has one, is then this step's to show: later steps on the run wait for it)
  [ -z "$late" ] || ended_badly 0 "" --record
  [ -z "$late" ] ||
    fail "$(printf 'expected: the handle destroyed once, after the last call that uses it\nhappened: %s\nusual cause: cublasDestroy before the last cuBLAS call, or twice: a destroyed handle makes the calls after it fail' "$late")"
  expect_exit 0
  creates=$(calls fn=cublasCreate status=0)
  [ "$(grep -c . <<<"$creates")" = 1 ] ||
    fail "$(printf 'expected: one cublasCreate, one handle for every call\nhappened: %s handles were created:\n%s\nusual cause: %s' "$(grep -c . <<<"$creates")" "$(calls_of cublasCreate)" \
      "$([ -z "$creates" ] && echo "the TODO of step 3 is not written yet" || echo "a handle created per call or per block (each holds its own 64 MiB or more of device memory)")")"
  create=$(call_field "$creates" n)
  first_alloc=$(first_n fn=cudaMalloc status=0)
  [ -z "$first_alloc" ] || [ "$create" -lt "$first_alloc" ] ||
    fail "$(printf 'expected: the handle created before the matrices are allocated\nhappened: %s came after %s\nusual cause: cublasCreate after the cudaMalloc calls: with the buffers in place, the library may not find the memory it needs (CUBLAS_STATUS_ALLOC_FAILED)' "$(call_site_text "$creates")" "$(call_site_text "$(calls "n=$first_alloc")")")"
  # Destroyed once, after the last use. A handle never destroyed is a leak: step 7's, which grades them all.
  destroys=$(calls fn=cublasDestroy status=0)
  if [ -n "$destroys" ]; then
    [ "$(grep -c . <<<"$destroys")" = 1 ] ||
      fail "$(printf 'expected: the handle destroyed once, at the end\nhappened: %s cublasDestroy call(s) returned 0:\n%s\nusual cause: cublasDestroy in two places (the error path and the end) both reached' "$(grep -c . <<<"$destroys")" "$(calls_of cublasDestroy)")"
    last_use=$(calls | awk -F '\t' '$2 ~ /^cublas/ && $2 != "cublasDestroy" && $7 ~ /handle=handle#1( |$)/ { n = $1 } END { print n + 0 }')
    [ "$(call_field "$destroys" n)" -gt "$last_use" ] ||
      fail "$(printf 'expected: the handle destroyed after the last call that uses it\nhappened: %s, and then %s\nusual cause: cublasDestroy before the last cuBLAS call (a destroyed handle makes it fail with CUBLAS_STATUS_EXECUTION_FAILED)' "$(call_site_text "$destroys")" "$(call_site_text "$(calls "n=$last_use")")")"
  fi
  [ -z "$(calls | awk -F '\t' '$2 ~ /^cublas/ && $7 ~ /handle=/ && $7 !~ /handle=(handle#1|null)( |$)/')" ] ||
    fail "expected: every cuBLAS call made with the one handle; happened: $(calls | awk -F '\t' '$2 ~ /^cublas/ && $7 ~ /handle=/ && $7 !~ /handle=handle#1( |$)/' | head -n 1 | cut -f2,5,7)"
}

# hint: cublasSetStream(handle, stream) puts the library's work into your stream; an Async copy back is
# hint: only queued: cudaStreamSynchronize(stream) before the host reads it.
@test "step 4: runs the library's work in the program's stream, and waits before reading (2 points)" {
  local set stream gemm back
  require_program
  run_chosen
  expect_exit 0
  set=$(calls --first fn=cublasSetStream status=0)
  stream=$(call_field "$set" stream)
  [ -n "$set" ] && [ "$stream" != 0 ] ||
    fail "$(printf 'expected: cublasSetStream with a stream the program created, so that cuBLAS works in the same stream as the copies\nhappened: %s\nusual cause: no cublasSetStream: cuBLAS then uses the legacy default stream, which waits for every other stream' "$(calls_of cublasSetStream)")"
  gemm=$(calls fn=cublasSgemm status=0 | tail -n 1)
  [ -n "$gemm" ] && [ "$(call_field "$gemm" n)" -gt "$(call_field "$set" n)" ] ||
    fail "expected: the product computed after cublasSetStream; happened: $(calls_of cublasSgemm | head -n 1)"
  back=$(copy_back "$gemm")
  [ -n "$back" ] || fail "expected: the product's output copied back to the host; happened: no such copy (step 2)"
  # A copy that returns only when done needs no wait; a queued one (Async) must be waited for.
  if [[ $(call_field "$back" fn) == *Async ]]; then
    [ "$(call_field "$back" stream)" = "$stream" ] ||
      fail "$(printf 'expected: the copy back queued in the stream cuBLAS works in (%s)\nhappened: %s\nusual cause: the copy on another stream, which does not wait for the product' "$stream" "$(call_text "$back")")"
    # Any wait that covers the copy counts (grader/lib/trace.bash, unfinished_at): a synchronize of its
    # stream or the device, an event recorded behind it and waited for, a query that returned cudaSuccess.
    ! read_before_wait "$back" ||
      fail "$(printf 'expected: the host waits for the stream after the copy back and before it reads the result\nhappened: %s returned at once, and the checksum was printed with no synchronize after it\nusual cause: the cudaStreamSynchronize missing, or before the copy back' "$(call_text "$back")")"
  fi
}

# hint: Each answer is cublasGetStatusName of the status the call returned: ask cuBLAS, do not type it.
@test "step 5: answers the probe's questions as cuBLAS does (3 points)" {
  require_program
  run_program --name probe -- --probe
  expect_exit 0
  expect_answers "${PROBE_QUESTIONS[@]}"
  expect_output "$(expected_file probe.out)" \
    "a question asked with other arguments than it names"
}

# misplaced_scalars: the last run's first cuBLAS call given a scalar where its handle's pointer mode does not
# look (alpha on the host in device mode: the GPU reads a host address, and the run ends with 700).
misplaced_scalars() {
  calls | awk -F '\t' '
    function field(k,   v) { v = " " $7 " "; if (!match(v, " " k "=[^ ]*")) return ""; return substr(v, RSTART + length(k) + 2, RLENGTH - length(k) - 2) }
    $2 == "cublasSetPointerMode" && $4 == 0 { mode[field("handle")] = field("mode"); next }
    $2 ~ /^cublas/ {
      m = mode[field("handle")]; if (m == "") m = "host"
      split("alpha beta result", keys, " ")
      for (i = 1; i <= 3; i++) {
        v = field(keys[i]); if (v == "") continue
        onhost = (v == "host" || v ~ /^pinned#/)
        if ((m == "host") != onhost) { print $2 " at " $5 ": " keys[i] "=" v " in " m " pointer mode"; exit }
      }
    }'
}

# hint: In the default pointer mode (host) alpha and beta are host pointers; after cublasSetPointerMode
# hint: (CUBLAS_POINTER_MODE_DEVICE) they must point to device memory.
@test "step 6: passes its scalars where the pointer mode says they are (2 points)" {
  local bad
  require_program
  run_chosen
  # Judged before the ending, which a misplaced scalar makes bad (700).
  bad=$(misplaced_scalars)
  [ -z "$bad" ] ||
    fail "$(printf 'expected: every scalar a host pointer in host pointer mode, a device pointer in device pointer mode\nhappened: %s\nusual cause: CUBLAS_POINTER_MODE_DEVICE with alpha on the host: the call returns 0, then the GPU reads a host address and the context is lost (700)' "$bad")"
  expect_exit 0
  expect_lesson_work "no cuBLAS call has scalars to check yet"
}

# hint: Free every buffer and destroy the handle and the stream in the cleanup block every path reaches.
@test "step 7: frees every buffer once and destroys its handle and stream (2 points)" {
  require_program
  run_chosen
  expect_exit 0
  expect_lesson_work "there is no handle to destroy yet"
  expect_no_leaks
  expect_no_invalid_frees
  run_budget
  expect_exit 0
  expect_no_leaks
  expect_no_invalid_frees
  expect_probe_frees_asked
}

# hint: The memory checker reports any access outside an allocation: a leading dimension larger than the
# hint: buffer's column, or a block past the last row.
@test "step 8: runs clean under the memory checker (2 points)" {
  require_program
  expect_memcheck_clean
}

# hint: Keep B on the device, and pass A and C through in blocks of rows: as many as the budget allows
# hint: (the last block is what is left). When a block's cudaMalloc runs out of memory, free, halve, retry.
@test "step 9: multiplies under a device-memory budget, in blocks, and retries smaller (2 points)" {
  local peak gemms mallocs n recovered=0 line why
  require_program
  run_budget
  expect_exit 0
  expect_checksum "$(mat_m)" "$(mat_n)" "$(mat_k)" "with --budget $(budget_bytes)"
  # The trace's peak counts every allocator (cudaMalloc, pitched, 3-D, stream-ordered, managed).
  peak=$(report_total peak)
  [ "${peak:-0}" -le "$(budget_bytes)" ] ||
    fail "$(printf 'expected: never more than the budget, %s bytes, of device memory held at once\nhappened: %s bytes were (every device allocation the trace saw, from its call to its free)\nusual cause: the whole of A or C allocated at once, or a block size computed without B' "$(budget_bytes)" "$peak")"
  gemms=$(calls fn=cublasSgemm status=0 | grep -c . || true)
  [ "$gemms" -ge 2 ] ||
    fail "expected: the product in blocks, several cublasSgemm calls; happened: $gemms"
  expect_product "$(mat_m)" "$(mat_n)" "$(mat_k)"
  # Each allocation of the run fails once, by turns: the program gets the product with smaller blocks, or
  # (when nothing smaller can help) keeps the out-of-memory contract. At least one must be a recovery.
  mallocs=$(calls fn=cudaMalloc status=0 | sed -n 's/.*[[:space:]]nth=\([0-9]*\).*/\1/p')
  for n in $mallocs; do
    run_budget "budget-fail-$n" "CUDAWB_FAIL_NTH=$n"
    if [ "$RUN_NORMAL" = 1 ] && [ "$RUN_STATUS" = 0 ]; then
      line=$(grep -m1 '^checksum: ' "$RUN_DIR/stdout" || true)
      [ "$line" = "checksum: $(expected_checksum "$(mat_m)" "$(mat_n)" "$(mat_k)")" ] ||
        fail "$(printf 'expected: after a failed allocation the product still right, in smaller blocks\nhappened: with call %s failed, it printed %s\nusual cause: the retry does not start over with the smaller block' "$n" "${line:-no checksum}")"
      why=$(leaks_beyond "") ; [ -z "$why" ] ||
        fail "$(printf 'expected: an attempt that failed gives back what it took before the retry\nhappened: with call %s failed, still alive at exit:\n%s\nusual cause: the retry allocates again without freeing the first buffer of the failed attempt' "$n" "$why")"
      recovered=1
    else
      why=$(contract_kept located) ||
        fail "$(printf 'expected: a failed allocation of the budgeted product either retried with a smaller block or reported (one "error: ..." line, everything freed, status 1)\nhappened: with call %s failed, %s' "$n" "$why")"
    fi
  done
  [ "$recovered" = 1 ] ||
    fail "expected: at least one failed block allocation answered by a smaller block, and the product computed; happened: every failed allocation ended the program"
}

# hint: Time each product between two events recorded in the stream (cudaEventRecord, cudaEventSynchronize,
# hint: cudaEventElapsedTime) and print the times the events gave.
@test "step 10: cublasSgemm is at least 5x the naive kernel (2 points)" {
  local n spans naive blas ratio line timed kind s e want
  require_program
  run_timed "$GPU_TIMED_N" "$CPU_TIMED_N"
  n=$TIMED_SIZE
  grep -qx "naive kernel and cublasSgemm on $n x $n floats agree: yes" "$RUN_DIR/stdout" ||
    fail "$(printf 'expected: "naive kernel and cublasSgemm on %s x %s floats agree: yes" (whole numbers: the two products are equal to the bit)\nhappened: %s%s' "$n" "$n" "$(grep -m1 'agree' "$RUN_DIR/stdout" || echo "no such line; the program $RUN_HOW")" \
      "$(calls fn=cublasSgemm "mnk=${n}x${n}x${n}" status=0 | head -n 1 | while IFS= read -r g; do printf ', the product of %s' "$(call_site_text "$g")"; done)")"
  # The times are the ones the events measured, as the trace recorded them: the span with the naive
  # kernel's launch, and the span with one cublasSgemm over all n x n.
  timed=$(elapsed_spans | while IFS=$'\t' read -r ms s e _; do
    [ "$(span_count "$s" "$e" fn=cudaLaunchKernel kernel=naive_sgemm status=0)" -ge 1 ] && echo "naive $ms $s $e"
    [ "$(span_count "$s" "$e" fn=cublasSgemm "mnk=${n}x${n}x${n}" status=0)" = 1 ] && echo "cublas $ms $s $e"
  done | awk '!seen[$1]++')
  spans=$(awk '{ t[$1] = $2 } END { if (("naive" in t) && ("cublas" in t)) print t["naive"], t["cublas"] }' <<<"$timed")
  [ -n "$spans" ] ||
    fail "$(printf 'expected: the naive kernel and one cublasSgemm each timed by two events recorded around them\nhappened: the elapsed-time calls were:\n%s\nusual cause: an event recorded on the wrong side of the work, or in another stream' "$(calls_of cudaEventElapsedTime)")"
  read -r naive blas <<<"$spans"
  ratio=$(awk -v a="$naive" -v b="$blas" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
  line=$(grep -m1 '^naive: ' "$RUN_DIR/stdout" || true)
  printed_times "$line" 2 "$naive" 5 "$blas" 3 ||
    fail "$(printf 'expected: "naive: %.3f ms, cublasSgemm: %.3f ms, speed-up: %sx", the times cudaEventElapsedTime gave\nhappened: %s\nusual cause: the times printed are not the ones measured' "$naive" "$blas" "$ratio" "${line:-no such line}")"
  # What the events time is the two products, each once, not the host's own work or more GPU work:
  # checked here, on every backend.
  while read -r kind _ s e; do expect_span_host "the $([ "$kind" = naive ] && echo "naive kernel" || echo cublasSgemm)" "$s" "$e"; done <<<"$timed"
  while read -r kind _ s e; do
    want=$([ "$kind" = naive ] && echo "naive_sgemm launches: 1" || echo "cublasSgemm calls: 1")
    [ "$(span_work "$s" "$e")" = "$want" ] ||
      fail "$(printf 'expected: the %s timed alone: between its events, %s, and nothing else\nhappened: %s\nusual cause: the product run twice, or other work (a copy, another kernel) inside the timed span: the speed-up then compares something else' \
        "$([ "$kind" = naive ] && echo "naive kernel" || echo "cublasSgemm")" "$want" "$(span_work "$s" "$e")")"
  done <<<"$timed"
  require_real_gpu "the ratio of two kernel times"
  awk -v r="$ratio" -v min="$MIN_SPEEDUP" 'BEGIN { exit !(r >= min) }' ||
    fail "$(printf 'expected: cublasSgemm at least %sx as fast as the naive kernel\nhappened: %s ms against %s ms, %sx\nusual cause: the first cublasSgemm timed (it loads the library'"'"'s kernels), or the events in another stream than the work' \
      "$MIN_SPEEDUP" "$naive" "$blas" "$ratio")"
}

# hint: Check every call: CHECK_CUDA for the runtime, CHECK_CUBLAS (cublasGetStatusName and
# hint: cublasGetStatusString) for cuBLAS, whose CUBLAS_STATUS_ALLOC_FAILED is not a CUDA error.
@test "step 11: survives running out of device memory, in the runtime and in cuBLAS (3 points)" {
  local why rec
  require_program
  # The library's own out-of-memory: device memory filled until 32 MiB are left before the first
  # cublasCreate (it needs about 68), a real CUBLAS_STATUS_ALLOC_FAILED on the GPU and the CPU backend.
  run_program --name cublas-oom --env CUDAWB_CUBLAS_LEAVE_FREE_MB=32 -- "$(mat_m)" "$(mat_n)" "$(mat_k)"
  rec=$(calls --first fn=cublasCreate)
  [ "$(call_field "$rec" status)" = 3 ] ||
    fail "$(printf 'expected: with 32 MiB of device memory left, cublasCreate returns 3 (CUBLAS_STATUS_ALLOC_FAILED)\nhappened: %s\nusual cause: the handle is not created by the program'"'"'s first cuBLAS call' "$(calls_of cublasCreate)")"
  why=$(contract_kept located) ||
    fail "$(printf 'expected: cublasCreate failing with CUBLAS_STATUS_ALLOC_FAILED, the program prints one "error: gemm.cu:LINE: cublasCreate(&handle) failed: CUBLAS_STATUS_ALLOC_FAILED: the resource allocation failed" line and exits with status 1\nhappened: %s\nusual cause: the cuBLAS status printed as a CUDA error, or not checked' "$why")"
  # The runtime's own: a product of three 200000 x 200000 matrices (160 GB each) does not fit any GPU.
  run_program --name real-oom -- 200000 200000 200000
  why=$(contract_kept located) ||
    fail "$(printf 'expected: asked for 160 GB, the program prints one "error: gemm.cu:LINE: cudaMalloc(...) failed: cudaErrorMemoryAllocation: out of memory" line and exits with status 1\nhappened: %s\nusual cause: the return value of cudaMalloc is not checked' "$why")"
  fault_sweep --format located --lesson-work "$(mat_m)" "$(mat_n)" "$(mat_k)"
  # The budgeted product's other calls too; its allocations, which may answer a failure with smaller
  # blocks, are step 9's.
  run_budget
  fault_sweep --name sweep-budget --format located --skip "$(calls fn=cudaMalloc | cut -f1 | tr '\n' ' ')" -- \
    --budget "$(budget_bytes)" "$(mat_m)" "$(mat_n)" "$(mat_k)"
  run_program --name probe -- --probe
  expect_answers --find "${PROBE_QUESTIONS[@]}"
  fault_sweep --name sweep-probe --format located --skip "$ANSWER_NS" -- --probe
}
