#!/usr/bin/env bash
# Tests of the book tooling: renders the workbook and fixture chapters, checks the HTML and the build's failures.
#
#   book/test.sh
#
# Prints one "ok" / "not ok" line per check and ends with "N passed, N failed"; exits 1 if any failed.
set -euo pipefail

BOOK_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BOOK_DIR/.." && pwd)
BUILD=$BOOK_DIR/build.sh
FIXTURE=book/fixtures/regions.cu.txt # relative to the repository root, as chapters name files
PASSED=0
FAILED=0

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

pass() {
  PASSED=$((PASSED + 1))
  printf 'ok     - %s\n' "$1"
}

# Records a failure: the check's name, then what was expected and what happened, indented.
fail() {
  FAILED=$((FAILED + 1))
  printf 'not ok - %s\n' "$1"
  shift
  printf '         %s\n' "$@"
}

# The text of an HTML file with the tags removed and the usual entities decoded: what a reader sees.
html_text() {
  sed -e 's/<[^>]*>//g' -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' -e "s/&#39;/'/g" -e 's/&amp;/\&/g' "$1"
}

# The lines of region NAME of FILE, markers left out and the common indentation removed.
region_of() {
  local file=$1 name=$2
  awk -v name="$name" '
    $0 ~ "^[ \t]*// end region: " name "[ \t]*$" { inside = 0; next }
    $0 ~ "^[ \t]*// region: " name "[ \t]*$" { inside = 1; next }
    $0 ~ "^[ \t]*// (end )?region: " { next }
    inside { lines[++n] = $0 }
    END {
      min = -1
      for (i = 1; i <= n; i++) if (lines[i] ~ /[^ \t]/) {
        match(lines[i], /^[ \t]*/)
        if (min < 0 || RLENGTH < min) min = RLENGTH
      }
      for (i = 1; i <= n; i++) print substr(lines[i], min + 1)
    }' "$file"
}

# Writes a chapter NAME.md into lessons directory DIR from stdin.
chapter() {
  mkdir -p "$1"
  cat >"$1/$2.md"
}

# Runs build.sh on lessons directory DIR into OUTPUT; its stdout, stderr and status go to $TMP/build.*.
build() {
  local status=0
  "$BUILD" "$1" "$2" >"$TMP/build.out" 2>"$TMP/build.err" || status=$?
  printf '%s\n' "$status" >"$TMP/build.status"
}

build_status() { cat "$TMP/build.status"; }

# Checks that the last build failed and that its stderr names every one of the given strings.
expect_build_failure() {
  local name=$1 output=$2 missing=()
  shift 2
  local want
  for want in "$@"; do
    grep -qF -- "$want" "$TMP/build.err" || missing+=("$want")
  done
  if [ "$(build_status)" = 0 ]; then
    fail "$name" "expected: build.sh exits non-zero" "happened: it exited 0"
  elif [ "${#missing[@]}" -gt 0 ]; then
    fail "$name" "expected: the error names ${missing[*]}" "happened: $(tr '\n' ' ' <"$TMP/build.err")"
  elif [ -e "$output" ]; then
    fail "$name" "expected: no book written" "happened: $output exists"
  else
    pass "$name"
  fi
}

# Checks that FILE contains the fixed string WANT.
expect_contains() {
  local name=$1 file=$2 want=$3
  if grep -qF -- "$want" "$file"; then
    pass "$name"
  else
    fail "$name" "expected: $file contains: $want" "happened: it does not"
  fi
}

