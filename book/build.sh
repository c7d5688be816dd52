#!/usr/bin/env bash
# Renders the chapters lessons/*.md into the book: HTML pages, a one-page HTML, EPUB and PDF (`make book`).
#
#   book/build.sh [--format all|html|epub|pdf] [--edition student|instructor] [--figures DIR]
#                 [--facts FILE] [--plots SCRIPT|none] [--worktree] [LESSONS_DIR] [OUTDIR]
#
# LESSONS_DIR defaults to lessons/, OUTDIR to build/book/ (build/book-instructor/ for the instructor
# edition, which adds every file of solutions/ as an appendix). The last chapter of every format is
# "What the H200 measured", made from facts/gpu-facts.md. Figures are book/figures/*.svg and what
# book/plots.sh writes (it runs first, when it is executable). Listings are included from the real files
# by book/include-code.lua; a missing file or region fails the build, naming the chapter, the file and
# the region. Needs pandoc 2.17 or later, and WeasyPrint for the PDF.
#
# What the book renders (the chapters, the files they include, the figures, the facts, the plots' data, and
# the instructor's solutions) is read from the committed tree, as make dist ships it
# (grader/course/copy-release.sh: HEAD's files; in the student release, its pristine copy), so that solved
# exercises or notes in the working tree never reach a book handed out; a path inside the repository (LESSONS_DIR,
# --figures, --facts) is read from there too. The build itself (book/'s filters, templates, style, plots
# script) runs as it is. --worktree renders the working tree instead: an author's preview, not for release.
set -euo pipefail

BOOK_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BOOK_DIR/.." && pwd)

die() {
  printf 'book: %s\n' "$*" >&2
  exit 1
}

usage() {
  sed -n '4,5s/^# *//p' "${BASH_SOURCE[0]}" >&2
  exit 2
}

# Fails with the install command when TOOL (from Debian package PACKAGE) is missing.
require() {
  command -v "$1" >/dev/null 2>&1 ||
    die "$1 is not installed: run 'apt-get install $2' (as root), or grader/setup.sh --book, then try again"
}

# PATH made absolute, then relative to the repository root when it lies inside it (shorter messages).
from_root() {
  local path
  path=$(realpath -m -- "$1")
  printf '%s\n' "${path#"$ROOT"/}"
}

# " in commit 1a2b3c4" (where the files were staged from) for a PATH read from there: one relative to the root.
in_source() {
  case $1 in /*) ;; *) printf ' in %s' "$from" ;; esac
}

# Runs pandoc; on failure shows the filters' own messages ("book: ...") without pandoc's Lua stack trace.
run_pandoc() {
  local what=$1 log
  shift
  log=$(mktemp "$WORK/pandoc.XXXXXX")
  if pandoc "$@" 2>"$log"; then
    cat "$log" >&2
    return 0
  fi
  if grep -q '^book: ' "$log"; then grep '^book: ' "$log" >&2; else cat "$log" >&2; fi
  die "$what failed to render"
}

# Renders one chapter (Markdown) to pandoc's JSON: listings included, anchors prefixed by the chapter's id.
# One run per chapter, so that an include error names the chapter it is in.
render_chapter() {
  local chapter=$1 page=$2 json=$3
  shift 3
  local -a filters=(--lua-filter "$BOOK_DIR/include-code.lua")
  # book/facts.lua (the chapters' helper may add it): numbers quoted from the data files in facts/.
  [ ! -f "$BOOK_DIR/facts.lua" ] || filters+=(--lua-filter "$BOOK_DIR/facts.lua")
  run_pandoc "chapter $chapter" "$chapter" --from markdown --to json "${filters[@]}" \
    --lua-filter "$BOOK_DIR/chapter.lua" --metadata page="$page" "$@" --output "$json"
}

# The facts appendix: facts/gpu-facts.md under the title "What the H200 measured", its comment left out.
# FACTS is named as from_root names it.
facts_chapter() {
  local facts=$1
  printf '# What the H200 measured {#facts}\n\n'
  # shellcheck disable=SC2016 # backticks are Markdown
  printf '*This appendix is `%s`, the project'"'"'s record of what the GPU did; the lessons, the graders and the CPU backend rely on it.*\n\n' "$facts"
  # Drop the leading HTML comment and the file's own title.
  awk 'NR == 1 && /^<!--/ { skip = 1 } skip { if (/-->/) skip = 0; next } /^# / && !titled { titled = 1; next } { print }' "$facts"
}

# The instructor's appendix: every file of solutions/NN-slug/, whole.
solutions_chapter() {
  local dir file lang
  printf '# Solutions {#solutions}\n\n'
  # shellcheck disable=SC2016 # backticks are Markdown
  printf '*Instructor edition: the reference solutions, file by file, as `make check SUBMISSION=solutions` grades them.*\n\n'
  for dir in solutions/*/; do
    printf '## %s\n\n' "$(basename "$dir")"
    while IFS= read -r file; do
      case $file in
        *.cu | *.cuh) lang=cuda ;;
        *.c | *.h) lang=c ;;
        *.sh) lang=bash ;;
        *Makefile | *.mk) lang=makefile ;;
        *) lang=text ;;
      esac
      # shellcheck disable=SC2016 # backticks are Markdown
      printf '```{.%s include="%s"}\n```\n\n' "$lang" "$file"
    done < <(find "$dir" -type f | LC_ALL=C sort)
  done
}

