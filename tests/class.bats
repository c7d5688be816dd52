#!/usr/bin/env bats
# make grade CLASS=DIR: a class of every kind of entry (folder, .tar.gz, .zip, git work tree, bare
# repository, names with a comma, quotes and a newline, unsafe and corrupt archives), graded ONCE in
# setup_file (lesson 1, CPU backend, two at a time), then every output checked; a second run reuses the
# unchanged students, and FORCE=1 grades again.

VARIANT=tests/variants/01-allocation/forgot-to-free.patch

setup_file() {
  load lib/helpers
  # The student release has no solutions to make a class of: the tests of its results skip there.
  ! in_release || return 0
  local c=$BATS_FILE_TMPDIR/class src=$BATS_FILE_TMPDIR/src unsafe=()
  mkdir -p "$c" "$src"
  # Asked in a subshell: the answer sandbox.sh caches (exported) must not reach the tests' gradings.
  # shellcheck source=grader/lib/sandbox.sh
  (. "$WB_ROOT/grader/lib/sandbox.sh" && sandbox_available) || unsafe=(UNSAFE=1)
  solution() { mkdir -p "$1" && cp -R "$WB_ROOT/solutions/01-allocation" "$1/"; }
  skeleton() { mkdir -p "$1" && cp -R "$WB_ROOT/exercises/01-allocation" "$1/"; }
  variant() { solution "$1" && patch --quiet -p1 -d "$1/01-allocation" <"$WB_ROOT/$VARIANT"; }

  solution "$c/alice"                                   # a plain folder
  skeleton "$src/bob" && tar -czf "$c/bob.tar.gz" -C "$src" bob   # one top folder wrapping 01-allocation/
  if command -v zip >/dev/null 2>&1 && command -v unzip >/dev/null 2>&1; then
    variant "$src/carol" && (cd "$src/carol" && zip -qr "$c/carol.zip" 01-allocation)
    echo 'not a zip archive' >"$c/-dash Zoë.zip"   # corrupt; a leading dash, a space, UTF-8
  fi
  if command -v git >/dev/null 2>&1; then
    # dave: a work tree whose uncommitted edit (the variant) is what is graded; erin: a bare repository.
    solution "$c/dave"
    (cd "$c/dave" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm solution)
    patch --quiet -p1 -d "$c/dave/01-allocation" <"$WB_ROOT/$VARIANT"
    solution "$src/erin"
    (cd "$src/erin" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm solution)
    git clone -q --bare "$src/erin" "$c/erin.git"
  fi
  # frank: alice's code, its layout, comments and a local's name changed (similar.tsv lists them together)
  solution "$c/frank" &&
    sed -i 's/d_data/device_values/g; s|^\( *\)\(.*;\)$|\1  \2 // mine|' "$c/frank/01-allocation/alloc.cu"
  skeleton "$c/Smith, \"Jane\""
  mkdir "$c/new"$'\n'"line" 2>/dev/null && solution "$c/new"$'\n'"line"
  # Unsafe: a member ../evil, and a symbolic link where the source should be.
  mkdir -p "$src/evil/01-allocation" && echo x >"$src/evil/01-allocation/alloc.cu" && echo x >"$src/evil/evil"
  tar -cf "$c/evil.tar" -P -C "$src/evil" --transform 's,^evil$,../evil,' 01-allocation evil
  mkdir -p "$src/link/01-allocation" && ln -s /etc/passwd "$src/link/01-allocation/alloc.cu"
  tar -czf "$c/link.tgz" -C "$src/link" 01-allocation
  # Not submissions: a stray notes file, and a folder of other things. Listed apart, not students.
  echo "grade these by Friday" >"$c/notes.txt"
  mkdir -p "$c/misc/photos" && echo x >"$c/misc/photos/a.txt"
  ls -A "$c" >"$BATS_FILE_TMPDIR/entries"

  local t0=$SECONDS
  make -s -C "$WB_ROOT" grade CLASS="$c" LESSON=1 BACKEND=cpu JOBS=2 OUT="$BATS_FILE_TMPDIR/runs/first" "${unsafe[@]}" \
    >"$BATS_FILE_TMPDIR/first.out" 2>"$BATS_FILE_TMPDIR/first.err" || echo "status $?" >>"$BATS_FILE_TMPDIR/first.err"
  echo "first run: $((SECONDS - t0)) s" >"$BATS_FILE_TMPDIR/times"
  t0=$SECONDS
  make -s -C "$WB_ROOT" grade CLASS="$c" LESSON=1 BACKEND=cpu JOBS=2 OUT="$BATS_FILE_TMPDIR/runs/second" "${unsafe[@]}" \
    >"$BATS_FILE_TMPDIR/second.out" 2>"$BATS_FILE_TMPDIR/second.err" || echo "status $?" >>"$BATS_FILE_TMPDIR/second.err"
  echo "second run: $((SECONDS - t0)) s" >>"$BATS_FILE_TMPDIR/times"
  readlink "$BATS_FILE_TMPDIR/runs/latest" >"$BATS_FILE_TMPDIR/latest-after-second"
  # FORCE=1: one unchanged student (alice's copy), graded again although an identical result is there.
  solution "$BATS_FILE_TMPDIR/class2/alice"
  make -s -C "$WB_ROOT" grade CLASS="$BATS_FILE_TMPDIR/class2" LESSON=1 BACKEND=cpu FORCE=1 OUT="$BATS_FILE_TMPDIR/runs/forced" \
    "${unsafe[@]}" >"$BATS_FILE_TMPDIR/forced.out" 2>"$BATS_FILE_TMPDIR/forced.err" || echo "status $?" >>"$BATS_FILE_TMPDIR/forced.err"
}

