#!/usr/bin/env bash
# Tests of the book tooling: renders the real book and fixture chapters in every format and checks them: pages,
# sidebar, anchors, every internal link of every format, search, epubcheck, the PDF's text, and the layout
# as headless Chromium lays it out (screenshots saved under build/book/screenshots/ for a person to look at).
#
#   book/test.sh
#
# Prints one "ok" / "not ok" / "skip" line per check and ends with "N passed, N failed, N skipped"; exits 1
# if any failed. A check skips, saying why, only when its tool (chromium, epubcheck, ...) is not installed.
set -euo pipefail

BOOK_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BOOK_DIR/.." && pwd)
BUILD=$BOOK_DIR/build.sh
FIXTURE=book/fixtures/regions.cu.txt # relative to the repository root, as chapters name files
SHOTS=$ROOT/build/book/screenshots
PASSED=0
FAILED=0
SKIPPED=0

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

pass() {
  PASSED=$((PASSED + 1))
  printf 'ok     - %s\n' "$1"
}

skip() {
  SKIPPED=$((SKIPPED + 1))
  printf 'skip   - %s\n' "$1"
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

# Runs build.sh with the given arguments; its stdout, stderr and status go to $TMP/build.*. --worktree: the
# checks compare with the files as they are here, committed or not (tests/release.bats builds from the commit).
build() {
  local status=0
  "$BUILD" --worktree "$@" >"$TMP/build.out" 2>"$TMP/build.err" || status=$?
  printf '%s\n' "$status" >"$TMP/build.status"
}

build_status() { cat "$TMP/build.status"; }

# Checks that the last build failed and that its stderr names every one of the given strings.
expect_build_failure() {
  local name=$1 output=$2 unnamed=()
  shift 2
  local want
  for want in "$@"; do
    grep -qF -- "$want" "$TMP/build.err" || unnamed+=("$want")
  done
  if [ "$(build_status)" = 0 ]; then
    fail "$name" "expected: build.sh exits non-zero" "happened: it exited 0"
  elif [ "${#unnamed[@]}" -gt 0 ]; then
    fail "$name" "expected: the error names ${unnamed[*]}" "happened: $(tr '\n' ' ' <"$TMP/build.err")"
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

# Checks that FILE does not contain the fixed string UNWANTED.
expect_absent() {
  local name=$1 file=$2 unwanted=$3
  if grep -qF -- "$unwanted" "$file"; then
    fail "$name" "expected: $file does not contain: $unwanted" "happened: $(grep -F -- "$unwanted" "$file" | head -n1)"
  else
    pass "$name"
  fi
}

# The chapter titles of lessons/*.md, in order, as a reader sees them (attributes and backticks left out).
chapter_titles() {
  local file
  for file in "$@"; do
    sed -n 's/^# \(.*\)$/\1/p' "$file" | head -n1 | sed -e 's/ *{[^}]*}$//' -e 's/`//g'
  done
}

# Every internal link and resource of FILES (relative to DIR) must exist: the file, and the id after '#'.
# Prints one line per broken link ("file: href"); external (scheme:) and data: URLs are not checked.
broken_links() {
  local dir=$1 file
  shift
  (
    cd "$dir"
    find . -type f | sed 's|^\./||'
    find . -type f \( -name '*.html' -o -name '*.xhtml' \) | sed 's|^\./||' | while IFS= read -r file; do
      grep -o ' id="[^"]*"' "$file" | sed -e "s|^ id=\"|$file#|" -e 's|"$||' || true
    done
  ) >"$TMP/known"
  for file in "$@"; do
    grep -oE '(href|src)="[^"]*"' "$dir/$file" | sed -E 's/^(href|src)="//; s/"$//' |
      grep -vE '^([a-zA-Z][a-zA-Z0-9+.-]*:|$)' | sed "s|^|$file\t|" || true
  done >"$TMP/links"
  awk -F'\t' '
    function normalize(path,   parts, n, out, k, i) {
      n = split(path, parts, "/"); k = 0
      for (i = 1; i <= n; i++) {
        if (parts[i] == "." || parts[i] == "") continue
        if (parts[i] == ".." && k > 0) { k--; continue }
        out[++k] = parts[i]
      }
      path = ""
      for (i = 1; i <= k; i++) path = path (i > 1 ? "/" : "") out[i]
      return path
    }
    FILENAME == ARGV[1] { known[$0] = 1; next }
    {
      source = $1; link = $2; path = link; fragment = ""
      at = index(link, "#")
      if (at) { path = substr(link, 1, at - 1); fragment = substr(link, at + 1) }
      if (path == "") target = source
      else { dir = source; sub(/[^\/]*$/, "", dir); target = normalize(dir path) }
      if (!((fragment == "" ? target : target "#" fragment) in known)) print source ": " link
    }' "$TMP/known" "$TMP/links"
}

# Checks the links of FILES in DIR; NAME says which format.
expect_links_resolve() {
  local name=$1 dir=$2 count
  shift 2
  broken_links "$dir" "$@" >"$TMP/broken"
  count=$(wc -l <"$TMP/links")
  if [ "$count" -lt 10 ]; then
    fail "$name" "expected: the links of $* (at least 10)" "happened: found $count"
  elif [ -s "$TMP/broken" ]; then
    fail "$name" "expected: every link's file and anchor exist" "happened: $(wc -l <"$TMP/broken") broken, e.g. $(head -n 3 "$TMP/broken" | tr '\n' ' ')"
  else
    pass "$name ($count links)"
  fi
}

# Checks that no id appears twice in FILE.
expect_unique_ids() {
  local name=$1 file=$2 twice
  twice=$(grep -o ' id="[^"]*"' "$file" | sort | uniq -d | head -n 3 | tr '\n' ' ')
  if [ -z "$twice" ]; then pass "$name"; else fail "$name" "happened: ids used twice: $twice"; fi
}

# Headless Chromium, for the layout checks and the screenshots.
chromium_run() {
  timeout 90 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$TMP/chromium" \
    --allow-file-access-from-files --virtual-time-budget=5000 "$@" 2>/dev/null
}

# Headless Chromium lays a window out no narrower than 500 px. phone_frame PAGE WIDTH HEIGHT writes, beside
# PAGE (a file, plus an optional ?query), a page that shows it in an iframe WIDTH x HEIGHT, whose document's
# media queries and layout see WIDTH as a phone's browser does, and copies the layout report out of it; it
# prints the new page's path. Pages of WIDTH 500 and more are printed as they are.
phone_frame() {
  local page=$1 width=$2 height=$3 frame
  [ "$width" -lt 500 ] || { printf '%s\n' "$page"; return; }
  frame="$(dirname "${page%%\?*}")/.frame-$(basename "${page%%\?*}")"
  cat >"$frame" <<FRAME
<!DOCTYPE html><html><head><meta charset="utf-8"><style>body { margin: 0 } iframe { border: 0; display: block }</style></head>
<body><iframe id="phone" src="$(basename "$page")" width="$width" height="$height"></iframe>
<script>
window.addEventListener("load", function () {
  setTimeout(function () {
    var inner = document.getElementById("phone").contentDocument, report = inner && inner.getElementById("layout-report");
    if (!report) return;
    var pre = document.createElement("pre");
    pre.id = "layout-report";
    pre.textContent = report.textContent;
    document.body.appendChild(pre);
  }, 600);
});
</script></body></html>
FRAME
  printf '%s\n' "$frame"
}

# Lays out PAGE (a path, plus an optional ?query) WIDTH pixels wide and prints layout-check.js's report.
layout_report() {
  local page=$1 width=$2 file=${1%%\?*} query="" copy
  [ "$page" = "$file" ] || query="?${page#*\?}"
  copy="$(dirname "$file")/.layout-$(basename "$file")"
  cp "$BOOK_DIR/layout-check.js" "$(dirname "$file")/.layout-check.js"
  sed 's|</body>|<script src=".layout-check.js"></script></body>|' "$file" >"$copy"
  chromium_run --window-size="$((width < 500 ? 500 : width)),900" --dump-dom "file://$(phone_frame "$copy$query" "$width" 900)" |
    sed -n '/id="layout-report"/,/<\/pre>/p' | sed '1d;$d'
  rm -f "$copy" "$(dirname "$file")/.layout-check.js" "$(dirname "$file")/.frame-$(basename "$copy")"
}

# Checks a layout report: listings that neither scroll sideways nor stick out, no broken image, and whatever
# else is asked: "figure" (an image shown), "copy" (a copy button per listing), "results" (search results).
expect_layout() {
  local name=$1 report=$2 want listings small
  shift 2
  listings=$(sed -n 's/^listings //p' "$report")
  if [ ! -s "$report" ]; then
    fail "$name" "happened: no layout report (did Chromium load the page?)"
    return
  fi
  if grep -qE '^(too-wide|outside|page-too-wide|broken-image) ' "$report"; then
    fail "$name" "happened: $(grep -E '^(too-wide|outside|page-too-wide|broken-image) ' "$report" | head -n 3 | tr '\n' ' ')"
    return
  fi
  for want in "$@"; do
    case $want in
      figure) grep -q '^image ' "$report" || { fail "$name" "expected: a figure shown" "happened: no image"; return; } ;;
      copy) if [ "${listings:-0}" = 0 ] || [ "$(sed -n 's/^copy-buttons //p' "$report")" != "$listings" ]; then
        fail "$name" "expected: a copy button on each of $listings listings" "happened: $(grep copy-buttons "$report")"
        return
      fi ;;
      results) [ "$(sed -n 's/^results //p' "$report")" -gt 0 ] ||
        { fail "$name" "expected: search results" "happened: none"; return; } ;;
      # Figures drawn 720 px wide with 12 px text: shown at 600 px or more, their text stays 10 px or more.
      readable) small=$(awk '$1 == "image" && $4 > 0 && $3 / $4 < 600 / 720 { print $2 " at " $3 " of " $4 " px" }' "$report")
        [ -z "$small" ] || { fail "$name" "expected: figures shown at 600/720 of their size or more" "happened: $small"; return; } ;;
      # No line of a listing wraps: lesson code is at most 90 columns, and its listings are as wide.
      nowrap) [ "$(sed -n 's/^wrapped-lines //p' "$report")" = 0 ] ||
        { fail "$name" "expected: no listing line wrapped" "happened: $(grep '^wrapped-lines ' "$report")"; return; } ;;
      contents-open | contents-closed) grep -q "^contents ${want#contents-} " "$report" ||
        { fail "$name" "expected: the contents ${want#contents-}" "happened: $(grep '^contents ' "$report" || echo "no contents")"; return; } ;;
    esac
  done
  pass "$name ($(awk '$1 == "image" { n++; next } { print } END { print "images " n + 0 }' "$report" | tr '\n' ' ' | sed 's/ $//'))"
}

