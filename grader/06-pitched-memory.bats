#!/usr/bin/env bats
# Grader for lesson 06, pitched memory: one @test per graded step, its points in its name.
# The "# hint:" lines above a step are what `make hint LESSON=6` prints while the step is not passed.

setup_file() {
  load lib/grading
  lesson_setup_file
}

setup() {
  load lib/grading
}

# The memory checker's step, and its run's arguments: prime sizes drawn per grading (drawn_prime), the same
# for every step that asks the checker (a run that ended with a kernel's fault waits for it: ended_badly).
MEMCHECK_STEP=10
memcheck_args() { echo "$(drawn_prime memcheck-w 1001 3000) $(drawn_prime memcheck-h 37 97)"; }

# The calls the TODOs add: the two pitched images and the 2-D copies. The memory checker and the failure
# sweep grade how the work is done, so they need it done (expect_lesson_work).
LESSON_WORK="cudaMallocPitch=2 cudaMemcpy2D|cudaMemcpy2DAsync=2"
# The step that grades each call the lesson teaches: a run that ended because one failed is its finding.
CALL_STEPS="cudaMallocPitch:2 cudaMemcpy2D:3 cudaMemcpy2DAsync:3 cudaMemset2D:6 cudaMalloc3D:7 cudaMemcpy3D:7 cudaMemset3D:7"

# The image the grader asks for, chosen when grading starts (chosen_n): an awkward width of 1001 to 4001
# floats, whose rows need padding, and 50 to 250 rows; never a multiple of the block's 32 x 8, so that a
# grid rounded down always misses the last columns and rows.
image_w() { local w=$(( $(chosen_n) % 3000 + 1001 )); [ $((w % 32)) != 0 ] || w=$((w + 1)); echo "$w"; }
image_h() { local h=$(( $(chosen_n) % 200 + 50 )); [ $((h % 8)) != 0 ] || h=$((h + 1)); echo "$h"; }
# An image that any grid of 32 x 8 blocks covers, its counts rounded up or down: 1056 to 4000 floats a row, a
# multiple of 32 (never of 128, so that its rows still need padding), and 56 to 248 rows, a multiple of 8.
# Step 4 grades the pitch on it, so that a grid rounded down (step 5's mistake) costs step 5 alone.
cover_w() { local m=$(( $(chosen_n) % 92 + 33 )); [ $((m % 4)) != 0 ] || m=$((m + 1)); echo $((m * 32)); }
cover_h() { echo $(( ($(chosen_n) % 25 + 7) * 8 )); }
# The volume, which the same grids cover: 160 to 352 floats a row (a multiple of 32, never of 128: a row that
# filled its 512-byte pitch exactly would hide a copy that gives the host side the device's pitch; the variant
# host-pitch-of-the-device passed 1 run in 150 when it could), 8 or 16 rows a slice, 2 to 6 slices.
volume_args() {
  local m=$(( $(chosen_n) % 7 + 5 ))
  [ $((m % 4)) != 0 ] || m=$((m + 1))
  echo "$((m * 32)) $(( ($(chosen_n) % 2 + 1) * 8 )) $(( $(chosen_n) % 5 + 2 ))"
}

run_chosen() { run_program --name "run-$(image_w)x$(image_h)" -- "$(image_w)" "$(image_h)"; }
run_covered() { run_program --name "run-$(cover_w)x$(cover_h)" -- "$(cover_w)" "$(cover_h)"; }

# The value of element (x, y) of the host image, as the program fills it.
# value_at(x, y) = (3x + y) % 11; after the kernel, out(x, y) = 2 * value_at(x, y) + y.
expected_sum() {
  awk -v w="$1" -v h="$2" 'BEGIN { for (y = 0; y < h; y++) for (x = 0; x < w; x++) s += 2 * ((3 * x + y) % 11) + y; printf "%.0f\n", s }'
}