setup() {
  load lib/helpers
  RUN=$BATS_FILE_TMPDIR/runs/first
}

# The number of students: entries of the class (one name holds a newline: count them, not lines), but the
# two that are not submissions (notes.txt, misc/); entry_count counts them too.
entry_count() { find "$BATS_FILE_TMPDIR/class" -mindepth 1 -maxdepth 1 -printf x | wc -c; }
class_size() { echo $(($(entry_count) - 2)); }

# csv_rows FILE: an RFC 4180 reader: each record of FILE on one line, fields tab-separated, with a
# field's own tab, CR, LF and backslash written \t \r \n \\ (so that a name with a newline stays one field).
csv_rows() {
  LC_ALL=C awk 'BEGIN { RS = "\001"; ORS = "" }
    function put(s) { gsub(/\\/, "\\\\", s); gsub(/\t/, "\\t", s); gsub(/\r/, "\\r", s); gsub(/\n/, "\\n", s); return s }
    { t = t $0 }
    END {
      n = length(t); f = ""; q = 0; rec = ""; started = 0
      for (i = 1; i <= n; i++) {
        c = substr(t, i, 1)
        if (q) {
          if (c == "\"") { if (substr(t, i + 1, 1) == "\"") { f = f "\""; i++ } else q = 0 }
          else f = f c
        } else if (c == "\"") { q = 1; started = 1 }
        else if (c == ",") { rec = rec put(f) "\t"; f = ""; started = 1 }
        else if (c == "\r" && substr(t, i + 1, 1) == "\n") { }
        else if (c == "\n") { print rec put(f) "\n"; rec = ""; f = ""; started = 0 }
        else { f = f c; started = 1 }
      }
      if (q) { print "UNTERMINATED\n"; exit 1 }
      if (started || rec != "") print rec put(f) "\n"
    }' "$1"
}

@test "make grade grades every student once, shows its progress, and writes every output" {
  require_solutions # the class graded in setup_file
  cat "$BATS_FILE_TMPDIR/times"
  run cat "$BATS_FILE_TMPDIR/first.err"
  refute_output --partial "status "
  assert_output --regexp '\[1/[0-9]+\] '
  assert_output --regexp '\[[0-9]+/[0-9]+\] alice 17/17 · '
  for f in gradebook.csv scores.csv class.html run.log; do assert_file_exists "$RUN/$f"; done
  assert_link_exists "$BATS_FILE_TMPDIR/runs/latest"
  # Each student's folder: a name safe anywhere, and the whole sha256 of the entry's name.
  run find "$RUN" -mindepth 1 -maxdepth 1 -type d -regextype posix-extended ! -regex '.*/[A-Za-z0-9_][A-Za-z0-9_-]*-[0-9a-f]{64}'
  assert_output ""
  assert_equal "$(find "$RUN" -mindepth 2 -maxdepth 2 -name report.txt -printf x | wc -c)" "$(entry_count)"
  run cat "$BATS_FILE_TMPDIR/first.out"
  assert_output --regexp 'alice +17 / 17 +points'
  assert_output --partial "scores: "
}