test_workbook() {
  local html=$TMP/workbook.html text=$TMP/workbook.txt block file name source line absent
  build "$ROOT/lessons" "$html"
  if [ "$(build_status)" != 0 ] || [ ! -s "$html" ]; then
    fail "renders lessons/*.md into one HTML file" "happened: status $(build_status): $(cat "$TMP/build.err")"
    return
  fi
  pass "renders lessons/*.md into one HTML file"
  expect_contains "says where it wrote the book" "$TMP/build.out" "$html"
  html_text "$html" >"$text"

  expect_contains "has the workbook's title" "$html" "<title>CUDA Memory Workbook</title>"
  expect_contains "has a table of contents" "$html" '<nav id="TOC"'
  expect_contains "the table of contents links lesson 1" "$html" '<a href="#lesson-01">'
  expect_contains "numbers the chapters" "$html" '<h1 data-number="1" id="lesson-01"><span class="header-section-number">1</span>'
  expect_contains "highlights CUDA API calls" "$html" '<span class="fu">cudaMalloc</span>'
  expect_contains "embeds the book's CSS (one standalone file)" "$html" 'div.listing > p'
  if grep -qE '<link[^>]+stylesheet' "$html"; then
    fail "links no external stylesheet" "happened: $(grep -oE '<link[^>]+stylesheet[^>]*>' "$html" | head -n1)"
  else
    pass "links no external stylesheet"
  fi

  # Every listing the chapters include, line for line as its file has it, marker lines left out.
  grep -ho '{[^}]*include="[^"]*"[^}]*}' "$ROOT"/lessons/*.md >"$TMP/includes" || true
  if [ ! -s "$TMP/includes" ]; then
    fail "the chapters include code listings" "happened: no {include=...} code block in lessons/*.md"
  fi
  while IFS= read -r block; do
    file=$(sed -n 's/.*include="\([^"]*\)".*/\1/p' <<<"$block")
    name=$(sed -n 's/.*region="\([^"]*\)".*/\1/p' <<<"$block")
    if [ -n "$name" ]; then
      region_of "$ROOT/$file" "$name" >"$TMP/region"
      source="$file, region $name"
    else
      cp "$ROOT/$file" "$TMP/region"
      source=$file
    fi
    absent=""
    while IFS= read -r line; do
      [ -z "$line" ] && continue
      grep -qxF -- "$line" "$text" || { absent=$line; break; }
    done <"$TMP/region"
    if [ -s "$TMP/region" ] && [ -z "$absent" ] && grep -qF "<code>$source</code>" "$html"; then
      pass "shows $source line for line, and names it"
    else
      fail "shows $source line for line, and names it" "missing line: ${absent:-(none: the source label <code>$source</code>)}"
    fi
  done <"$TMP/includes"
  if grep -qE '// (end )?region:' "$text"; then
    fail "shows no region marker lines" "happened: $(grep -E '// (end )?region:' "$text" | head -n1)"
  else
    pass "shows no region marker lines"
  fi
}