# provenance_sum W H OUT: the sum the provenance run (lib/grading.bash) must print: each row y of the image
# (2 value_at(x, y) + y) times the scale of the copy that brought that row of OUT back (once, if none did).
provenance_sum() {
  calls "fn=cudaMemcpy2D*" status=0 | awk -F '\t' -v w="$1" -v h="$2" -v out="$3" "$RECORD_AWK"'
    { sc = field("scale"); off = ptr_offset(field("src"))
      if (sc == "" || field("spitch") + 0 == 0 || ptr_base(field("src")) != out) next
      for (y = int(off / field("spitch")); y < int(off / field("spitch")) + field("height") && y < h; y++) scale[y] = sc }
    END { for (y = 0; y < h; y++) { r = 0; for (x = 0; x < w; x++) r += 2 * ((3 * x + y) % 11) + y; s += r * (y in scale ? scale[y] : 1) }
      printf "%.0f\n", s }'
}

# images W H: the two successful cudaMallocPitch records for W x H floats, in order; fails when missing.
images() {
  local w=$1 h=$2 recs asked
  recs=$(calls fn=cudaMallocPitch "width=$((w * 4))" "height=$h" status=0)
  if [ "$(grep -c . <<<"$recs")" -lt 2 ]; then
    asked=$(calls --first fn=cudaMallocPitch status=0)
    fail "$(printf 'expected: with a %s x %s image, two cudaMallocPitch calls of width %s bytes and height %s rows that succeed\nhappened: the program %s; its cudaMallocPitch calls:\n%s\nusual cause: %s' \
      "$w" "$h" "$((w * 4))" "$h" "$RUN_HOW" "$(calls_of cudaMallocPitch)" \
      "$(case $(call_field "$asked" width) in
           "$w") echo "the width is in bytes: W * sizeof(float), not W" ;;
           "") echo "the TODO of step 2 is not written yet" ;;
           *) echo "width is a row's bytes (W * sizeof(float)) and height the number of rows (H)" ;;
         esac)")" || return 1
  fi
  head -n 2 <<<"$recs"
}

# copies_text KEY=BUFFER: the last run's copies (any cudaMemcpy) to or from BUFFER, one per line, for a message:
# a flat copy where a 2-D one belongs is named by its place, which the copy step named first.
copies_text() {
  local all
  all=$(calls "fn=cudaMemcpy*" "$1*" | head -n 6)
  [ -n "$all" ] || { echo "    (none)"; return; }
  while IFS= read -r c; do printf '    %s\n' "$(call_text "$c")"; done <<<"$all"
}

# host_side KEY < RECORDS: the records whose KEY (src, dst) is host memory, pageable or pinned.
host_side() { awk -F '\t' -v k="$1" '(" " $7 " ") ~ (" " k "=(host|pinned#[0-9]+)[ +]")'; }

# The probe's pitch questions: the row's bytes; its answer must be the pitch= of that cudaMallocPitch.
PROBE_PITCHES=(1 513 1200 4004)
# The probe's other questions, and the trace record that must have produced each.
PROBE_QUESTIONS=(
  "cudaMallocPitch with a NULL pitch pointer|fn=cudaMallocPitch width=256 height=4 pitch=null"
  "cudaMemset2D of rows wider than the pitch|fn=cudaMemset2D height=4"
  "cudaMemset2D of one row past the last|fn=cudaMemset2D height=5"
  "cudaMemcpy2D to the host named HostToDevice|fn=cudaMemcpy2D kind=HostToDevice"
  "cudaMemcpy3D of rows wider than the pitch|fn=cudaMemcpy3D"
  "cudaMemcpy3D of one slice past the last|fn=cudaMemcpy3D depth=3"
  "cudaGetLastError|fn=cudaGetLastError|then"
)

# hint: Build it yourself with `make run LESSON=6`. The build uses -Wall -Wextra: a warning about an
# hint: unused variable often means a step is not written yet.
@test "step 1: compiles cleanly, without warnings (1 point)" {
  expect_clean_build
}