@test "every student has a row in gradebook.csv and rows in scores.csv, names as they were" {
  require_solutions # the class graded in setup_file
  local names
  csv_rows "$RUN/gradebook.csv" >"$BATS_TEST_TMPDIR/gb"
  names=$(tail -n +2 "$BATS_TEST_TMPDIR/gb" | cut -f 1 | sort)
  assert_equal "$(wc -l <<<"$names")" "$(class_size)"
  grep -qxF 'Smith, "Jane"' <<<"$names" || fail "no row for Smith, \"Jane\": $names"
  grep -qxF alice <<<"$names" || fail "no row for alice"
  grep -qxF bob <<<"$names" || fail "no row for bob (bob.tar.gz)"
  [ ! -e "$BATS_FILE_TMPDIR/class/-dash Zoë.zip" ] || grep -qxF -- "-dash Zoë" <<<"$names" || fail "no row for -dash Zoë"
  if [ -d "$BATS_FILE_TMPDIR/class/new"$'\n'"line" ]; then
    grep -qxF 'new\nline' <<<"$names" || fail "no row for the name with a newline: $names"
  fi
  csv_rows "$RUN/scores.csv" >"$BATS_TEST_TMPDIR/sc"
  while IFS= read -r n; do
    [ "$(N="$n" awk -F '\t' '$1 == ENVIRON["N"]' "$BATS_TEST_TMPDIR/sc" | wc -l)" -eq 8 ] || fail "$n has not 8 rows in scores.csv"
  done <<<"$names"
  # RFC 4180: CRLF line ends, and the name with quotes quoted, its quotes doubled.
  grep -q $'\r$' "$RUN/gradebook.csv" || fail "gradebook.csv lines do not end in CRLF"
  grep -qF '"Smith, ""Jane"""' "$RUN/gradebook.csv" || fail "Smith, \"Jane\" is not quoted as RFC 4180 says"
}

@test "gradebook.csv: the step columns add up to each total, and the maximum is everyone's" {
  require_solutions # the class graded in setup_file
  csv_rows "$RUN/gradebook.csv" >"$BATS_TEST_TMPDIR/gb"
  run awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9][0-9] step [0-9]+$/) step[i] = 1; next }
    { s = 0; for (i in step) s += $i
      if (s != $2) print "row " NR " (" $1 "): steps add up to " s ", total " $2
      if (max == "") max = $3; else if ($3 != max) print "row " NR " (" $1 "): maximum " $3 ", not " max }
    END { if (NR < 2) print "no rows" }' "$BATS_TEST_TMPDIR/gb"
  assert_output ""
  assert_equal "$(awk -F '\t' 'NR == 2 { print $3 }' "$BATS_TEST_TMPDIR/gb")" 17
}

@test "the solution scores 17/17, the skeleton and the variant less, the work tree's edit and the bare repository's HEAD are graded" {
  require_solutions # the class graded in setup_file
  local step
  step=$(variant_step "$WB_ROOT/$VARIANT")
  csv_rows "$RUN/scores.csv" >"$BATS_TEST_TMPDIR/sc"
  total() { N="$1" awk -F '\t' '$1 == ENVIRON["N"] { s += $6 } END { print s + 0 }' "$BATS_TEST_TMPDIR/sc"; }
  assert_equal "$(total alice)" 17
  [ "$(total bob)" -lt 17 ] || fail "the skeleton (bob.tar.gz) scored $(total bob)"
  [ "$(total 'Smith, "Jane"')" = "$(total bob)" ] || fail "two skeletons scored differently"
  if [ -e "$BATS_FILE_TMPDIR/class/carol.zip" ]; then
    assert_equal "$(awk -F '\t' -v s="$step" '$1 == "carol" && $3 == s { print $5 }' "$BATS_TEST_TMPDIR/sc")" failed
  fi
  if [ -d "$BATS_FILE_TMPDIR/class/dave" ]; then
    assert_equal "$(awk -F '\t' -v s="$step" '$1 == "dave" && $3 == s { print $5 }' "$BATS_TEST_TMPDIR/sc")" failed
    assert_equal "$(total erin)" 17
  fi
  command -v zip >/dev/null 2>&1 && command -v unzip >/dev/null 2>&1 || skip "zip or unzip is not installed: no .zip student"
  command -v git >/dev/null 2>&1 || skip "git is not installed: no repository students"
}

