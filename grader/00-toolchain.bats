#!/usr/bin/env bats
# Grader for lesson 00, the toolchain: one @test per graded step, its points in its name.
# The "# hint:" lines above a step are what `make hint LESSON=0` prints while the step is not passed.

setup_file() {
  load lib/grading
  lesson_setup_file
}

setup() {
  load lib/grading
}

# The calls the TODOs add: the device query and the start-up check. The leak step and the failure sweep grade
# how the work is done, so they need it done.
LESSON_WORK="cudaDeviceGetAttribute|cudaGetDeviceProperties=1 cudaFuncGetAttributes=1 cudaGetDeviceCount=1"

run_chosen() { run_program --name "run-$(chosen_n)" -- "$(chosen_n)"; }

# fix NAME: the words the lesson's program and `make doctor` give for NAME (FIX_NO_DRIVER, ...), from their
# one source.
fix() { toolchain_fix "$1"; }

# The sum the run must print: out[i] = 2 (i % 1000) + 1, computed here from n alone.
expected_sum() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) s += 2 * (i % 1000) + 1; printf "%.0f\n", s }'; }

# answer PREFIX FILTER...: the last successful call with FILTER's fields made before the program printed its
# line starting with PREFIX (the records' printed= field): the call the line's value came from.
answer() {
  local at
  at=$(printed_at "$1")
  shift
  [ -n "$at" ] || return 0
  calls "$@" status=0 | awk -F '\t' -v at="$at" '
    { p = " " $7 " "; if (match(p, / printed=[0-9]+ /)) { v = substr(p, RSTART + 9, RLENGTH - 10); if (v + 0 <= at) last = $0 } }
    END { if (last != "") print last }'
}

# device_answer PREFIX ATTR FIELD: what the device answered before the line PREFIX was printed, through
# cudaDeviceGetAttribute(ATTR) or cudaGetDeviceProperties (its record's FIELD), whichever came last.
device_answer() {
  local a p
  a=$(answer "$1" fn=cudaDeviceGetAttribute "attr=$2")
  p=$(answer "$1" fn=cudaGetDeviceProperties)
  if [ -n "$p" ] && { [ -z "$a" ] || [ "$(call_field "$p" n)" -gt "$(call_field "$a" n)" ]; }; then
    call_field "$p" "$3"
  elif [ -n "$a" ]; then
    call_field "$a" value
  fi
}

# expect_query PREFIX VALUE WHAT: the program printed PREFIX followed by VALUE, which the calls WHAT answered
# before the line was printed; an empty VALUE: no such call came before it.
expect_query() {
  [ -n "$2" ] || fail "$(printf 'expected: a line "%s..." printed after the call that answers it (%s)\nprinted:  %s\nusual cause: the value is typed in, or printed before it is asked' \
    "$1" "$3" "$(grep -m1 -F -- "$1" "$RUN_DIR/stdout" || echo "no such line; the program $RUN_HOW")")"
  expect_printed "$1$2" "the value does not come from $3 (a number typed in, or another attribute), or is printed in another format"
}

yes_no() { case $1 in 1) echo yes ;; 0) echo no ;; *) echo "" ;; esac; }
version_text() { [ -z "$1" ] || echo "$(($1 / 1000)).$(($1 % 1000 / 10))"; }
cc_text() { [ -z "$1" ] || echo "$(($1 / 10)).$(($1 % 10))"; }