# hint: cudaMallocPitch((void **)&d, &pitch, width_in_bytes, rows): the runtime rounds each row up (to
# hint: 512 bytes on the H200) and writes the padded row's bytes, the pitch, into your variable.
@test "step 2: allocates the images with cudaMallocPitch, rows in bytes (2 points)" {
  local w h recs pitch
  require_program
  w=$(image_w) h=$(image_h)
  run_chosen
  # The allocations first: one made too narrow is this step's mistake even where a later call fails on it
  # and ends the run (the steps after this one then wait for the run to end).
  recs=$(images "$w" "$h") || {
    ended_badly 0 "this step grades the same run, which $RUN_HOW" --record
    return 1
  }
  expect_exit 0
  pitch=$(call_field "$(head -n 1 <<<"$recs")" pitch)
  expect_printed "pitch: $pitch bytes for rows of $((w * 4)) bytes" \
    "the pitch printed is the one cudaMallocPitch wrote, for d_in"
}

# hint: cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind): each side's own pitch (the host's rows
# hint: are back to back: W * sizeof(float)), the width of the data in bytes, not the pitch, and the rows.
@test "step 3: copies the image in and out with cudaMemcpy2D, each side with its own pitch (3 points)" {
  local w h recs d_in d_out in_pitch out_pitch rb flat
  require_program
  w=$(image_w) h=$(image_h) rb=$(($(image_w) * 4))
  run_chosen
  recs=$(images "$w" "$h")
  expect_exit 0
  d_in=$(call_field "$(head -n 1 <<<"$recs")" ptr) in_pitch=$(call_field "$(head -n 1 <<<"$recs")" pitch)
  d_out=$(call_field "$(tail -n 1 <<<"$recs")" ptr) out_pitch=$(call_field "$(tail -n 1 <<<"$recs")" pitch)
  flat=$(calls "fn=cudaMemcpy*" | awk -F '\t' '$2 ~ /^cudaMemcpy(Async)?$/' | grep -E "(src|dst)=($d_in|$d_out)( |\\+)" | head -n 1)
  [ -z "$flat" ] ||
    fail "$(printf 'expected: the pitched images copied with cudaMemcpy2D\nhappened: %s\nusual cause: one flat cudaMemcpy of W * H floats: on the device each row is followed by its padding, so from row 1 on the rows arrive shifted (row 1 starts with padding)' "$(call_text "$flat")")"
  # The host image is pageable (host) or pinned (pinned#K) memory.
  [ -n "$(calls "fn=cudaMemcpy2D*" "dst=$d_in" "dpitch=$in_pitch" "spitch=$rb" "width=$rb" "height=$h" moved=HostToDevice status=0 | host_side src)" ] ||
    fail "$(printf 'expected: cudaMemcpy2D(d_in, %s, h_img, %s, %s, %s, cudaMemcpyHostToDevice): the device pitch, the host pitch, a row of %s floats in bytes, %s rows\nhappened: the 2-D copies were:\n%s\nusual cause: the width in floats, not bytes; the device pitch given for the host side (or the other way round); the kind reversed' \
      "$in_pitch" "$rb" "$rb" "$h" "$w" "$h" "$(calls_of cudaMemcpy2D)")"
  [ -n "$(calls "fn=cudaMemcpy2D*" "dpitch=$rb" "src=$d_out" "spitch=$out_pitch" "width=$rb" "height=$h" moved=DeviceToHost status=0 | host_side dst)" ] ||
    fail "$(printf 'expected: cudaMemcpy2D(h_img, %s, d_out, %s, %s, %s, cudaMemcpyDeviceToHost): the result back into the host rows\nhappened: the 2-D copies were:\n%s\nusual cause: the two pitches swapped, the width in floats, or d_in copied back instead of d_out' \
      "$rb" "$out_pitch" "$rb" "$h" "$(calls_of cudaMemcpy2D)")"
}