@test "unsafe and corrupt entries get not-graded rows with the reason, and nothing is written outside" {
  require_solutions # the class graded in setup_file
  csv_rows "$RUN/scores.csv" >"$BATS_TEST_TMPDIR/sc"
  awk -F '\t' '$1 == "evil" || $1 == "link" || $1 == "-dash Zoë" { print $1 ": " $5 ": " $8 }' "$BATS_TEST_TMPDIR/sc" >"$BATS_TEST_TMPDIR/unsafe"
  # One line per distinct row (a row is a step): a failure shows every entry's verdict, not a page of one.
  run sort -u "$BATS_TEST_TMPDIR/unsafe"
  assert_line --regexp '^evil: not-graded: unsafe entry \(a \.\. component\): \.\./evil$'
  assert_line --regexp '^link: not-graded: unsafe entry \(a link.*\): 01-allocation/alloc.cu$'
  if [ -e "$BATS_FILE_TMPDIR/class/-dash Zoë.zip" ]; then assert_line --regexp '^-dash Zoë: not-graded: not a readable zip archive'; fi
  refute_line --regexp ': (passed|failed): '
  run find "$BATS_FILE_TMPDIR" "${TMPDIR:-/tmp}" -maxdepth 3 -name evil ! -path "$BATS_FILE_TMPDIR/src/*"
  assert_output ""
}

@test "results.json parses (jq), its scores add up to its score; junit.xml is valid XML (xmllint)" {
  require_solutions # the class graded in setup_file
  local f n=0
  for f in "$RUN"/*/results.json; do
    n=$((n + 1))
    if command -v jq >/dev/null 2>&1; then
      run jq -e '(.score == ([.tests[].score] | add // 0)) and all(.tests[]; .visibility == "visible" and (.status == "passed" or .status == "failed") and .score <= .max_score)' "$f"
      assert_success
    fi
    if command -v xmllint >/dev/null 2>&1; then
      run xmllint --noout "${f%/results.json}/junit.xml"
      assert_success
    fi
    assert_file_exists "${f%/results.json}/report.txt"
  done
  assert_equal "$n" "$(class_size)"
  command -v jq >/dev/null 2>&1 || skip "jq is not installed: results.json not parsed"
  command -v xmllint >/dev/null 2>&1 || skip "xmllint (libxml2-utils) is not installed: junit.xml not checked"
  # The names survive, escaped: JSON and XML read them back as they were.
  run grep -lF 'Smith, &quot;Jane&quot;' "$RUN"/*/junit.xml
  assert_success
  run jq -r .output "$RUN"/*/results.json
  assert_line 'student: Smith, "Jane"'
  [ ! -e "$BATS_FILE_TMPDIR/class/-dash Zoë.zip" ] || assert_line 'student: -dash Zoë'
}

@test "every output carries a failed step whole: expected, happened and usual cause, as report.txt says them" {
  require_solutions # the class graded in setup_file
  local dir step whole
  # bob's folder: bob.tar.gz holds the skeleton
  dir=$(dirname "$(grep -lF '"output": "student: bob\n' "$RUN"/*/results.json | head -n 1)")
  # The skeleton's step 2: the report's lines for it, less their indent, are the step's whole message.
  step=$(awk -F '\t' '$2 == "failed" { print $1; exit }' "$dir/results/01-allocation.tsv")
  [ "$step" = 2 ] || fail "the skeleton's first failed step is $step, not 2"
  whole=$(awk '/^  FAIL  step 2:/ { on = 1; next } on && /^  [A-Z?]+ / { exit } on { sub(/^          /, ""); print }' "$dir/report.txt")
  [[ $whole == *expected:*happened:*"usual cause:"* ]] || fail "report.txt's step 2: $whole"
  csv_rows "$RUN/scores.csv" >"$BATS_TEST_TMPDIR/sc"
  run awk -F '\t' '$1 == "bob" && $3 == 2 { print $8 }' "$BATS_TEST_TMPDIR/sc"
  assert_output --partial 'happened:'
  assert_output --partial 'usual cause:'
  command -v jq >/dev/null 2>&1 || skip "jq is not installed: results.json not parsed"
  assert_equal "$(jq -r '.tests[] | select(.name | test("step 2:")) | .output' "$dir/results.json")" "failed: $whole"
  assert_equal "$(jq -r '.tests[] | select(.name | test("step 2:")) | .output' "$dir/prairielearn.json")" "$whole"
  run jq -r '.output_format, .output' "$dir/results.json"
  assert_line text
  assert_line --regexp '^lesson 01: [0-9]+/[0-9]+ steps passed'
  command -v xmllint >/dev/null 2>&1 || skip "xmllint (libxml2-utils) is not installed: junit.xml not read"
  assert_equal "$(xmllint --xpath 'string(//testcase[contains(@name, "step 2:")]/failure)' "$dir/junit.xml")" "$whole"
  run xmllint --xpath 'string(//testcase[contains(@name, "step 2:")]/failure/@message)' "$dir/junit.xml"
  assert_output "failed: $(head -n 1 <<<"$whole")"
}

