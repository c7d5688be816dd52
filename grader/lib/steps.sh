# Reads a lesson's steps out of its grader, sourced by hint.sh and progress.sh: the Bats file is the one
# place where a step's number, name, points and hint are written.

# shellcheck shell=bash
# steps_of ID: one line per step, "N<TAB>name<TAB>points<TAB>hint" (hint lines joined by spaces).
steps_of() {
  awk '
    /^# hint: / { hint = hint (hint == "" ? "" : " ") substr($0, 9); next }
    /^@test "step [0-9]+: / {
      name = $0
      sub(/^@test "/, "", name); sub(/" *\{ *$/, "", name)
      n = name; sub(/^step /, "", n); sub(/:.*/, "", n)
      points = name; sub(/.*\(/, "", points); sub(/ points?\)$/, "", points)
      sub(/^step [0-9]+: /, "", name); sub(/ \([0-9]+ points?\)$/, "", name)
      printf "%s\t%s\t%s\t%s\n", n, name, points, hint
      hint = ""; next
    }
    !/^#/ { hint = "" }
  ' "$WB_ROOT/grader/$1.bats"
}
