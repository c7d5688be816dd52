#!/usr/bin/env bash
# Turns a lesson grader's TAP output (stdin) into the student's report, and saves the per-step results.
#   report.sh LESSON RESULTS_TSV
# Prints one line per step (PASS / FAIL / SKIP / GPU?) with its points and, for a step not passed, why;
# then the summary line. Exits 0 only when every step passed (steps that need a GPU excepted).
set -euo pipefail
lesson=$1 results=$2
num=${lesson%%-*}

if [ -t 1 ]; then
  red=$'\e[31m' green=$'\e[32m' yellow=$'\e[33m' plain=$'\e[0m'
else
  red="" green="" yellow="" plain=""
fi

passed=0 failed=0 skipped=0 needs_gpu=0 got=0 max=0 steps=0
tsv=$(mktemp)
trap 'rm -f "$tsv"' EXIT
pending=""  # the step whose failure details are being read
# Each step's row of the results file waits for its details: a failed step's reason is all of them.
row="" row_reason=""
# The reason is the step's whole message (a failed step's expected / happened / usual cause), at most 4,000
# characters, escaped as class/escape.awk's unesc() reads it back (\\ \t \n \r): every output of make grade
# carries it whole.
flush_row() {
  local r=${row_reason:0:4000}
  r=${r//\\/\\\\} r=${r//$'\t'/\\t} r=${r//$'\n'/\\n} r=${r//$'\r'/\\r}
  [ -z "$row" ] || printf '%s\t%s\n' "$row" "$r" >>"$tsv"
  row=""
}

# Bats's own trace lines say where in the grader a check failed: noise for a student.
is_trace() {
  [[ $1 =~ ^\#\ \((in\ test\ file|from\ function) ]] || [[ $1 =~ ^\#\ +(in\ test\ file|from\ function) ]] ||
    [[ $1 =~ ^\#\ +\`.*\'\ failed ]]
}

# A long step's "# progress: ..." lines are shown on the terminal (stderr), each over the last, and wiped
# when the step's result comes (check.sh asks for them only when stderr is a terminal).
progress_shown=0
progress() {
  [ -t 2 ] || return 0
  printf '\r\e[K  ...   %s' "${1:0:100}" >&2
  progress_shown=1
}
progress_clear() {
  [ "$progress_shown" = 1 ] && printf '\r\e[K' >&2
  progress_shown=0
}

step_line() { # STATUS COLOR NAME POINTS MAX
  progress_clear
  printf '  %s%-4s%s  %-74s %s/%s\n' "$2" "$1" "$plain" "$3" "$4" "$5"
}

# One mistake, one step: a failed step is not counted as a second failure when its messages name a place in
# the program's code (file:line) that an earlier failed step named, or when it failed the same check as an
# earlier step on another run (the same "expected:" line, its numbers aside: the same sum wrong for another
# size). It is shown as skipped, "needs step N first": its evidence comes from what that step already found
# wrong, fixing it may fix this one too, and this step is graded then. A failed step waits here until its
# messages are all read: until the next step begins (Bats's "begin N" line, which check.sh asks for with
# lib/bats-stream), or a result or the end comes. No clock decides it: on a loaded machine (a class graded
# sixteen at a time) a step's messages came more than a second after its result.
declare -A blamed=()  # file:line, or check:EXPECTED -> the first failed step that named it
fail_num="" fail_name="" fail_points="" fail_lines=()
finish_failed() {
  [ -n "$fail_num" ] || return 0
  local key first="" msg check
  local -a keys=()
  mapfile -t keys < <(printf '%s\n' "${fail_lines[@]}" | grep -oE '[A-Za-z0-9_.+-]+\.(cu|cuh|c|h|cc|cpp):[0-9]+' | sort -u)
  check=$(printf '%s\n' "${fail_lines[@]}" | grep -m1 '^expected: ' | sed -E 's/(0x)?[0-9a-f]*[0-9][0-9a-f]*/#/g' || true)
  [ -z "$check" ] || keys+=("check:$check")
  for key in "${keys[@]}"; do
    [ -z "${blamed[$key]:-}" ] || { first=${blamed[$key]}; break; }
  done
  if [ -n "$first" ]; then
    if [[ $key == check:* ]]; then
      msg="needs step $first first: step $first found the same mistake ($(printf '%s\n' "${fail_lines[@]}" | grep -m1 '^expected: ' | cut -c1-120)); fix what step $first says, and this step is graded"
    else
      msg="needs step $first first: step $first found a mistake at $key, and this step's evidence comes from the same code; fix what step $first says, and this step is graded"
    fi
    skipped=$((skipped + 1)); max=$((max + fail_points))
    step_line SKIP "$yellow" "$fail_name" 0 "$fail_points"
    printf '          %s\n' "$msg"
    row_reason=$msg status=skipped
  else
    for key in "${keys[@]}"; do blamed[$key]=$fail_num; done
    failed=$((failed + 1)); max=$((max + fail_points))
    step_line FAIL "$red" "$fail_name" 0 "$fail_points"
    [ ${#fail_lines[@]} -eq 0 ] || printf '          %s\n' "${fail_lines[@]}"
    row_reason=$(printf '%s\n' "${fail_lines[@]}") status=failed
  fi
  # Its row, as every step's (flush_row), its reason the details or why it waits.
  flush_row
  printf -v row '%s\t%s\t0\t%s\t%s' "$fail_num" "$status" "$fail_points" "${fail_name#step *: }"
  flush_row
  fail_num="" fail_lines=()
}

while IFS= read -r line; do
  if [[ $line =~ ^begin\ [0-9]+\  ]]; then
    finish_failed # the next step begins: the failed one's messages are all read
    pending=""
    continue
  elif [[ $line =~ ^suite\  ]]; then
    continue
  elif [[ $line =~ ^(not\ )?ok\ [0-9]+\ (step\ ([0-9]+):\ (.*)\ \(([0-9]+)\ points?\))(\ #\ skip\ ?(.*))?$ ]]; then
    flush_row
    finish_failed
    name="step ${BASH_REMATCH[3]}: ${BASH_REMATCH[4]}"
    points=${BASH_REMATCH[5]} reason=${BASH_REMATCH[7]}
    steps=$((steps + 1))
    if [ -n "${BASH_REMATCH[1]}" ]; then
      fail_num=${BASH_REMATCH[3]} fail_name=$name fail_points=$points
      pending=failed
      continue
    elif [ -n "${BASH_REMATCH[6]}" ] && [[ $reason == "needs a GPU"* ]]; then
      status=needs-gpu; needs_gpu=$((needs_gpu + 1)); award=0
      step_line "GPU?" "$yellow" "$name" - "$points"
      printf '          %s\n' "$reason"
    elif [ -n "${BASH_REMATCH[6]}" ]; then
      status=skipped; skipped=$((skipped + 1)); max=$((max + points)); award=0
      step_line SKIP "$yellow" "$name" 0 "$points"
      printf '          %s\n' "${reason:-skipped}"
    else
      status=passed; passed=$((passed + 1)); max=$((max + points)); got=$((got + points)); award=$points
      step_line PASS "$green" "$name" "$points" "$points"
    fi
    flush_row
    printf -v row '%s\t%s\t%s\t%s\t%s' "${BASH_REMATCH[3]}" "$status" "$award" "$points" "${BASH_REMATCH[4]}"
    row_reason=$reason
    pending=$status
  elif [[ $line == "# progress: "* ]]; then
    finish_failed # a progress line is the next step's: the failed one's messages are all read
    progress "${line#\# progress: }"
  elif [[ $line == "# "* || $line == "#" ]] && [ "$pending" = failed ]; then
    if ! is_trace "$line"; then
      msg=${line#\#}
      fail_lines+=("${msg# }")
    fi
  elif [[ $line =~ ^(not\ )?ok ]]; then
    finish_failed
    printf 'grader error: a test is not named "step N: ... (P points)": %s\n' "$line" >&2
    failed=$((failed + 1))
  elif [[ $line != "#"* && ! $line =~ ^1\.\.[0-9]+$ ]]; then
    finish_failed
    printf '  %s\n' "$line" # Bats's own errors (a missing helper library, a syntax error): show them
  fi
done

flush_row
finish_failed
mkdir -p "$(dirname "$results")"
cp "$tsv" "$results"
total=$((passed + failed + skipped))
summary="lesson $num: $passed/$total steps passed"
[ "$needs_gpu" -eq 0 ] || summary="$summary, $needs_gpu needs a GPU"
[ "$steps" -gt 0 ] || summary="lesson $num: the grader ran no step (see the errors above)"
printf '%s (%s/%s points)\n' "$summary" "$got" "$max"
[ "$steps" -gt 0 ] && [ "$failed" -eq 0 ] && [ "$skipped" -eq 0 ]