# hint: Row y of a pitched image starts at (char *)base + y * pitch: step in bytes to the row, then index
# hint: it in floats. base + y * width lands in the padding of earlier rows once the pitch is wider.
# hint: Print the image the copy back brought: the grader scales it on the way in one of its runs.
@test "step 4: the kernel reaches each element through its row's pitch, and the image printed is the GPU's (3 points)" {
  local w h rb recs d_in d_out in_pitch out_pitch launch copy_in copy_out late_clear
  require_program
  w=$(cover_w) h=$(cover_h) rb=$(($(cover_w) * 4))
  run_covered
  recs=$(images "$w" "$h")
  expect_exit 0
  d_in=$(call_field "$(head -n 1 <<<"$recs")" ptr) in_pitch=$(call_field "$(head -n 1 <<<"$recs")" pitch)
  d_out=$(call_field "$(tail -n 1 <<<"$recs")" ptr) out_pitch=$(call_field "$(tail -n 1 <<<"$recs")" pitch)
  # The image printed is the kernel's: the host image copied into d_in with its pitch, brighten from d_in
  # into d_out after that copy, d_out copied back with its pitch after the kernel, and only then read.
  launch=$(calls fn=cudaLaunchKernel kernel=brighten status=0 |
    awk -F '\t' -v a="$d_in" -v b="$d_out" '{ v = " " $7 " "; sub(/.* args=/, "", v); sub(/ .*/, "", v); n = split(v, arg, ",")
      fa = fb = 0; for (i = 1; i <= n; i++) { fa = fa || arg[i] == a; fb = fb || arg[i] == b } if (fa && fb) print }' | tail -n 1)
  [ -n "$launch" ] ||
    fail "$(printf 'expected: brighten launched on the two images, reading d_in (%s) and writing d_out (%s)\nhappened: its launches:\n%s\nusual cause: the provided launch was edited, or given other buffers' "$d_in" "$d_out" "$(calls_of cudaLaunchKernel)")"
  copy_in=$(calls "fn=cudaMemcpy2D*" "dst=$d_in" "dpitch=$in_pitch" "width=$rb" "height=$h" moved=HostToDevice status=0 |
    host_side src | awk -F '\t' -v l="$(call_field "$launch" n)" '$1 < l' | tail -n 1)
  [ -n "$copy_in" ] && follows "$(call_field "$copy_in" n)" "$(call_field "$launch" n)" ||
    fail "$(printf 'expected: before brighten, the host image copied into d_in (%s) with its pitch (%s bytes), %s rows of %s bytes, in an order the kernel follows\nhappened: %s; the copies into d_in were:\n%s\nusual cause: the copy in is missing or after the launch, or the kernel runs on an image that was never copied in' \
      "$d_in" "$in_pitch" "$h" "$rb" "$(call_text "$launch")" "$(copies_text "dst=$d_in")")"
  copy_out=$(calls "fn=cudaMemcpy2D*" "src=$d_out" "spitch=$out_pitch" "width=$rb" "height=$h" moved=DeviceToHost status=0 |
    host_side dst | awk -F '\t' -v l="$(call_field "$launch" n)" '$1 > l' | head -n 1)
  [ -n "$copy_out" ] && follows "$(call_field "$launch" n)" "$(call_field "$copy_out" n)" ||
    fail "$(printf 'expected: after brighten, d_out (%s) copied back to the host with its pitch (%s bytes), %s rows of %s bytes, in an order that follows the kernel\nhappened: %s; the copies from d_out were:\n%s\nusual cause: the image copied back before the kernel ran, or not at all: the values printed are then not the kernel'"'"'s' \
      "$d_out" "$out_pitch" "$h" "$rb" "$(call_text "$launch")" "$(copies_text "src=$d_out")")"
  # d_out cleared between the kernel and the copy back: the image is wrong because of the clear, which step 6
  # grades.
  late_clear=$(calls "fn=cudaMemset2D*" "dst=$d_out" status=0 |
    awk -F '\t' -v l="$(call_field "$launch" n)" -v c="$(call_field "$copy_out" n)" '$1 > l && $1 < c' | head -n 1)
  [ -z "$late_clear" ] ||
    skip "needs step 6 first: $(call_site_text "$late_clear") clears the kernel's output before it is copied back; step 6 grades the clear"
  expect_waited "the copy of the image back" "image checked: " \
    "the host read the image before the copy back had finished: an async copy needs a wait (cudaStreamSynchronize)" \
    "$(call_field "$copy_out" n)"
  expect_printed "image checked: $((w * h)) of $((w * h)) elements as expected" \
    "each row starts pitch bytes after the one before: (float *)((char *)base + y * pitch), then [x]"
  expect_printed "sum of the image: $(expected_sum "$w" "$h")" \
    "the sum is of the image copied back, after the kernel, for the W and H the program was given"
  provenance_run "provenance-${w}x$h" f32 "$w" "$h"
  d_out=$(call_field "$(images "$w" "$h" | tail -n 1)" ptr)
  expect_provenance "sum of the image: $(provenance_sum "$w" "$h" "$d_out")" \
    "the image copied back from d_out by $(calls "fn=cudaMemcpy2D*" "src=$d_out*" status=0 | grep -o 'scale=[0-9]*' | cut -d= -f2 | paste -sd, -)"
}