# Screenshots PAGE (a file, plus optional ?query) into $SHOTS/NAME.png, WIDTHxHEIGHT; checks it is not blank.
# With FIGURE set, the shot shows a figure and a listing near it (fixtures/figure-first.js); THEME dark: the dark theme.
expect_screenshot() {
  local name=$1 page=$2 size=$3 figure=${4:-} theme=${5:-light} file=${2%%\?*} query="" copy ink
  local -a flags=()
  # The dark theme as a reader whose system asks for it sees it (prefers-color-scheme: dark).
  [ "$theme" = light ] || flags=(--force-dark-mode --blink-settings=preferredColorScheme=0)
  [ "$page" = "$file" ] || query="?${page#*\?}"
  copy="$(dirname "$file")/.shot-$(basename "$file")"
  if [ -n "$figure" ]; then
    # Headless Chromium's screenshot of a scrolled page comes out torn: instead, hide what precedes the listing
    # before the first figure (the title stays), so that the listing and the figure are at the top.
    cp "$BOOK_DIR/fixtures/figure-first.js" "$(dirname "$file")/.figure-first.js"
    sed 's|</body>|<script src=".figure-first.js"></script></body>|' "$file" >"$copy"
  else
    cp "$file" "$copy"
  fi
  mkdir -p "$SHOTS"
  rm -f "$SHOTS/$name.png"
  chromium_run "${flags[@]}" --window-size="$((${size%,*} < 500 ? 500 : ${size%,*})),${size#*,}" --screenshot="$SHOTS/$name.png" \
    "file://$(phone_frame "$copy$query" "${size%,*}" "${size#*,}")" >/dev/null || true
  rm -f "$copy" "$(dirname "$file")/.figure-first.js" "$(dirname "$file")/.frame-$(basename "$copy")"
  if [ ! -s "$SHOTS/$name.png" ]; then
    fail "screenshot $name is taken" "happened: Chromium wrote no $SHOTS/$name.png"
    return
  fi
  if ! command -v python3 >/dev/null 2>&1; then
    skip "screenshot $name is not blank: python3 is not installed (weasyprint brings it)"
    return
  fi
  # Ink right of the sidebar (17rem = 289 px): a page whose text did not render is one colour there.
  ink=$(python3 "$BOOK_DIR/png-ink.py" "$SHOTS/$name.png" 300)
  if awk -v ink="$ink" 'BEGIN { exit !(ink >= 0.03) }'; then
    pass "screenshot $name is not blank ($ink of the text area is ink): build/book/screenshots/$name.png"
  else
    fail "screenshot $name is not blank" "happened: only $ink of the text area differs from the background"
  fi
}

test_book() {
  local out=$TMP/book page i n prev next
  local -a lessons_md pages
  local LC_COLLATE=C
  lessons_md=("$ROOT"/lessons/*.md)
  if ! command -v weasyprint >/dev/null 2>&1; then
    skip "the real book's PDF: weasyprint is not installed (apt-get install weasyprint)"
    build --format html "$ROOT/lessons" "$out"
    build --format epub "$ROOT/lessons" "$out"
  else
    build "$ROOT/lessons" "$out"
  fi
  if [ "$(build_status)" != 0 ]; then
    fail "renders lessons/*.md into the book" "happened: status $(build_status): $(cat "$TMP/build.err")"
    return
  fi
  pass "renders lessons/*.md into the book"
  expect_contains "says where it wrote the book" "$TMP/build.out" "book: wrote"
  # A lesson's chapter has its lesson's number: lesson 00 is chapter 0, its sections 0.1, 0.2, ...
  expect_contains "numbers lesson 00 as chapter 0 in the contents" "$out/index.html" '<span class="num">0</span> '
  expect_contains "numbers lesson 00's sections 0.1, 0.2, ..." "$out/workbook.html" 'header-section-number">0.1<'

  pages=(index search)
  for i in "${lessons_md[@]}"; do pages+=("$(basename "$i" .md)"); done
  pages+=(facts)
  local absent=""
  for page in "${pages[@]}"; do [ -s "$out/$page.html" ] || absent+=" $page.html"; done
  for page in workbook.html search-index.js book.css book.js; do [ -s "$out/$page" ] || absent+=" $page"; done
  if [ -z "$absent" ]; then pass "writes the index, one page per chapter, the facts and search pages, the one-page edition"
  else fail "writes every page" "missing:$absent"; fi

  test_listings "$out/workbook.html"
  expect_contains "highlights CUDA API calls" "$out/workbook.html" '<span class="fu">cudaMalloc</span>'
  if grep -qE '<(link|script)[^>]+(href|src)="[^d"][^"]*' "$out/workbook.html"; then
    fail "the one-page edition is one file (CSS and script inside)" "happened: $(grep -oE '<(link|script)[^>]+(href|src)="[^d"][^"]*' "$out/workbook.html" | head -n1)"
  else
    pass "the one-page edition is one file (CSS and script inside)"
  fi

  # Sidebar, current chapter open, previous / next, in reading order index, chapters..., facts.
  n=${#pages[@]}
  local bad=""
  for ((i = 2; i < n; i++)); do
    page=${pages[i]}
    prev=${pages[i - 1]}
    [ "$prev" = search ] && prev=index
    next=${pages[i + 1]:-}
    grep -q "<li class=\"current\"><details open><summary><a href=\"$page.html\" aria-current=\"page\">" "$out/$page.html" || bad+=" $page:sidebar"
    [ "$(grep -c '<li[^>]*><details' "$out/$page.html")" = "$((n - 2))" ] || bad+=" $page:contents"
    grep -q "rel=\"prev\" href=\"$prev.html\"" "$out/$page.html" || bad+=" $page:prev"
    if [ -n "$next" ]; then
      grep -q "rel=\"next\" href=\"$next.html\"" "$out/$page.html" || bad+=" $page:next"
    else
      ! grep -q 'rel="next"' "$out/$page.html" || bad+=" $page:next-after-last"
    fi
  done
  if [ -z "$bad" ]; then pass "every chapter page has the whole contents (its chapter open), previous and next"
  else fail "every chapter page has the whole contents (its chapter open), previous and next" "happened:$bad"; fi

  # Unique anchors: in each page, in the one-page edition, and the sections of all pages together.
  bad=""
  for page in "${pages[@]}"; do
    [ -z "$(grep -o ' id="[^"]*"' "$out/$page.html" | sort | uniq -d)" ] || bad+=" $page.html"
  done
  if [ -z "$bad" ]; then pass "no id twice in any page"; else fail "no id twice in any page" "happened: in$bad"; fi
  expect_unique_ids "no id twice in the one-page edition" "$out/workbook.html"
  local headers
  headers=$(for page in "${lessons_md[@]}"; do grep -o '<h[2-4][^>]* id="[^"]*"' "$out/$(basename "$page" .md).html"; done |
    sed 's/.* id="//; s/"$//' | sort | uniq -d | head -n 3)
  if [ -z "$headers" ]; then pass "section anchors are unique across chapters (\"Your task\" of each chapter its own)"
  else fail "section anchors are unique across chapters" "happened: $headers"; fi

  expect_links_resolve "every internal link of the HTML pages resolves" "$out" "${pages[@]/%/.html}"
  expect_links_resolve "every internal link of the one-page edition resolves" "$out" workbook.html

  # The facts appendix: last in every format, from facts/gpu-facts.md with its toolkit and driver.
  local driver_line
  driver_line=$(grep -m1 -i 'driver' "$ROOT/facts/gpu-facts.md" | sed 's/[`*]//g' | cut -c1-60)
  html_text "$out/facts.html" >"$TMP/facts.txt"
  expect_contains "the facts appendix names the toolkit and driver (from facts/gpu-facts.md)" "$TMP/facts.txt" "$driver_line"
  if [ "$(grep -o '<h1[^>]*>.*</h1>' "$out/workbook.html" | tail -n1 | grep -c 'What the H200 measured')" = 1 ]; then
    pass "the one-page edition ends with \"What the H200 measured\""
  else fail "the one-page edition ends with \"What the H200 measured\"" "happened: $(grep -o '<h1[^>]*>.*</h1>' "$out/workbook.html" | tail -n1)"
  fi

  test_search "$out" "${lessons_md[@]}"
  test_epub "$out/workbook.epub" "${lessons_md[@]}"
  test_pdf "$out/workbook.pdf" "${lessons_md[@]}"
  test_browser "$out"
}

# Every listing the chapters include, line for line as its file has it, marker lines left out, in HTML.
test_listings() {
  local html=$1 text=$TMP/listings.txt block file name source line absent
  html_text "$html" >"$text"
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

# The search index: valid JSON after its one assignment, an entry for every chapter, links that resolve.
test_search() {
  local out=$1 title missing=""
  shift
  sed -e '1,/^var BOOK_SEARCH_INDEX = \[$/{/^var/!d}' -e 's/^var BOOK_SEARCH_INDEX = //' -e 's/;$//' \
    "$out/search-index.js" >"$TMP/search.json"
  if ! command -v jq >/dev/null 2>&1; then
    skip "the search index is valid JSON: jq is not installed (apt-get install jq)"
    return
  fi
  if ! jq -e 'length > 0' "$TMP/search.json" >/dev/null 2>&1; then
    fail "the search index is a JSON list of sections" "happened: $(jq . "$TMP/search.json" 2>&1 | head -n 2)"
    return
  fi
  pass "the search index is a JSON list of $(jq length "$TMP/search.json") sections"
  while IFS= read -r title; do
    jq -e --arg t "$title" 'any(.[]; .chapter | endswith($t))' "$TMP/search.json" >/dev/null || missing+=" \"$title\""
  done < <(chapter_titles "$@")
  if [ -z "$missing" ]; then pass "the search index covers every chapter"; else fail "the search index covers every chapter" "missing:$missing"; fi
  jq -r '.[].url' "$TMP/search.json" | sed 's/.*/<a href="&">/' >"$out/.search-links.html"
  expect_links_resolve "every search result links to a page and anchor that exist" "$out" .search-links.html
  rm -f "$out/.search-links.html"
}

test_epub() {
  local epub=$1 dir=$TMP/epub jar=/usr/share/java/epubcheck.jar title missing="" files
  shift
  if [ ! -s "$epub" ]; then
    fail "writes the EPUB" "happened: no $epub"
    return
  fi
  pass "writes the EPUB"
  if ! command -v unzip >/dev/null 2>&1; then
    skip "the EPUB's links: unzip is not installed (apt-get install unzip)"
  else
    rm -rf "$dir" && mkdir -p "$dir" && unzip -q "$epub" -d "$dir"
    mapfile -t files < <(cd "$dir" && find . -name '*.xhtml' | sed 's|^\./||' | LC_ALL=C sort)
    expect_links_resolve "every internal link of the EPUB resolves" "$dir" "${files[@]}"
    local last
    last=$(grep -o 'href="[^"]*xhtml"' "$dir"/EPUB/content.opf | tail -n1 | sed 's/href="//; s/"$//')
    expect_contains "the EPUB's last chapter is \"What the H200 measured\"" "$dir/EPUB/$last" "What the H200 measured"
    cat "$dir"/EPUB/text/*.xhtml >"$TMP/epub.xhtml"
    while IFS= read -r title; do
      grep -qF -- "$title" <(html_text "$TMP/epub.xhtml") || missing+=" \"$title\""
    done < <(chapter_titles "$@")
    if [ -z "$missing" ]; then pass "the EPUB has every chapter"; else fail "the EPUB has every chapter" "missing:$missing"; fi
    if [ -n "$(find "$dir" -name '*.svg' -print -quit)" ] || ! grep -q '<img' "$TMP/epub.xhtml"; then
      pass "the EPUB carries its figures"
    else fail "the EPUB carries its figures" "happened: images but no SVG inside"; fi
  fi
  # Debian's /usr/bin/epubcheck needs binfmt_misc (jarwrapper) to start; run its jar with java instead.
  if ! command -v java >/dev/null 2>&1 || [ ! -f "$jar" ]; then
    skip "epubcheck: not installed (apt-get install epubcheck)"
  elif java -jar "$jar" -q "$epub" >"$TMP/epubcheck.out" 2>&1; then
    pass "epubcheck finds no error or warning"
  else
    fail "epubcheck finds no error or warning" "$(head -n 8 "$TMP/epubcheck.out")"
  fi
}

test_pdf() {
  local pdf=$1 pages title missing=""
  shift
  command -v weasyprint >/dev/null 2>&1 || return 0 # skipped above, saying why
  if ! command -v pdftotext >/dev/null 2>&1; then
    skip "the PDF's pages and text: poppler-utils is not installed (apt-get install poppler-utils)"
    return
  fi
  pages=$(pdfinfo "$pdf" 2>/dev/null | sed -n 's/^Pages: *//p')
  # A chapter starts a page: at least one page per chapter, the appendix and the title.
  if [ "${pages:-0}" -ge $(($# + 2)) ]; then pass "the PDF has $pages pages"; else fail "the PDF has a page per chapter at least" "happened: ${pages:-no} pages"; fi
  pdftotext "$pdf" - | tr -s ' \n\t' ' ' >"$TMP/pdf.txt"
  # Twice: in the contents, and as the chapter's heading.
  while IFS= read -r title; do
    [ "$(grep -oF -- "$title" "$TMP/pdf.txt" | wc -l)" -ge 2 ] || missing+=" \"$title\""
  done < <(chapter_titles "$@"; echo "What the H200 measured")
  if [ -z "$missing" ]; then pass "the PDF's text has every chapter title, in the contents and as a heading"
  else fail "the PDF's text has every chapter title, in the contents and as a heading" "missing:$missing"; fi
  # A macro's continuation backslash stays on its line: a listing wider than the page wraps it onto a
  # line of its own (lesson 07's CHECK_CUDA once printed 15 such lines on one page).
  local lone
  lone=$(pdftotext -layout "$pdf" - | grep -c '^[[:space:]]*\\[[:space:]]*$' || true)
  if [ "$lone" = 0 ]; then pass "no line of the PDF is a lone backslash: continued macros print whole"
  else fail "no line of the PDF is a lone backslash: continued macros print whole" "happened: $lone such lines"; fi
}

# Every figure's text inside its drawing (a title running past the right edge is cut off in every format):
# each SVG of OUT/figures/ loaded in a frame of its own (its own styles), each text's box against its viewBox.
test_figure_text() {
  local out=$1 page f report
  page=$out/figures/.text-check.html
  {
    echo '<!DOCTYPE html><html><body>'
    for f in "$out"/figures/*.svg; do printf '<iframe src="%s" width="760" height="420"></iframe>\n' "$(basename "$f")"; done
    cat <<'CHECK'
<script>
window.addEventListener("load", function () {
  var lines = [], checked = 0;
  document.querySelectorAll("iframe").forEach(function (frame) {
    var svg = frame.contentDocument && frame.contentDocument.documentElement, box;
    if (!svg || !svg.viewBox) return;
    box = svg.viewBox.baseVal;
    checked++;
    svg.querySelectorAll("text").forEach(function (t) {
      var b = t.getBBox();
      if (b.x < box.x - 1 || b.x + b.width > box.x + box.width + 1)
        lines.push(frame.getAttribute("src") + ": \"" + t.textContent.slice(0, 60) + "\" reaches " + Math.round(b.x + b.width) + " of " + box.width);
    });
  });
  var pre = document.createElement("pre");
  pre.id = "layout-report";
  pre.textContent = "\nchecked " + checked + "\n" + lines.join("\n") + "\n";
  document.body.appendChild(pre);
});
</script></body></html>
CHECK
  } >"$page"
  report=$(chromium_run --window-size=1280,900 --dump-dom "file://$page" | sed -n '/id="layout-report"/,/<\/pre>/p' | sed '1d;$d')
  rm -f "$page"
  if [ "$(sed -n 's/^checked //p' <<<"$report")" != "$(find "$out/figures" -name '*.svg' | grep -c .)" ]; then
    fail "every figure's text stays inside its drawing" "happened: not every figure was measured: $(head -n 1 <<<"$report")"
  elif grep -q ' reaches ' <<<"$report"; then
    fail "every figure's text stays inside its drawing" "happened: $(grep ' reaches ' <<<"$report" | head -n 3 | tr '\n' ' ')"
  else
    pass "every figure's text stays inside its drawing ($(sed -n 's/^checked //p' <<<"$report") figures)"
  fi
}

# The layout as Chromium lays it out, and the screenshots a person looks at.
test_browser() {
  local out=$1 page chapter="" report=$TMP/layout
  if ! command -v chromium >/dev/null 2>&1; then
    skip "layout and screenshots: chromium is not installed (apt-get install chromium)"
    return
  fi
  test_figure_text "$out"
  layout_report "$out/workbook.html" 1280 >"$report"
  expect_layout "no listing of the book scrolls sideways, leaves its column or wraps a line, 1280 px wide" "$report" copy nowrap
  layout_report "$out/workbook.html" 700 >"$report"
  expect_layout "no listing of the book scrolls sideways or leaves its column, 700 px wide" "$report"
  # The first chapter with a figure and a listing; the fixture book has one when no lesson does yet.
  for page in "$out"/[0-9]*.html; do
    if grep -q '<img' "$page" && grep -q '<pre' "$page"; then chapter=$page; break; fi
  done
  [ -n "$chapter" ] || chapter=$TMP/fixture-book/01-first.html
  layout_report "$chapter" 1280 >"$report"
  expect_layout "$(basename "$chapter") shows its figure and listings" "$report" figure copy readable contents-open
  # A phone: the chapter first, the contents behind their button, figures still readable (they scroll).
  layout_report "$chapter" 390 >"$report"
  expect_layout "$(basename "$chapter") on a 390 px phone: contents closed, figures readable" "$report" figure readable contents-closed
  layout_report "$out/search.html?q=cudaMemcpy" 1280 >"$report"
  expect_layout "searching for cudaMemcpy finds sections" "$report" results
  expect_screenshot index "$out/index.html" 1280,900
  expect_screenshot chapter "$chapter" 1280,1100 figure
  expect_screenshot chapter-dark "$chapter" 1280,1100 figure dark
  expect_screenshot chapter-phone "$chapter" 390,844 figure
  expect_screenshot chapter-phone-dark "$chapter" 390,844 figure dark
  expect_screenshot search "$out/search.html?q=cudaMemcpy" 1280,900
}

test_fixture_book() {
  local lessons=$TMP/lessons-ok out=$TMP/fixture-book html text=$TMP/ok.txt
  chapter "$lessons" 02-second <<'EOF'
# Second {#second}

```cuda
fill<<<blocks_for(n, 256), 256>>>(d_data, n, 7.0f);
```

## Your task

Back to [the first chapter's task](#first-your-task).
EOF
  chapter "$lessons" 01-first <<EOF
*Rendered: this line is for the raw file only.*

# First {#first}

\`\`\`{.cuda include="kernels/fill.cuh"}
\`\`\`

\`\`\`{.cuda include="$FIXTURE" region="indented"}
\`\`\`

![A fixture figure](figures/fixture.svg)

![A fixture plot](figures/fixture-plot.svg)

## Your task

See [this task](#your-task) and [the second one](#second-your-task).
EOF
  build --format html --figures book/fixtures/figures --plots book/fixtures/plots.sh --facts book/fixtures/facts.md "$lessons" "$out"
  if [ "$(build_status)" != 0 ]; then
    fail "renders fixture chapters" "happened: status $(build_status): $(cat "$TMP/build.err")"
    return
  fi
  pass "renders fixture chapters"
  html=$out/workbook.html
  html_text "$html" >"$text"
  if [ "$(grep -n 'header-section-number">1<' "$html" | grep -c First)" = 1 ] &&
    [ "$(grep -n 'header-section-number">2<' "$html" | grep -c Second)" = 1 ] &&
    grep -q 'header-section-number">2<' "$out/02-second.html"; then
    pass "orders chapters by file name and numbers them 1, 2 (on their pages too)"
  else
    fail "orders chapters by file name and numbers them 1, 2" "happened: $(grep -o '<h1[^>]*>.*</h1>' "$html" | tr '\n' ' ')"
  fi
  expect_contains "the title page says the edition, its source and the day it was built" "$html" \
    "<p class=\"edition-note\">student edition, from "
  expect_absent "leaves out what precedes a chapter's title (the raw file's note)" "$text" "for the raw file only"
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
  # Anchors: each chapter's "Your task" its own, links following them within and across pages.
  expect_contains "prefixes a section's id with its chapter's" "$out/01-first.html" '<h2 data-number="1.1" id="first-your-task">'
  expect_contains "a link to the chapter's own section follows the prefix" "$out/01-first.html" 'href="#first-your-task"'
  expect_contains "a link to another chapter's section goes to its page" "$out/01-first.html" 'href="02-second.html#second-your-task"'
  expect_contains "... and stays on the page in the one-page edition" "$html" 'href="#second-your-task"'
  expect_contains "the sidebar lists the other chapter's sections" "$out/01-first.html" '<a href="02-second.html#second-your-task">'
  # Figures: drawn ones copied, plots made by the plots script, shown from figures/ in every HTML.
  if [ -s "$out/figures/fixture.svg" ] && [ -s "$out/figures/fixture-plot.svg" ]; then
    pass "copies the drawn figures and runs the plots script into figures/"
  else
    fail "copies the drawn figures and runs the plots script into figures/" "happened: $(find "$out/figures" | tr '\n' ' ')"
  fi
  expect_contains "a chapter page shows the figure from figures/" "$out/01-first.html" '<img src="figures/fixture.svg"'
  expect_contains "the one-page edition carries the figure inside" "$html" 'src="data:image/svg+xml'
  expect_links_resolve "every internal link of the fixture pages resolves" "$out" index.html 01-first.html 02-second.html facts.html
  expect_contains "the facts appendix comes from the facts file given" "$out/facts.html" "fixture fact"
  if [ ! -e "$out/solutions.html" ]; then pass "the student edition has no solutions appendix"; else fail "the student edition has no solutions appendix" "happened: $out/solutions.html exists"; fi

  if [ ! -d "$ROOT/solutions" ]; then
    skip "the instructor edition adds the solutions appendix: solutions/ is not in the student release"
    return
  fi
  build --format html --edition instructor --figures book/fixtures/figures --plots book/fixtures/plots.sh --facts book/fixtures/facts.md "$lessons" "$TMP/instructor"
  if [ "$(build_status)" != 0 ] || [ ! -s "$TMP/instructor/solutions.html" ]; then
    fail "the instructor edition adds the solutions appendix" "happened: status $(build_status): $(cat "$TMP/build.err")"
    return
  fi
  local file missing=""
  while IFS= read -r file; do
    grep -qF "<code>$file</code>" "$TMP/instructor/solutions.html" || missing+=" $file"
  done < <(cd "$ROOT" && find solutions -type f | LC_ALL=C sort)
  if [ -z "$missing" ]; then pass "the instructor edition shows every file of solutions/, before the facts appendix"; else fail "the instructor edition shows every file of solutions/" "missing:$missing"; fi
  grep -q 'rel="next" href="facts.html"' "$TMP/instructor/solutions.html" ||
    fail "the solutions come before the facts appendix" "happened: $(grep -o 'rel="next"[^>]*' "$TMP/instructor/solutions.html")"
}

# One chapter whose only listing is broken: the build must fail and name the chapter, the file and the region.
broken_chapter() {
  local name=$1 include=$2
  shift 2
  local lessons=$TMP/lessons-$name out=$TMP/out-$name
  chapter "$lessons" 01-fine <<<'# Fine {#fine}'
  chapter "$lessons" "02-$name" <<EOF
# Broken {#broken}

\`\`\`{.cuda $include}
\`\`\`
EOF
  build --format html --plots none "$lessons" "$out"
  expect_build_failure "fails on $name, naming the chapter and $*" "$out/index.html" "$lessons/02-$name.md" "$@"
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

  build --format html "$TMP/no-such-dir" "$TMP/none"
  expect_build_failure "fails on a missing lessons directory" "$TMP/none/index.html" "$TMP/no-such-dir"
  chapter "$TMP/lessons-untitled" 01-untitled <<<'No title here.'
  build --format html --plots none "$TMP/lessons-untitled" "$TMP/untitled"
  expect_build_failure "fails on a chapter without a title" "$TMP/untitled/index.html" "01-untitled" "no title"
  printf '#!/bin/sh\necho "no data" >&2\nexit 1\n' >"$TMP/failing-plots.sh"
  chmod +x "$TMP/failing-plots.sh"
  chapter "$TMP/lessons-plots" 01-fine <<<'# Fine {#fine}'
  build --format html --plots "$TMP/failing-plots.sh" "$TMP/lessons-plots" "$TMP/plots-failed"
  expect_build_failure "fails when the plots script fails, naming it" "$TMP/plots-failed/index.html" "failing-plots.sh failed"
  build --format docx "$ROOT/lessons" "$TMP/docx"
  expect_build_failure "fails on an unknown FORMAT, naming the ones it knows" "$TMP/docx/index.html" "all, html, epub or pdf"
}

test_shellcheck() {
  if ! command -v shellcheck >/dev/null 2>&1; then
    skip "shellcheck: not installed (apt-get install shellcheck)"
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
  test_fixture_book
  test_book
  test_failures
  test_shellcheck
  printf '%d passed, %d failed, %d skipped\n' "$PASSED" "$FAILED" "$SKIPPED"
  [ "$FAILED" = 0 ]
}

main "$@"