@test "identical submissions are listed together, once comments, layout and names are set aside, skeletons not" {
  require_solutions # the class graded in setup_file
  # alice's solution, and the same with its layout, comments and a local's name changed: one group
  run awk -F '\t' '$1 == "01-allocation" && $5 == "solution" { print $4 }' "$RUN/similar.tsv"
  assert_line --regexp '(^|, )alice(, |$)'
  assert_line --regexp '(^|, )frank(, |$)'
  # the two skeletons (bob, Smith) wrote nothing of their own: no group
  run grep -E 'bob|Smith' "$RUN/similar.tsv"
  assert_failure
  run grep -c '<h2>Identical submissions</h2>' "$RUN/class.html"
  assert_output 1
  assert_file_contains "$RUN/class.html" "(the same as the reference solution)"
  csv_rows "$RUN/similar.csv" >"$BATS_TEST_TMPDIR/similar"
  run awk -F '\t' '$1 == "01-allocation" && $5 == "yes" && $4 ~ /alice/ && $4 ~ /frank/ { print ($3 >= 2) }' "$BATS_TEST_TMPDIR/similar"
  assert_output 1
}

@test "prairielearn.json: gradable unless refused, score = points / maximum, one test per step, the report as output" {
  require_solutions # the class graded in setup_file
  command -v jq >/dev/null 2>&1 || skip "jq is not installed: prairielearn.json not parsed"
  local f n=0
  for f in "$RUN"/*/prairielearn.json; do
    n=$((n + 1))
    run jq -e '(.gradable | type == "boolean") and (.score >= 0 and .score <= 1) and (.message | type == "string")
      and all(.tests[]; (.name | type == "string") and (.output | type == "string") and (.message | type == "string")
        and .points <= .max_points)
      and (([.tests[].max_points] | add // 0) as $m | if $m > 0 then ((.score - ([.tests[].points] | add) / $m) | fabs) < 1e-5 else .score == 0 end)' "$f"
    assert_success
  done
  assert_equal "$n" "$(class_size)"
  run jq -r '[.gradable, .score, .message] | @tsv' "$(dirname "$(grep -lx alice "$RUN"/*/name)")/prairielearn.json"
  assert_output $'true\t1\t17/17 points'
  run jq -r '[.gradable, .message] | @tsv' "$(dirname "$(grep -lx evil "$RUN"/*/name)")/prairielearn.json"
  assert_output --regexp '^false.not graded: unsafe entry'
  run jq -r .output "$(dirname "$(grep -lx alice "$RUN"/*/name)")/prairielearn.json"
  assert_line --partial 'lesson 01: 8/8 steps passed (17/17 points)'
}

