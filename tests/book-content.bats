#!/usr/bin/env bats
# The book's content: no chapter gives away an exercise's answer, every shown output is a tested run,
# every worked example builds and prints what the chapter shows, figures and plots exist and are well
# formed, and every measured number a chapter quotes equals its data file under facts/measured/.

setup() {
  load lib/helpers
  cd "$WB_ROOT" || return 1
}

# region_lines FILE NAME: the lines of region NAME of FILE (marker lines left out), as
# book/include-code.lua shows them but not dedented; the whole file when NAME is empty.
region_lines() {
  awk -v name="$2" '
    function marker(line, kind) {
      if (match(line, "^[ \t]*(//|#)[ \t]*" kind "[ \t]*[^ \t]+[ \t]*$")) {
        sub("^[ \t]*(//|#)[ \t]*" kind "[ \t]*", "", line); sub("[ \t]*$", "", line); return line
      }
      return ""
    }
    name == "" { if (marker($0, "(end )?region:") == "") print; next }
    marker($0, "end region:") == name { inside = 0; next }
    marker($0, "region:") == name { inside = 1; next }
    inside && marker($0, "(end )?region:") == "" { print }
  ' "$1"
}

# included: every listing of lessons/*.md as "CHAPTER FILE REGION" (REGION "-" for a whole file).
included() {
  sed -n -E 's/^[[:space:]]*```\{\.[a-z]+ include="([^"]+)"( region="([^"]+)")?\}.*$/\1 \3/p' "$1" |
    while read -r file region; do printf '%s %s %s\n' "$1" "$file" "${region:--}"; done
}

# trimmed: stdin's lines without their leading and trailing blanks.
trimmed() { sed -E 's/^[[:space:]]+//; s/[[:space:]]+$//'; }

@test "no chapter includes a file from solutions/" {
  run grep -n 'include="solutions/' lessons/*.md
  assert_failure 1
}

@test "no listing shows a line of its lesson's solution that the skeleton leaves as a TODO" {
  local chapter lesson sol ex region file reg line answers listings hits=0 total=0
  answers=$BATS_TEST_TMPDIR/answers listings=$BATS_TEST_TMPDIR/listings
  for chapter in lessons/*.md; do
    lesson=$(basename "$chapter" .md)
    : >"$answers"
    # The answer lines: in a solution region whose skeleton region has a TODO, each code line (12
    # characters or more, not a comment) that the skeleton nowhere contains.
    for sol in solutions/"$lesson"/*; do
      ex=exercises/${sol#solutions/}
      [ -f "$ex" ] || continue
      while read -r region; do
        region_lines "$ex" "$region" | grep -q TODO || continue
        region_lines "$sol" "$region" | trimmed | grep -E '^.{12,}$' | grep -v -E '^(//|/\*|\*)' |
          grep -v -x -F -f <(trimmed <"$ex") | sed "s#^#$sol $region: #" >>"$answers" || true
      done < <(sed -n -E 's#^[[:space:]]*//[[:space:]]*region:[[:space:]]*([^[:space:]]+).*#\1#p' "$sol")
    done
    total=$((total + $(wc -l <"$answers")))
    while read -r chapter file reg; do
      [ "$reg" = - ] && reg=
      region_lines "$file" "$reg" | trimmed >"$listings"
      while IFS= read -r line; do
        if grep -q -x -F -e "${line#*: }" "$listings"; then
          echo "$chapter shows $file${reg:+ region $reg}, which holds the answer line of $line"
          hits=$((hits + 1))
        fi
      done <"$answers"
    done < <(included "$chapter")
  done
  echo "$total answer lines looked for"
  [ "$total" -gt 0 ] # the check must have something to look for
  [ "$hits" -eq 0 ]
}

# The compiler for the worked examples: the CPU backend's, or with BACKEND=gpu the real nvcc (NVCC
# overrides either), with the grader's flags.
example_compiler() {
  if [ "${BACKEND:-cpu}" = gpu ]; then
    printf '%s\n' "${NVCC:-nvcc}" -arch=native
  else
    printf '%s\n' "${NVCC:-$WB_ROOT/cpu/bin/nvcc-cpu}"
  fi
}