# hint: One thread per element on a 2-D grid: blocks in x cover the columns, in y the rows, each count
# hint: rounded up ((h + block.y - 1) / block.y), so that the last partial block is launched too.
@test "step 5: launches a 2-D grid that covers every column and row (2 points)" {
  local w h launch grid block gx gy bx by
  require_program
  w=$(image_w) h=$(image_h)
  run_chosen
  expect_exit 0
  launch=$(calls --first fn=cudaLaunchKernel kernel=brighten status=0)
  [ -n "$launch" ] || fail "expected: a launch of brighten; happened: the program $RUN_HOW and made none"
  grid=$(call_field "$launch" grid) block=$(call_field "$launch" block)
  IFS=x read -r gx gy _ <<<"$grid"
  IFS=x read -r bx by _ <<<"$block"
  [ $((gx * bx)) -ge "$w" ] && [ $((gy * by)) -ge "$h" ] && return 0
  # Short by less than a block: a division rounded down; by more: a grid not computed from the image.
  local cause="a count of blocks rounded down (w / block.x, h / block.y): the last, partial block of columns or rows is never launched"
  [ $(((gx + 1) * bx)) -ge "$w" ] && [ $(((gy + 1) * by)) -ge "$h" ] ||
    cause="a grid not computed from the image's size (step 5's TODO): (w + block.x - 1) / block.x blocks across, (h + block.y - 1) / block.y down"
  fail "$(printf 'expected: a grid of blocks covering %s columns and %s rows\nhappened: grid %s of blocks %s covers %s columns and %s rows\nusual cause: %s' \
    "$w" "$h" "$grid" "$block" "$((gx * bx))" "$((gy * by))" "$cause")"
}

# hint: cudaMemset2D(d_out, out_pitch, 0, width_in_bytes, rows) sets each row's data and skips its
# hint: padding. The kernel adds to d_out, so it must start at 0.
@test "step 6: clears the output image with cudaMemset2D before the kernel adds to it (2 points)" {
  local w h recs d_out out_pitch launch clear
  require_program
  w=$(image_w) h=$(image_h)
  run_chosen
  recs=$(images "$w" "$h")
  expect_exit 0
  d_out=$(call_field "$(tail -n 1 <<<"$recs")" ptr) out_pitch=$(call_field "$(tail -n 1 <<<"$recs")" pitch)
  launch=$(calls --first fn=cudaLaunchKernel kernel=brighten status=0 | cut -f1)
  [ -n "$launch" ] || fail "expected: a launch of brighten, which the clear must come before; happened: the program $RUN_HOW and made none"
  clear=$(calls fn=cudaMemset2D "dst=$d_out" "pitch=$out_pitch" value=0 "width=$((w * 4))" "height=$h" status=0 |
    awk -F '\t' -v k="${launch:-0}" '$1 < k' | head -n 1)
  [ -n "$clear" ] ||
    fail "$(printf 'expected: before brighten, cudaMemset2D(d_out, %s, 0, %s, %s)\nhappened: the program'"'"'s cudaMemset2D calls:\n%s\nusual cause: the clear is missing, comes after the kernel, or is given the width in floats or the pitch as its width' \
      "$out_pitch" "$((w * 4))" "$h" "$(calls_of cudaMemset2D)")"
}