@test "only submissions are students: a notes file and a folder holding no lesson are listed apart, in no row or statistic" {
  require_solutions # the class graded in setup_file
  run cut -f2 "$RUN/not-submissions.tsv"
  assert_output $'misc\nnotes.txt'
  run grep -c . "$RUN/students.tsv"
  assert_output "$(class_size)"
  csv_rows "$RUN/gradebook.csv" >"$BATS_TEST_TMPDIR/gb"
  run grep -cE '^(notes|misc)'$'\t' "$BATS_TEST_TMPDIR/gb"
  assert_output 0
  # class.html: apart, with why; the histogram counts the students only.
  assert_file_contains "$RUN/class.html" '<h2>Not submissions</h2>'
  assert_file_contains "$RUN/class.html" '<li>notes.txt: not a folder, .tar'
  assert_file_contains "$RUN/class.html" '<li>misc: nothing lesson-shaped inside'
  assert_file_contains "$RUN/class.html" "<h2>Totals ($(class_size) students, "
  run cat "$BATS_FILE_TMPDIR/first.out"
  assert_output --regexp 'notes\.txt +not a submission, not counted'
}

@test "class.html draws the totals and the pass rates as SVG, and names every student, escaped" {
  require_solutions # the class graded in setup_file
  assert_file_contains "$RUN/class.html" '<svg'
  assert_file_contains "$RUN/class.html" 'Smith, &quot;Jane&quot;'
  assert_file_contains "$RUN/class.html" 'report.txt'
  run grep -c 'href="[^"]*/report.txt"' "$RUN/class.html"
  assert_output "$(class_size)"
  refute grep -q 'Smith, "Jane"' "$RUN/class.html"
  if [ -d "$BATS_FILE_TMPDIR/class/new"$'\n'"line" ]; then assert_file_contains "$RUN/class.html" 'new&#10;line'; fi
  refute grep -qE '(src|href)="https?:' "$RUN/class.html"
}

@test "a second run keeps the first, and reuses every unchanged student (its run.log says so)" {
  require_solutions # the class graded in setup_file
  local second=$BATS_FILE_TMPDIR/runs/second graded
  cat "$BATS_FILE_TMPDIR/times"
  run cat "$BATS_FILE_TMPDIR/second.err"
  refute_output --partial "status "
  assert_file_exists "$RUN/gradebook.csv"
  assert_equal "$(cat "$BATS_FILE_TMPDIR/latest-after-second")" second
  graded=$(grep -c $'\tgraded (hash' "$RUN/run.log")
  assert_equal "$(grep -c $'\treused from first/' "$second/run.log")" "$graded"
  refute grep -q $'\tgraded (hash' "$second/run.log"
  # The same gradebook, line for line.
  assert_equal "$(cat "$second/gradebook.csv")" "$(cat "$RUN/gradebook.csv")"
}

@test "FORCE=1 grades an unchanged student again" {
  require_solutions # the class graded in setup_file
  local forced=$BATS_FILE_TMPDIR/runs/forced
  run cat "$BATS_FILE_TMPDIR/forced.err"
  refute_output --partial "status "
  run cat "$forced/run.log"
  assert_output --regexp $'^alice-[0-9a-f]{64}\talice\tgraded \\(hash '
  assert_file_contains "$forced/gradebook.csv" '^alice,17,17,'
}

@test "unpack.sh refuses absolute paths, hard links, a linked entry and too many files, before writing" {
  local u=$WB_ROOT/grader/class/unpack.sh d=$BATS_TEST_TMPDIR
  mkdir -p "$d/s/01-allocation" && echo x >"$d/s/01-allocation/alloc.cu"
  tar -cPf "$d/abs.tar" "$d/s/01-allocation/alloc.cu"
  run "$u" "$d/abs.tar" "$d/u1"
  assert_failure
  assert_output --partial "an absolute path"
  ln "$d/s/01-allocation/alloc.cu" "$d/s/01-allocation/again.cu"
  tar -cf "$d/hard.tar" -C "$d/s" 01-allocation
  run "$u" "$d/hard.tar" "$d/u2"
  assert_failure
  assert_output --partial "unsafe entry (a link"
  rm "$d/s/01-allocation/again.cu"
  ln -s "$d/s" "$d/linked"
  run "$u" "$d/linked" "$d/u3"
  assert_failure
  assert_output --partial "the entry is a symbolic link"
  touch "$d/s/01-allocation/"{a,b,c}.cu
  tar -czf "$d/many.tgz" -C "$d/s" 01-allocation
  WB_CLASS_MAX_FILES=3 run "$u" "$d/many.tgz" "$d/u4"
  assert_failure
  assert_output --partial "too many files and folders"
  run find "$d/u1" "$d/u2" "$d/u4" -mindepth 1
  assert_output ""
  # Nothing lesson-shaped: a plain folder of other things.
  mkdir -p "$d/odd/notes" && echo x >"$d/odd/notes/a.txt"
  run "$u" "$d/odd" "$d/u5"
  assert_failure
  assert_output --partial "nothing lesson-shaped inside"
}