# Runs the plots script (book/plots.sh: plots drawn from the measured data) into OUTDIR/figures, then
# copies the drawn figures there.
figures() {
  local figures_dir=$1 plots=$2
  rm -rf "$OUT/figures"
  mkdir -p "$OUT/figures"
  if [ "$plots" != none ] && [ -x "$plots" ]; then
    "$plots" "$OUT/figures" || die "$(from_root "$plots") failed"
  elif [ "$plots" != none ] && [ "$plots" != "$BOOK_DIR/plots.sh" ]; then
    die "no executable plots script $(from_root "$plots")" # only book/plots.sh may be absent
  fi
  if [ -d "$figures_dir" ]; then
    find "$figures_dir" -maxdepth 1 -name '*.svg' -exec cp -- {} "$OUT/figures/" \;
  fi
}

# Options every HTML and EPUB rendering of the whole book shares.
common() {
  # --wrap=none: one tag per line start, so that tests (and readers of the source) find attributes by grep.
  printf '%s\n' --from json --metadata-file "$BOOK_DIR/metadata.yaml" --wrap=none \
    --syntax-definition "$BOOK_DIR/cuda.xml" --resource-path "$OUT:$BOOK_SOURCE" \
    --lua-filter "$BOOK_DIR/pages.lua" --metadata "editions=$EDITIONS" \
    --metadata "edition-note=$EDITION_NOTE" --metadata "date=$BUILT_ON"
}

# One page of the HTML book: MODE page (with PAGE), index or search; then pandoc's options, if any.
# pages.lua numbers the sections itself: pandoc 2.17's --number-offset drops every header's id.
html_page() {
  local mode=$1 page=$2 file=$2.html
  shift 2
  local -a opts
  mapfile -t opts < <(common)
  run_pandoc "page $file" "$WORK/book.json" "${opts[@]}" --to html5 --standalone \
    --template "$BOOK_DIR/page.html" --metadata mode="$mode" --metadata page="$page" "$@" --output "$OUT/$file"
}

html_pages() {
  local page
  local -a jobs=()
  html_page index index & jobs+=($!)
  html_page search search --metadata search-out="$OUT/search-index.js" & jobs+=($!)
  for page in "${PAGES[@]}"; do
    html_page page "$page" & jobs+=($!)
  done
  wait_all "${jobs[@]}"
}

# Waits for every job PID; fails if one did (each has said why).
wait_all() {
  local pid failed=0
  for pid in "$@"; do
    wait "$pid" || failed=1
  done
  [ "$failed" = 0 ] || die "the book was not written completely"
}

# The one-page edition, one file with the CSS, script and figures inside (also what the PDF is printed from).
one_page() {
  local output=$1
  local -a opts
  mapfile -t opts < <(common)
  run_pandoc "the one-page edition" "$WORK/book.json" "${opts[@]}" --to html5 --standalone --self-contained \
    --template "$BOOK_DIR/page.html" --metadata mode=one --metadata one-page=true --output "$output"
}

epub() {
  local -a opts
  mapfile -t opts < <(common)
  run_pandoc "the EPUB" "$WORK/book.json" "${opts[@]}" --to epub3 --metadata mode=epub \
    --css "$BOOK_DIR/epub.css" --toc-depth 2 --output "$OUT/workbook.epub"
}

pdf() {
  local html=$1
  weasyprint --quiet "$html" "$OUT/workbook.pdf" 2>"$WORK/weasyprint.log" ||
    { cat "$WORK/weasyprint.log" >&2; die "WeasyPrint could not print $html"; }
}