# hint: cudaMalloc3D(&v, make_cudaExtent(width_in_bytes, rows, slices)); a cudaMemcpy3DParms set to 0,
# hint: then srcPtr, dstPtr (make_cudaPitchedPtr(host, row_bytes, W, H) for the host), extent and kind.
@test "step 7: moves a volume with cudaMalloc3D, cudaMemcpy3D and cudaMemset3D (3 points)" {
  local w h d n alloc vol in kernel out clear
  require_program
  read -r w h d <<<"$(volume_args)"
  n=$((w * h * d))
  run_program --name volume -- --volume "$w" "$h" "$d"
  expect_exit 0
  alloc=$(calls --first fn=cudaMalloc3D "width=$((w * 4))" "height=$h" "depth=$d" status=0)
  [ -n "$alloc" ] ||
    fail "$(printf 'expected: cudaMalloc3D of an extent %s bytes wide, %s rows, %s slices\nhappened: its cudaMalloc3D calls:\n%s\nusual cause: %s' "$((w * 4))" "$h" "$d" "$(calls_of cudaMalloc3D)" \
      "$([ -n "$(calls fn=cudaMalloc3D)" ] && echo "the extent's width is in bytes for linear memory: W * sizeof(float)" || echo "the TODO of step 7 is not written yet")")"
  vol=$(call_field "$alloc" ptr)
  expect_printed "volume pitch: $(call_field "$alloc" pitch) bytes, $h rows a slice" \
    "the pitch and ysize printed are those cudaMalloc3D wrote into the cudaPitchedPtr"
  # The lines printed are the device's: the volume copied in, add_slice_number after that copy, the volume
  # copied back after the kernel; cleared, and copied back after the clear; each line printed after its copy.
  in=$(calls "fn=cudaMemcpy3D*" "dst=$vol" "width=$((w * 4))" "height=$h" "depth=$d" moved=HostToDevice status=0 | host_side src | head -n 1)
  kernel=$(calls fn=cudaLaunchKernel kernel=add_slice_number status=0 | awk -F '\t' -v a="$(call_field "$in" n)" '$1 > a + 0' | head -n 1)
  out=$(calls "fn=cudaMemcpy3D*" "src=$vol" "width=$((w * 4))" "height=$h" "depth=$d" moved=DeviceToHost status=0 | host_side dst |
    awk -F '\t' -v k="$(call_field "$kernel" n)" '$1 > k + 0' | head -n 1)
  [ -n "$in" ] && [ -n "$out" ] ||
    fail "$(printf 'expected: the whole volume copied in and out with cudaMemcpy3D (extent %s x %s x %s)\nhappened: its cudaMemcpy3D calls:\n%s\nusual cause: the extent in floats, the pointers swapped, or the kind reversed' "$((w * 4))" "$h" "$d" "$(calls_of cudaMemcpy3D)")"
  # The host's side of each copy: rows of W floats back to back, H of them a slice.
  [ "$(call_field "$in" spitch)" = $((w * 4)) ] && [ "$(call_field "$in" sysize)" = "$h" ] &&
    [ "$(call_field "$out" dpitch)" = $((w * 4)) ] && [ "$(call_field "$out" dysize)" = "$h" ] ||
    fail "$(printf 'expected: the host side of each copy described as it is: a pitch of %s bytes (a row of W floats) and %s rows a slice\nhappened: %s\n          %s\nusual cause: the host side given the device'"'"'s pitch, or its width in floats: make_cudaPitchedPtr(h, W * sizeof(float), W, H)' \
      "$((w * 4))" "$h" "$(call_text "$in")" "$(call_text "$out")")"
  follows "$(call_field "$in" n)" "$(call_field "$kernel" n)" && follows "$(call_field "$kernel" n)" "$(call_field "$out" n)" ||
    fail "$(printf 'expected: add_slice_number run on the volume between the copy in and the copy out, in that order\nhappened: its launches:\n%s\nusual cause: the provided launch was edited away, or the volume copied back before it ran' "$(calls_of cudaLaunchKernel)")"
  expect_waited "the copy of the volume back" "volume checked: " "the volume was read before the copy back had finished" "$(call_field "$out" n)"
  expect_printed "volume checked: $n of $n elements as expected" \
    "the copies must cover the whole extent, and the host side's pitch is its row's bytes"
  clear=$(calls --first "fn=cudaMemset3D*" "dst=$vol" value=0 "width=$((w * 4))" "height=$h" "depth=$d" status=0)
  [ -n "$clear" ] ||
    fail "$(printf 'expected: cudaMemset3D of the whole volume to 0\nhappened: its cudaMemset3D calls:\n%s' "$(calls_of cudaMemset3D)")"
  out=$(calls "fn=cudaMemcpy3D*" "src=$vol" "width=$((w * 4))" "height=$h" "depth=$d" moved=DeviceToHost status=0 | host_side dst |
    awk -F '\t' -v c="$(call_field "$clear" n)" '$1 > c' | head -n 1)
  [ -n "$out" ] && follows "$(call_field "$clear" n)" "$(call_field "$out" n)" ||
    fail "$(printf 'expected: the volume copied back after cudaMemset3D, in an order that follows it\nhappened: %s; its cudaMemcpy3D calls:\n%s\nusual cause: the copy back of the cleared volume is missing, or comes before the clear' "$(call_text "$clear")" "$(calls_of cudaMemcpy3D)")"
  expect_waited "the copy of the cleared volume back" "volume cleared: " "the volume was read before the copy back had finished" "$(call_field "$out" n)"
  expect_printed "volume cleared: $n of $n elements are 0" \
    "the volume is copied back after cudaMemset3D, into the host's rows"
}