@test "a GPU speed step is in no one's maximum on the CPU backend, whatever each student's status" {
  local cls=$WB_ROOT/grader/class r=$BATS_TEST_TMPDIR/run
  run "$cls/steps.sh" cpu 02-copies
  assert_line --regexp $'^02-copies\t8\t2\t0\tcopies from pinned memory'
  run "$cls/steps.sh" gpu 02-copies
  assert_line --regexp $'^02-copies\t8\t2\t1\t'
  # Three students, from their results: one reached the speed step, one failed it (a compile error),
  # one was not graded at all. collect.awk gives the step maximum 0 for each, the others their points.
  mkdir -p "$r/ann/results" "$r/ben/results" "$r/cat"
  "$cls/steps.sh" cpu 02-copies >"$r/steps.tsv"
  awk -F '\t' -v OFS='\t' '{ print $2, ($2 == 8 ? "needs-gpu" : "passed"), ($2 == 8 ? 0 : $3), $3, $5, "" }' "$r/steps.tsv" >"$r/ann/results/02-copies.tsv"
  awk -F '\t' -v OFS='\t' '{ print $2, ($2 == 1 ? "passed" : "failed"), ($2 == 1 ? 1 : 0), $3, $5, "" }' "$r/steps.tsv" >"$r/ben/results/02-copies.tsv"
  printf 'ann\tann\tgraded\t\nben\tben\tgraded\t\ncat\tcat\tnot-graded\tcorrupt\n' >"$r/students.tsv"
  WB_CLASS_RUN=$r LC_ALL=C awk -f "$cls/escape.awk" -f "$cls/collect.awk" "$r/steps.tsv" "$r/students.tsv" >"$r/class.tsv"
  run awk -F '\t' '$4 == 8 { print $1, $6, $7, $8, $10 }' "$r/class.tsv"
  assert_output $'ann needs-gpu 0 0 0\nben failed 0 0 0\ncat not-graded 0 0 0'
  run awk -F '\t' '{ t[$1] += $7; m[$1] += $8 } END { print t["ann"], m["ann"], t["ben"], m["ben"], t["cat"], m["cat"] }' "$r/class.tsv"
  assert_output "18 18 1 18 0 18"
}

@test "without a sandbox make grade refuses a class unless UNSAFE=1; bad arguments are one-line errors" {
  require_solutions # the class graded in setup_file
  run env -u WB_SANDBOX_STATE WB_NO_SANDBOX=1 make -s -C "$WB_ROOT" grade CLASS="$BATS_FILE_TMPDIR/class" LESSON=1 BACKEND=cpu OUT="$BATS_TEST_TMPDIR/out"
  assert_failure
  assert_output --partial "no sandbox here"
  assert_output --partial "UNSAFE=1"
  refute [ -e "$BATS_TEST_TMPDIR/out" ]
  run "$WB_ROOT/grader/grade-class.sh" "$BATS_FILE_TMPDIR/class" 1 --jobs many
  assert_failure 2
  assert_output --partial "JOBS must be a number"
  run "$WB_ROOT/grader/grade-class.sh" /nonexistent
  assert_failure 2
  assert_output --partial "usage: make grade CLASS=DIR"
  # The results inside the class would be graded as a student of it.
  run "$WB_ROOT/grader/grade-class.sh" "$BATS_FILE_TMPDIR/class" 1 --backend cpu --out "$BATS_FILE_TMPDIR/class/results"
  assert_failure 2
  assert_output --partial "is inside the class"
  refute [ -e "$BATS_FILE_TMPDIR/class/results" ]
}