@test "every worked example builds cleanly and prints what its .out file (the chapter's copy) says" {
  local src name bin out compiler=() failures=0 count=0
  mapfile -t compiler < <(example_compiler)
  command -v "${compiler[0]}" >/dev/null 2>&1 || skip "no compiler ${compiler[0]} (BACKEND=${BACKEND:-cpu})"
  for src in book/examples/*.cu; do
    name=$(basename "$src" .cu) bin=$BATS_TEST_TMPDIR/$name out=$BATS_TEST_TMPDIR/$name.out
    count=$((count + 1))
    if ! "${compiler[@]}" -O2 -g -lineinfo -Xcompiler -Wall,-Wextra -I kernels -I book/examples \
      -o "$bin" "$src" >"$bin.log" 2>&1 || [ -s "$bin.log" ]; then
      echo "$src does not build cleanly:" && cat "$bin.log"
      failures=$((failures + 1)) && continue
    fi
    # An example with a NAME.err shows the out-of-memory contract: that line on stderr, and exit status 1.
    local want=0 status=0
    [ ! -f "book/examples/$name.err" ] || want=1
    "$bin" >"$out" 2>"$bin.err" || status=$?
    if [ "$status" -ne "$want" ]; then
      echo "$src exited with status $status, not $want (stderr: $(cat "$bin.err"))"
      failures=$((failures + 1)) && continue
    fi
    if [ "$want" = 1 ]; then
      diff -u "book/examples/$name.err" "$bin.err" || failures=$((failures + 1))
    elif [ -s "$bin.err" ]; then
      echo "$src wrote to stderr: $(cat "$bin.err")" && failures=$((failures + 1))
    fi
    diff -u "book/examples/$name.out" "$out" || failures=$((failures + 1))
  done
  echo "$count examples built with ${compiler[*]}"
  [ "$count" -gt 0 ]
  [ "$failures" -eq 0 ]
}

@test "every worked example fits in 90 columns, as listings must" {
  run awk 'length > 90 { printf "%s:%d is %d columns\n", FILENAME, FNR, length }' book/examples/*.cu book/examples/*.cuh
  assert_success
  assert_output ''
}

@test "every worked example has its .out file, a chapter that shows it, and a line in the README" {
  local src name missing=0
  for src in book/examples/*.cu; do
    name=$(basename "$src" .cu)
    [ -f "book/examples/$name.out" ] || { echo "$src has no $name.out" && missing=$((missing + 1)); }
    grep -q -F "include=\"book/examples/$name.cu\"" lessons/*.md || { echo "no chapter shows $src" && missing=$((missing + 1)); }
    grep -q -F "\`$name.cu\`" book/examples/README.md || { echo "book/examples/README.md does not list $name.cu" && missing=$((missing + 1)); }
  done
  [ "$missing" -eq 0 ]
}

@test "every chapter opens with where to read it rendered" {
  local chapter bad=0
  for chapter in lessons/*.md; do
    # shellcheck disable=SC2016 # the backquotes are the chapter's Markdown, not a command
    head -n 1 "$chapter" | grep -q -E '^\*Rendered: run `make book` and open build/book/'"$(basename "$chapter" .md)"'\.html' ||
      { echo "$chapter does not open with its *Rendered: ...* line" && bad=$((bad + 1)); }
  done
  [ "$bad" -eq 0 ]
}

@test "every included listing reads in the raw chapter as the code it includes (make listings keeps them in step)" {
  # In a student's course repository the exercises are their own work: the chapters show them as released.
  require_solutions
  command -v pandoc >/dev/null || skip "needs pandoc"
  run python3 book/listings.py --check
  assert_success
  # And it would see a drift: a chapter whose listing is edited by hand is named.
  local copy
  copy=$BATS_TEST_TMPDIR/03-synchronization.md
  sed '0,/^```{\.cuda include=/{/^```{\.cuda include=/{n;s/^/\/\/ edited by hand\n/}}' lessons/03-synchronization.md >"$copy"
  cmp -s "$copy" lessons/03-synchronization.md && fail "the edit did not happen"
  run python3 book/listings.py --check "$copy"
  assert_failure
  assert_output --partial "listings differ from their sources in:"
}

@test "every chapter has a figure, and every figure it names is a well-formed SVG for light and dark pages" {
  local chapter fig bad=0
  for chapter in lessons/*.md; do
    grep -q -E '!\[[^]]+\]\(figures/[a-z0-9-]+\.svg\)' "$chapter" || { echo "$chapter has no figure" && bad=$((bad + 1)); }
  done
  book/plots.sh "$BATS_TEST_TMPDIR/figures"
  while read -r fig; do
    # A hand-drawn figure (book/figures/), or a plot book/plots.sh draws from facts/measured/.
    if [ -f "book/$fig" ]; then fig=book/$fig; else fig=$BATS_TEST_TMPDIR/$fig; fi
    [ -f "$fig" ] || { echo "no book/$fig, and book/plots.sh does not draw it" && bad=$((bad + 1)) && continue; }
    if command -v xmllint >/dev/null 2>&1; then
      xmllint --noout "$fig" || { echo "$fig is not well-formed XML" && bad=$((bad + 1)); }
    fi
    # Text is SVG text (readable, searchable), the title says what it shows, the dark theme has its
    # colours, and nothing paints an opaque page behind the drawing.
    grep -q '<text' "$fig" && grep -q '<title' "$fig" && grep -q 'prefers-color-scheme: dark' "$fig" ||
      { echo "$fig lacks SVG text, a <title> or its dark-theme colours" && bad=$((bad + 1)); }
    ! grep -q -i -E 'fill="(#fff|#ffffff|white)"|<image' "$fig" ||
      { echo "$fig paints a white background or embeds a bitmap" && bad=$((bad + 1)); }
  done < <(grep -h -o -E '\]\(figures/[a-z0-9-]+\.svg\)' lessons/*.md | sed -E 's/^\]\((.*)\)$/\1/' | sort -u)
  [ "$bad" -eq 0 ]
}

@test "every measured data file names its machine, toolkit, driver, date and source, and has a plot" {
  local tsv bad=0
  book/plots.sh "$BATS_TEST_TMPDIR/plots"
  for tsv in facts/measured/*.tsv; do
    for field in 'machine: NVIDIA H200' 'toolkit: CUDA' 'driver: ' 'measured: ' 'source: facts/gpu-facts.md'; do
      grep -q "^# .*$field" "$tsv" || { echo "$tsv: no '$field' in its header" && bad=$((bad + 1)); }
    done
    [ -s "$BATS_TEST_TMPDIR/plots/plot-$(basename "$tsv" .tsv).svg" ] || { echo "book/plots.sh draws no plot of $tsv" && bad=$((bad + 1)); }
  done
  [ "$bad" -eq 0 ]
}

# measured_values TSV: "ROW<TAB>VALUE" for each number of each data row (7.0–7.2, 4,000, 0.80).
measured_values() {
  grep -v '^#' "$1" | tail -n +2 |
    awk -F '\t' '{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9][0-9.,–]*$/) print NR "\t" $i }'
}

@test "every number in facts/measured/ is one facts/gpu-facts.md records" {
  local tsv row value bad=0 count=0
  for tsv in facts/measured/*.tsv; do
    while IFS=$'\t' read -r row value; do
      count=$((count + 1))
      grep -q -F -e "$value" facts/gpu-facts.md || { echo "$tsv, row $row: $value is not in facts/gpu-facts.md" && bad=$((bad + 1)); }
    done < <(measured_values "$tsv")
  done
  echo "$count numbers found in facts/gpu-facts.md"
  [ "$count" -gt 0 ]
  [ "$bad" -eq 0 ]
}

@test "every measured number a chapter quotes equals its data file in facts/measured/" {
  local tsv checked=0 bad=0 row pattern value lines
  for tsv in facts/measured/*.tsv; do
    # Each row: its numbers (fields like 7.0–7.2, 16,004, ≤ 8.4) and quoted_on, the regex of the lines quoting it.
    while IFS= read -r row; do
      pattern=$(printf '%s\n' "$row" | awk -F '\t' '{ print $NF }')
      [ "$pattern" = - ] && continue
      lines=$(grep -h -E -e "$pattern" lessons/*.md || true)
      [ -n "$lines" ] || { echo "$tsv: no chapter line matches /$pattern/" && bad=$((bad + 1)) && continue; }
      while IFS= read -r value; do
        checked=$((checked + 1))
        while IFS= read -r line; do
          [[ $line == *"$value"* ]] || { echo "$tsv says $value, but a chapter quotes: $line" && bad=$((bad + 1)); }
        done <<<"$lines"
      done < <(printf '%s\n' "$row" | awk -F '\t' '{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9][0-9.,–]*$/) print $i }')
    done < <(grep -v '^#' "$tsv" | tail -n +2)
  done
  echo "$checked numbers checked"
  [ "$checked" -gt 0 ]
  [ "$bad" -eq 0 ]
}

# typed_output_lines: "CHAPTER:LINE:TEXT" for each line of a chapter's bare ``` or ```text block that
# includes nothing: output typed into the chapter.
typed_output_lines() {
  awk '
    !open && /^[ \t]*```(text)?[ \t]*$/ { open = 1; typed = 1; next }
    !open && /^[ \t]*```/ { open = 1; typed = 0; next }
    open && /^[ \t]*```[ \t]*$/ { open = 0; next }
    open && typed { printf "%s:%d:%s\n", FILENAME, FNR, $0 }
  ' lessons/*.md
}

@test "every typed-in output is an out-of-memory contract line that the runtime and the lesson's code bear out" {
  # Any other output a chapter shows is included from a tested file (a worked example's .out, a grader's
  # expected output). A contract line names a call the lesson's program makes and an error string of
  # CUDA 13 (cpu/include/cudawb/errors.def, checked against the H200 by cpu/tests); a CHECK_CUDA line's
  # FILE:LINE is the line of the solution that makes that call.
  local where text lesson call file line name string bad=0 count=0
  while IFS= read -r where; do
    text=${where#*:*:} where=${where%"$text"} where=${where%:}
    lesson=$(basename "${where%%:*}" .md)
    count=$((count + 1))
    if [[ $text =~ ^error:\ ([a-z0-9_.]+):([0-9]+):\ (.+)\ failed:\ ([A-Za-z]+):\ (.+)$ ]]; then
      file=${BASH_REMATCH[1]} line=${BASH_REMATCH[2]} call=${BASH_REMATCH[3]}
      name=${BASH_REMATCH[4]} string=${BASH_REMATCH[5]}
      grep -q -F ", $name, \"$string\")" cpu/include/cudawb/errors.def ||
        { echo "$where: $name is not \"$string\" in cpu/include/cudawb/errors.def" && bad=$((bad + 1)); }
      sed -n "${line}p" "solutions/$lesson/$file" | grep -q -F "CHECK_CUDA($call)" ||
        { echo "$where: line $line of solutions/$lesson/$file is not CHECK_CUDA($call)" && bad=$((bad + 1)); }
    elif [[ $text =~ ^error:\ ([A-Za-z0-9_]+)\ (of\ [0-9]+( x [0-9]+)?\ bytes\ )?failed:\ (.+)$ ]]; then
      call=${BASH_REMATCH[1]} string=${BASH_REMATCH[4]}
      grep -q -F ", \"$string\")" cpu/include/cudawb/errors.def ||
        { echo "$where: \"$string\" is no error string of cpu/include/cudawb/errors.def" && bad=$((bad + 1)); }
      grep -q -w -F "$call" exercises/"$lesson"/* ||
        { echo "$where: the lesson's program makes no call $call" && bad=$((bad + 1)); }
    else
      echo "$where: typed-in output; include it from a tested file (book/examples/NAME.out, grader/$lesson/expected/): $text"
      bad=$((bad + 1))
    fi
  done < <(typed_output_lines)
  echo "$count typed-in lines checked"
  [ "$bad" -eq 0 ]
}

@test "every chapter links to the NVIDIA documentation it relies on" {
  local chapter bad=0
  for chapter in lessons/[0-9][0-9]-*.md; do
    grep -q '](https://docs\.nvidia\.com/' "$chapter" || { echo "$chapter has no link to docs.nvidia.com" && bad=$((bad + 1)); }
  done
  [ "$bad" -eq 0 ]
}