main() {
  local format=all edition=student figures_dir=$ROOT/book/figures facts=$ROOT/facts/gpu-facts.md plots=$ROOT/book/plots.sh
  local worktree=0 from
  local -a args=()
  while [ $# -gt 0 ]; do
    case $1 in
      --format) format=${2:-}; shift 2 ;;
      --edition) edition=${2:-}; shift 2 ;;
      --figures) figures_dir=$(realpath -m -- "${2:-}"); shift 2 ;;
      --facts) facts=$(realpath -m -- "${2:-}"); shift 2 ;;
      --plots) plots=${2:-}; [ "$plots" = none ] || plots=$(realpath -m -- "$plots"); shift 2 ;;
      --worktree) worktree=1; shift ;;
      -h | --help) usage ;;
      -*) usage ;;
      *) args+=("$1"); shift ;;
    esac
  done
  [ "${#args[@]}" -le 2 ] || usage
  case $format in all | html | epub | pdf) ;; *) die "FORMAT must be all, html, epub or pdf (not '$format')" ;; esac
  case $edition in student | instructor) ;; *) die "EDITION must be student or instructor (not '$edition')" ;; esac
  local default_out=$ROOT/build/book
  [ "$edition" = student ] || default_out=$ROOT/build/book-instructor
  local lessons_dir
  # Paths inside the repository become relative to it: read below from the staged tree.
  lessons_dir=$(from_root "${args[0]:-$ROOT/lessons}")
  figures_dir=$(from_root "$figures_dir")
  facts=$(from_root "$facts")
  OUT=$(realpath -m -- "${args[1]:-$default_out}")

  require pandoc pandoc
  case $format in all | pdf) require weasyprint weasyprint ;; esac
  WORK=$(mktemp -d)
  # shellcheck disable=SC2064 # expand $WORK now
  trap "rm -rf '$WORK'" EXIT
  if [ "$worktree" = 1 ]; then
    BOOK_SOURCE=$ROOT from="the working tree (--worktree: a preview, not for release)"
  else
    BOOK_SOURCE=$WORK/tree
    local -a stage=("$ROOT/grader/course/copy-release.sh" --content)
    [ "$edition" = student ] || stage+=(--solutions)
    from=$("${stage[@]}" "$BOOK_SOURCE") || die "could not stage the committed files to render"
  fi
  # The title page says which edition, from what and when (a printed copy must tell its version).
  BUILT_ON=$(date -u +%Y-%m-%d)
  EDITION_NOTE="$edition edition, from $from, built on $BUILT_ON"
  # include-code.lua and book/plots.sh read the files from there too.
  export BOOK_SOURCE
  cd "$BOOK_SOURCE"
  [ -d "$lessons_dir" ] || die "no lessons directory $lessons_dir$(in_source "$lessons_dir")"
  [ -f "$facts" ] || die "no facts file $facts$(in_source "$facts") (the appendix \"What the H200 measured\" is made from it)"
  local LC_COLLATE=C
  local -a chapters=() parts=()
  shopt -s nullglob
  chapters=("$lessons_dir"/*.md)
  shopt -u nullglob
  [ "${#chapters[@]}" -gt 0 ] || die "no chapters (*.md) in $lessons_dir"

  PAGES=()
  local chapter page
  local -a jobs=()
  for chapter in "${chapters[@]}"; do
    page=$(basename "$chapter" .md)
    render_chapter "$chapter" "$page" "$WORK/$page.json" & jobs+=($!)
    PAGES+=("$page")
    parts+=("$WORK/$page.json")
  done
  if [ "$edition" = instructor ]; then
    solutions_chapter >"$WORK/solutions.md"
    render_chapter "$WORK/solutions.md" solutions "$WORK/solutions.json" --metadata appendix=true & jobs+=($!)
    PAGES+=(solutions)
    parts+=("$WORK/solutions.json")
  fi
  facts_chapter "$facts" >"$WORK/facts.md"
  render_chapter "$WORK/facts.md" facts "$WORK/facts.json" --metadata appendix=true & jobs+=($!)
  PAGES+=(facts)
  parts+=("$WORK/facts.json")
  wait_all "${jobs[@]}"
  run_pandoc "the book" "${parts[@]}" --from json --to json --output "$WORK/book.json"

  # The sidebar links the other editions this build writes.
  case $format in all) EDITIONS="epub pdf" ;; html) EDITIONS="" ;; *) EDITIONS=$format ;; esac
  mkdir -p "$OUT"
  figures "$figures_dir" "$plots"
  # The pages link the style and script; the one-page edition takes them in.
  cp "$BOOK_DIR/book.css" "$BOOK_DIR/book.js" "$OUT/"
  # Stale pages of a renamed chapter would stay linked from nowhere: an HTML build starts clean.
  case $format in all | html) rm -f "$OUT"/*.html ;; esac
  # The formats are independent once the book is one document: render them side by side.
  jobs=()
  case $format in all | pdf | html)
    {
      one_page "$OUT/workbook.html"
      case $format in all | pdf) pdf "$OUT/workbook.html" ;; esac
    } & jobs+=($!) ;;
  esac
  case $format in all | epub) epub & jobs+=($!) ;; esac
  case $format in all | html) html_pages & jobs+=($!) ;; esac
  wait_all "${jobs[@]}"
  local -a wrote=()
  case $format in all | html) wrote+=("index.html (start there)" workbook.html) ;; esac
  case $format in pdf) wrote+=(workbook.html) ;; esac
  case $format in all | epub) wrote+=(workbook.epub) ;; esac
  case $format in all | pdf) wrote+=(workbook.pdf) ;; esac
  printf 'book: wrote %s: %s (%s edition, %d chapters and the appendix, from %s)\n' \
    "$(from_root "$OUT")/" "$(printf '%s, ' "${wrote[@]}" | sed 's/, $//')" "$edition" "${#chapters[@]}" "$from"
}

main "$@"