# hint: Make each call the question names and print what it returns; the chapter's tables say what a
# hint: real H200 answers. A pitch answer is what cudaMallocPitch wrote.
@test "step 8: answers the probe's questions as the CUDA runtime does (3 points)" {
  local b rec
  require_program
  run_program --name probe -- --probe
  expect_exit 0
  for b in "${PROBE_PITCHES[@]}"; do
    rec=$(calls --first fn=cudaMallocPitch "width=$b" height=1 status=0)
    [ -n "$rec" ] || fail "expected: a cudaMallocPitch of one row of $b bytes for the question about it; happened: $(calls_of cudaMallocPitch)"
    expect_printed "pitch for a row of $b bytes: $(call_field "$rec" pitch)" "the answer is the pitch cudaMallocPitch wrote"
  done
  expect_answers "${PROBE_QUESTIONS[@]}"
  expect_output "$(expected_file probe.out)" \
    "a question asked with other arguments than it names, or a call on the wrong pointer"
}

# hint: Free each image with cudaFree in one cleanup that every path reaches; the volume's memory is
# hint: its cudaPitchedPtr's ptr.
@test "step 9: frees every buffer exactly once (2 points)" {
  local w h d
  require_program
  run_chosen
  expect_exit 0
  expect_no_leaks
  expect_no_invalid_frees
  read -r w h d <<<"$(volume_args)"
  run_program --name volume -- --volume "$w" "$h" "$d"
  expect_exit 0
  expect_no_leaks
  expect_no_invalid_frees
  expect_probe_frees_asked
}

# hint: The memory checker (compute-sanitizer, or the CPU backend's) reports any access outside an
# hint: allocation: a row indexed in floats by its pitch in bytes reaches four times too far.
@test "step 10: runs clean under the memory checker (2 points)" {
  require_program
  expect_memcheck_clean
}

# hint: When a call fails: print one line "error: CALL of W x H bytes failed: <cudaGetErrorString>" on
# hint: stderr, free what is already held (goto cleanup), and exit with status 1.
@test "step 11: survives running out of device memory (3 points)" {
  local w h d
  require_program
  expect_real_oom "error: cudaMallocPitch of 400000000000 x 300 bytes failed: out of memory" \
    "the return value of cudaMallocPitch is not checked"
  fault_sweep --lesson-work "$(image_w)" "$(image_h)"
  read -r w h d <<<"$(volume_args)"
  fault_sweep --name sweep-volume -- --volume "$w" "$h" "$d"
  run_program --name probe -- --probe
  expect_answers --find "${PROBE_QUESTIONS[@]}"
  fault_sweep --name sweep-probe --skip "$ANSWER_NS" -- --probe
}
