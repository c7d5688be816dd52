# progress.sh: what grade-class.sh shows while a class is graded, and the escapings it needs in Bash.
# shellcheck shell=bash

# tsv_escape TEXT: TEXT with \ \t \n \r escaped, as escape.awk's unesc() reads it back.
tsv_escape() {
  local s=${1//\\/\\\\}
  s=${s//$'\t'/\\t} s=${s//$'\n'/\\n} s=${s//$'\r'/\\r}
  printf '%s' "$s"
}
# shown TEXT: TEXT for a terminal: its control characters visible, not acted on.
shown() {
  tsv_escape "$1" | LC_ALL=C tr '\000-\037\177' '?'
}
# progress_line STUDENT_DIR DONE TOTAL ELAPSED_S: "[3/4] alice 61/72 · 1 min left" on stderr; on a
# terminal each line over the last, elsewhere one line per student.
progress_line() {
  local dir=$1 n=$2 total=$3 elapsed=$4 score left state
  state=$(cat "$dir/state" 2>/dev/null || echo not-graded)
  if [ "$state" = not-graded ]; then
    score="not graded"
  else
    # The points of the steps graded here, out of their maximum (steps.tsv, beside the student's folder).
    score=$(cat "$dir"/results/*.tsv 2>/dev/null | LC_ALL=C awk -F "\t" 'NR == FNR { if ($4) m += $3; next }
      $2 == "passed" { g += $3 } END { print g + 0 "/" m }' "$dir/../steps.tsv" - || echo "?")
  fi
  [ "$state" != reused ] || score="$score (reused)"
  if [ "$n" -ge "$total" ]; then left="done"
  else
    left=$((elapsed * (total - n) / n))
    if [ "$left" -lt 60 ]; then left="$left s left"; else left="$(((left + 59) / 60)) min left"; fi
  fi
  if [ -t 2 ]; then
    printf '\r\e[K[%d/%d] %s %s · %s' "$n" "$total" "$(shown "$(cat "$dir/name" 2>/dev/null)")" "$score" "$left" >&2
  else
    printf '[%d/%d] %s %s · %s\n' "$n" "$total" "$(shown "$(cat "$dir/name" 2>/dev/null)")" "$score" "$left" >&2
  fi
}
progress_end() { [ ! -t 2 ] || printf '\n' >&2; }