test_fixture_book() {
  local lessons=$TMP/lessons-ok html=$TMP/ok.html text=$TMP/ok.txt
  chapter "$lessons" 02-second <<'EOF'
# Second {#second}

```cuda
fill<<<blocks_for(n, 256), 256>>>(d_data, n, 7.0f);
```
EOF
  chapter "$lessons" 01-first <<EOF
# First {#first}

\`\`\`{.cuda include="kernels/fill.cuh"}
\`\`\`

\`\`\`{.cuda include="$FIXTURE" region="indented"}
\`\`\`
EOF
  build "$lessons" "$html"
  if [ "$(build_status)" != 0 ]; then
    fail "renders fixture chapters" "happened: status $(build_status): $(cat "$TMP/build.err")"
    return
  fi
  pass "renders fixture chapters"
  html_text "$html" >"$text"
  if [ "$(grep -n 'header-section-number">1<' "$html" | grep -c First)" = 1 ] &&
    [ "$(grep -n 'header-section-number">2<' "$html" | grep -c Second)" = 1 ]; then
    pass "orders chapters by file name and numbers them 1, 2"
  else
    fail "orders chapters by file name and numbers them 1, 2" "happened: $(grep -o '<h1[^>]*>.*</h1>' "$html" | tr '\n' ' ')"
  fi
  expect_contains "highlights __global__ in an included file" "$html" '<span class="at">__global__</span>'
  expect_contains "highlights threadIdx" "$html" '<span class="bu">threadIdx</span>'
  expect_contains "highlights the <<< >>> launch brackets" "$html" '<span class="ex">&lt;&lt;&lt;</span>'
  expect_contains "includes a whole file without region" "$text" "$(head -n1 "$ROOT/kernels/fill.cuh")"
  if grep -qx 'if (ready) {' "$text" && grep -qx '    go();' "$text" && grep -qx 'stop();' "$text"; then
    pass "removes the region's common indentation and keeps the rest"
  else
    fail "removes the region's common indentation and keeps the rest" "happened: $(grep -E 'ready|go\(\)|stop\(\)' "$text" | tr '\n' '|')"
  fi
  if grep -q 'outside_every_region\|region: nested' "$text"; then
    fail "shows only the region, without nested markers" "happened: $(grep 'outside_every_region\|region: nested' "$text")"
  else
    pass "shows only the region, without nested markers"
  fi
}

# One chapter whose only listing is broken: the build must fail and name the chapter, the file and the region.
broken_chapter() {
  local name=$1 include=$2
  shift 2
  local lessons=$TMP/lessons-$name html=$TMP/$name.html
  chapter "$lessons" 01-fine <<<'# Fine {#fine}'
  chapter "$lessons" "02-$name" <<EOF
# Broken {#broken}

\`\`\`{.cuda $include}
\`\`\`
EOF
  build "$lessons" "$html"
  expect_build_failure "fails on $name, naming the chapter and $*" "$html" "$lessons/02-$name.md" "$@"
}

test_failures() {
  broken_chapter "a missing file" 'include="solutions/01-allocation/no-such-file.cu" region="allocate"' \
    "solutions/01-allocation/no-such-file.cu" '"allocate"'
  broken_chapter "a missing region" 'include="solutions/01-allocation/alloc.cu" region="no-such-region"' \
    "solutions/01-allocation/alloc.cu" '"no-such-region"'
  broken_chapter "a missing whole file" 'include="kernels/no-such-file.cuh"' "kernels/no-such-file.cuh"
  broken_chapter "an unterminated region" "include=\"$FIXTURE\" region=\"unterminated\"" "$FIXTURE" '"unterminated"'
  broken_chapter "a region named twice" "include=\"$FIXTURE\" region=\"twice\"" "$FIXTURE" '"twice"'
  broken_chapter "an empty region" "include=\"$FIXTURE\" region=\"empty\"" "$FIXTURE" '"empty"'

  # The filter alone: pandoc itself must exit non-zero, whoever runs it.
  local status=0
  # shellcheck disable=SC2016 # the backticks are Markdown, not a command substitution
  printf '```{.cuda include="solutions/01-allocation/alloc.cu" region="no-such-region"}\n```\n' |
    pandoc --from markdown --to json --lua-filter "$BOOK_DIR/include-code.lua" >/dev/null 2>&1 || status=$?
  if [ "$status" != 0 ]; then
    pass "the filter makes pandoc itself exit non-zero (status $status)"
  else
    fail "the filter makes pandoc itself exit non-zero" "happened: pandoc exited 0"
  fi

  build "$TMP/no-such-dir" "$TMP/none.html"
  expect_build_failure "fails on a missing lessons directory" "$TMP/none.html" "$TMP/no-such-dir"
}

test_shellcheck() {
  if ! command -v shellcheck >/dev/null 2>&1; then
    printf 'skip   - shellcheck is not installed\n'
    return
  fi
  if shellcheck "$BUILD" "$BOOK_DIR/test.sh" >"$TMP/shellcheck.out" 2>&1; then
    pass "build.sh and test.sh are shellcheck-clean"
  else
    fail "build.sh and test.sh are shellcheck-clean" "$(head -n 20 "$TMP/shellcheck.out")"
  fi
}

main() {
  cd "$ROOT"
  test_workbook
  test_fixture_book
  test_failures
  test_shellcheck
  printf '%d passed, %d failed\n' "$PASSED" "$FAILED"
  [ "$FAILED" = 0 ]
}

main "$@"