# build_with NAME FLAGS: the student's files built again with the nvcc architecture flag FLAGS (one word),
# into build/NAME/, once per grading; the runs after WB_ALT_BUILD=NAME use that program.
build_with() {
  local out
  out=$WB_WORK/build/$1
  if [ ! -f "$out/status" ]; then
    local start=${EPOCHREALTIME//[!0-9]/}
    WB_ARCH=$2 build_program "$WB_LESSON" "${WB_SUBMISSION:-$WB_ROOT/exercises}/$WB_LESSON" "$out" || true
    echo "$(((${EPOCHREALTIME//[!0-9]/} - start) / 1000))" >"$out/elapsed-ms" # part of the floor: grader/bench/run.sh
  fi
  [ "$(cat "$out/status")" = ok ] ||
    fail "$(printf 'expected: the program builds with %s too\nhappened: %s:\n%s' "$2" "$(cat "$out/status")" "$(cat "$out/compile.log" "$out/link.log" | head -n 12)")"
  WB_ALT_BUILD=$1
}

# copy_of FROM_OR_TO BUFFER MOVED BYTES: the last run's successful copies (cudaMemcpy, or its Async form) of
# BYTES bytes with BUFFER as their src or dst (FROM_OR_TO) that moved the data MOVED (HostToDevice, ...),
# whatever kind they named (cudaMemcpyDefault included).
copy_of() {
  calls "fn=cudaMemcpy*" "$1=$2" "bytes=$4" "moved=$3" | awk -F '\t' '$2 ~ /^cudaMemcpy(Async)?$/'
}

# expect_result N: the run printed the kernel's results for N floats, as the grader computes them, and they
# are the kernel's: the input copied to the device, scale run on it into the output buffer after that copy,
# the output copied back after the kernel, and the lines printed after that copy.
expect_result() {
  local launch in out copy_in copy_out
  launch=$(calls fn=cudaLaunchKernel kernel=scale status=0 | awk -F '\t' -v n="$1" '(" " $7 " ") ~ (" args=alloc#[0-9]+,alloc#[0-9]+," n " ")' | tail -n 1)
  [ -n "$launch" ] ||
    fail "$(printf 'expected: scale launched over the %s floats, from one device buffer into another\nhappened: its launches:\n%s\nusual cause: the provided launch was edited, or a call before it failed' "$1" "$(calls_of cudaLaunchKernel)")"
  in=$(call_field "$launch" args | cut -d, -f1) out=$(call_field "$launch" args | cut -d, -f2)
  copy_in=$(copy_of dst "$in" HostToDevice $(($1 * 4)) | awk -F '\t' -v l="$(call_field "$launch" n)" '$1 < l' | tail -n 1)
  [ -n "$copy_in" ] && follows "$(call_field "$copy_in" n)" "$(call_field "$launch" n)" ||
    fail "$(printf 'expected: before the launch of scale, the %s input floats copied to its input buffer (%s), in an order the kernel follows\nhappened: %s; the copies were:\n%s\nusual cause: the input copied after the launch, or not at all: the results printed are then not the kernel'"'"'s' \
      "$1" "$in" "$(call_text "$launch")" "$(calls_of cudaMemcpy)")"
  copy_out=$(copy_of src "$out" DeviceToHost $(($1 * 4)) | awk -F '\t' -v l="$(call_field "$launch" n)" '$1 > l' | head -n 1)
  [ -n "$copy_out" ] && follows "$(call_field "$launch" n)" "$(call_field "$copy_out" n)" ||
    fail "$(printf 'expected: after the launch of scale, its %s output floats (%s) copied back to the host, in an order that follows the kernel\nhappened: %s; the copies were:\n%s\nusual cause: the results read before the copy that brings them back, or not copied back at all' \
      "$1" "$out" "$(call_text "$launch")" "$(calls_of cudaMemcpy)")"
  expect_waited "the copy of the results back" "scaled $1 floats on the device: " \
    "the results were read before the copy that brings them back had finished" "$(call_field "$copy_out" n)"
  expect_printed "scaled $1 floats on the device: $1 of $1 as expected" \
    "the kernel did not run, or its results were read before it had finished"
  expect_printed "sum of the results: $(expected_sum "$1")" "the sum is of the results, as the kernel wrote them"
}

# expect_result_from_gpu N: in the provenance run (lib/grading.bash), the sum printed is of the output as the
# copies back brought it: each element 2 (i % 1000) + 1 times its copy's scale.
expect_result_from_gpu() {
  local launch out sum
  provenance_run "provenance-$1" f32 "$1"
  launch=$(calls fn=cudaLaunchKernel kernel=scale status=0 | tail -n 1)
  out=$(call_field "$launch" args | cut -d, -f2)
  sum=$(calls "fn=cudaMemcpy*" status=0 | awk -F '\t' -v n="$1" -v out="$out" "$RECORD_AWK"'
    { sc = field("scale"); off = ptr_offset(field("src"))
      if (sc == "" || ptr_base(field("src")) != out) next
      for (i = off / 4; i < (off + field("bytes")) / 4 && i < n; i++) scale[i] = sc }
    END { for (i = 0; i < n; i++) s += (2 * (i % 1000) + 1) * (i in scale ? scale[i] : 1); printf "%.0f\n", s }')
  expect_provenance "sum of the results: $sum" \
    "the output of scale by $(calls "fn=cudaMemcpy*" status=0 | grep -o 'scale=[0-9]*' | cut -d= -f2 | paste -sd, -)"
}

# expect_kernel_line: "kernel scale: binary X.Y, PTX X.Y" as cudaFuncGetAttributes answered it.
expect_kernel_line() {
  local rec
  rec=$(answer "kernel scale: " fn=cudaFuncGetAttributes)
  expect_query "kernel scale: " \
    "${rec:+binary $(cc_text "$(call_field "$rec" binary)"), PTX $(cc_text "$(call_field "$rec" ptx)")}" \
    "cudaFuncGetAttributes on the kernel: its binaryVersion and ptxVersion"
}

# expect_stopped ERROR FIX WHY: the run stopped at the first call that returned ERROR, with status 1 and one
# error line that names that call and gives CUDA's string for ERROR and the fix FIX; it printed no result.
expect_stopped() {
  local code=$1 fix_words=$2 why=$3 first line lines string names
  string=$(error_string "$code")
  [ "$RUN_NORMAL" = 1 ] && [ "$RUN_STATUS" = 1 ] ||
    fail "$(printf 'expected: exit status 1 (%s)\nhappened: the program %s; its stderr:\n%s\nusual cause: %s' "$why" "$RUN_HOW" "$(excerpt "$RUN_DIR/stderr" 4)" "$(cause_of_run)")"
  first=$(calls --first "status=$code")
  [ -n "$first" ] || fail "expected: a call that returned $code ($(error_name "$code")); happened: none did ($why)"
  lines=$(grep -c '^error: ' "$RUN_DIR/stderr" || true)
  line=$(grep -m1 '^error: ' "$RUN_DIR/stderr" || true)
  [ "$lines" = 1 ] ||
    fail "$(printf 'expected: one line starting with "error: " on stderr\nhappened: %s such lines:\n%s' "$lines" "$(excerpt "$RUN_DIR/stderr" 4)")"
  # a launch is named by the word, or by the cudaGetLastError that reports it
  names=$(call_field "$first" fn)
  [ "$names" != cudaLaunchKernel ] || names="launch|cudaGetLastError|cudaPeekAtLastError"
  [[ $line =~ $names && $line == *"$string"* && $line == *"$fix_words"* ]] ||
    fail "$(printf 'expected: the error line names the call that failed first (%s at %s), gives CUDA'"'"'s string for %s, "%s", and how to fix it:\n    %s\nhappened: %s\nusual cause: the error is reported without what to do about it, or by a later call than the one that failed' \
      "$(call_field "$first" fn)" "$(call_field "$first" line)" "$code" "$string" "$fix_words" "$line")"
  ! grep -q '^scaled ' "$RUN_DIR/stdout" ||
    fail "expected: no result printed when the kernel cannot run; happened: $(grep -m1 '^scaled ' "$RUN_DIR/stdout")"
}

# hint: Build it yourself with `make run LESSON=0`; `make doctor` says what your machine has.
@test "step 1: compiles cleanly, without warnings (1 point)" {
  expect_clean_build
}

# hint: Ask with cudaDeviceGetAttribute (or cudaGetDeviceProperties) and cudaMemGetInfo, and print what each
# hint: call wrote, in the chapter's format: the grader runs your program on a device of its choosing.
@test "step 2: prints the device query as the runtime answered it, on a device of the grader's (3 points)" {
  local sms mem
  require_program
  # a device with another number of SMs and another memory size than any real one: typed-in numbers show
  sms=$(( $(chosen_n) % 97 + 7 )) mem=$(( ($(chosen_n) % 50 + 3) * 1073741824 + 4096 * ($(chosen_n) % 1000) ))
  run_program --name query --env "CUDAWB_DEVICE_SMS=$sms" --env "CUDAWB_DEVICE_MEMORY=$mem" -- 1001
  expect_exit 0
  expect_query "devices: " "$(call_field "$(answer "devices: " fn=cudaGetDeviceCount)" count)" "cudaGetDeviceCount"
  local major minor
  major=$(device_answer "compute capability: " 75 major) minor=$(device_answer "compute capability: " 76 minor)
  expect_query "compute capability: " "${major:+${minor:+$major.$minor}}" \
    "cudaDevAttrComputeCapabilityMajor and Minor, or the properties' major and minor"
  expect_query "multiprocessors: " "$(device_answer "multiprocessors: " 16 sms)" "cudaDevAttrMultiProcessorCount, or multiProcessorCount"
  local total
  total=$(device_answer "global memory: " -1 memory)
  [ -n "$total" ] || total=$(call_field "$(answer "global memory: " fn=cudaMemGetInfo)" total)
  expect_query "global memory: " "${total:+$total bytes}" "cudaMemGetInfo's total, or totalGlobalMem"
  local free
  free=$(call_field "$(answer "free memory: " fn=cudaMemGetInfo)" free)
  expect_query "free memory: " "${free:+$free bytes}" "cudaMemGetInfo's free"
  expect_query "unified addressing: " "$(yes_no "$(device_answer "unified addressing: " 41 unified)")" "cudaDevAttrUnifiedAddressing"
  expect_query "managed memory: " "$(yes_no "$(device_answer "managed memory: " 83 managed)")" "cudaDevAttrManagedMemory"
  expect_query "concurrent managed access: " "$(yes_no "$(device_answer "concurrent managed access: " 89 concurrent)")" \
    "cudaDevAttrConcurrentManagedAccess"
  expect_query "runtime version: " "$(version_text "$(call_field "$(answer "runtime version: " fn=cudaRuntimeGetVersion)" version)")" \
    "cudaRuntimeGetVersion (13000 is 13.0)"
  expect_query "driver version: " "$(version_text "$(call_field "$(answer "driver version: " fn=cudaDriverGetVersion)" version)")" \
    "cudaDriverGetVersion (13000 is 13.0)"
}

# hint: After the launch, cudaGetLastError says whether it started; cudaDeviceSynchronize only says whether
# hint: what ran went wrong. Print the kernel's binaryVersion and ptxVersion from cudaFuncGetAttributes.
# hint: Print what the copy back brought: the grader scales it on the way in one of its runs.
@test "step 3: checks the launch and prints the kernel's results, which come from the GPU, built with -arch=native (2 points)" {
  local n launch check copy
  require_program
  n=$(chosen_n)
  run_chosen
  expect_exit 0
  expect_kernel_line
  expect_result "$n"
  launch=$(calls fn=cudaLaunchKernel kernel=scale status=0 | tail -n 1)
  [ -n "$launch" ] || fail "expected: a launch of scale; happened: none succeeded; the program $RUN_HOW"
  copy=$(calls fn=cudaMemcpy moved=DeviceToHost status=0 | tail -n 1)
  check=$(calls status=0 | awk -F '\t' -v a="$(call_field "$launch" n)" -v b="$(call_field "$copy" n)" \
    '$1 > a && (b == "" || $1 < b) && ($2 == "cudaGetLastError" || $2 == "cudaPeekAtLastError")' | head -n 1)
  [ -n "$check" ] ||
    fail "$(printf 'expected: cudaGetLastError (or cudaPeekAtLastError) after the launch of scale, before the results are read\nhappened: %s, then no such call\nusual cause: a launch that cannot start (209, or a bad configuration) is reported there only: the synchronize after it returns 0' "$(call_text "$launch")")"
  expect_result_from_gpu "$n"
}

# hint: Check cudaFuncGetAttributes(&attr, scale) before the first launch: 209 means this build holds
# hint: neither code for this GPU nor PTX it can compile. Print the error line with FIX_NO_KERNEL_IMAGE.
@test "step 4: built with sm_80 code only, stops at start-up and says how to rebuild (3 points)" {
  local major minor
  require_program
  build_with gencode-sm80 -gencode=arch=compute_80,code=sm_80
  run_program --name gencode-sm80 -- "$(chosen_n)"
  major=$(calls --first fn=cudaDeviceGetAttribute attr=75 status=0) minor=$(calls --first fn=cudaDeviceGetAttribute attr=76 status=0)
  major=$(call_field "$major" value) minor=$(call_field "$minor" value)
  [ -n "$major" ] || major=$(call_field "$(calls --first fn=cudaGetDeviceProperties status=0)" major)
  [ -n "$minor" ] || minor=$(call_field "$(calls --first fn=cudaGetDeviceProperties status=0)" minor)
  # shellcheck disable=SC2059 # the format is the lesson's one source of these words
  expect_stopped 209 "$(printf "$(fix FIX_NO_KERNEL_IMAGE)" "${major:-9}" "${minor:-0}" "${major:-9}" "${minor:-0}")" \
    "this build holds sm_80 code only, which a GPU of compute capability ${major:-?}.${minor:-?} cannot run"
}

# hint: -arch=sm_80 puts compute_80 PTX in the build beside the sm_80 code, and the driver compiles the PTX for
# hint: your GPU when the program starts: a start-up check must let that run (binaryVersion 90, ptxVersion 80).
@test "step 5: built with -arch=sm_80, runs through its PTX (2 points)" {
  require_program
  build_with arch-sm80 -arch=sm_80
  run_program --name arch-sm80 -- "$(chosen_n)"
  expect_exit 0
  expect_kernel_line
  expect_result "$(chosen_n)"
}

# hint: The first call on the GPU (cudaGetDeviceCount) returns 100 when no device is visible: print its error
# hint: line with FIX_NO_DEVICE, and stop.
@test "step 6: with no device visible (CUDA_VISIBLE_DEVICES empty), says so and how to fix it (2 points)" {
  require_program
  run_program --name no-device --env CUDA_VISIBLE_DEVICES= -- "$(chosen_n)"
  expect_stopped 100 "$(fix FIX_NO_DEVICE)" "no GPU is visible to the program"
  # The same error with CUDA_VISIBLE_DEVICES set (100 injected): the fix follows the error, not the variable.
  run_program --name no-device-injected --env CUDA_VISIBLE_DEVICES=0 --env CUDAWB_FAIL_DEVICE=100 -- "$(chosen_n)"
  expect_stopped 100 "$(fix FIX_NO_DEVICE)" \
    "no GPU is visible to the program (100, injected with CUDA_VISIBLE_DEVICES=0: the fix follows the error the call returned, not the environment)"
}

# hint: Without a driver every call returns 35: print the error line with FIX_NO_DRIVER, and stop.
@test "step 7: with no driver (35, injected), says so and how to fix it (2 points)" {
  require_program
  run_program --name no-driver --env CUDAWB_FAIL_DEVICE=35 -- "$(chosen_n)"
  expect_stopped 35 "$(fix FIX_NO_DRIVER)" "the machine has no NVIDIA driver"
  # The same error with CUDA_VISIBLE_DEVICES empty: the fix follows the error, not the variable.
  run_program --name no-driver-no-device-variable --env CUDA_VISIBLE_DEVICES= --env CUDAWB_FAIL_DEVICE=35 -- "$(chosen_n)"
  expect_stopped 35 "$(fix FIX_NO_DRIVER)" \
    "the machine has no NVIDIA driver (35, injected with CUDA_VISIBLE_DEVICES empty: the fix follows the error the call returned, not the environment)"
}

# hint: Every cudaMalloc needs its cudaFree, on every path out: the cleanup at the end frees all four buffers.
@test "step 8: frees every buffer it allocated (1 point)" {
  require_program
  run_chosen
  expect_exit 0
  expect_lesson_work "the device query and the start-up check are not written yet"
  expect_no_leaks
  expect_no_invalid_frees
}

# hint: When a call fails: print one line "error: CALL of N bytes failed: <cudaGetErrorString>" on stderr,
# hint: release what is already held, and exit with status 1.
@test "step 9: survives running out of device memory (3 points)" {
  require_program
  expect_real_oom
  # A size drawn per grading, from 1 float to twice the largest the graded runs use: the cleanup after a
  # failure must not depend on it.
  fault_sweep --lesson-work "$(drawn sweep-n 1 4002000)"
}
