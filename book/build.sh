#!/usr/bin/env bash
# Renders the chapters lessons/*.md into one standalone HTML book (what `make book` runs).
#
#   book/build.sh [LESSONS_DIR] [OUTPUT]
#
# LESSONS_DIR defaults to lessons/ and OUTPUT to build/book/workbook.html, both under the repository
# root. Code listings are included from the real files by book/include-code.lua, with paths relative to
# the repository root whatever LESSONS_DIR is; a missing file or region fails the build and names the
# chapter, the file and the region. Needs pandoc 2.17 or later.
set -euo pipefail

BOOK_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BOOK_DIR/.." && pwd)

die() {
  printf 'book: %s\n' "$*" >&2
  exit 1
}

# Fails with the install command when pandoc is missing.
require_pandoc() {
  command -v pandoc >/dev/null 2>&1 ||
    die "pandoc is not installed: run 'apt-get install pandoc' (as root), then try again"
}

# Renders one chapter to pandoc's JSON, its listings included. One run per chapter, so that an include
# error can name the chapter it is in. The filter's own message ("book: ...") is shown without the Lua
# stack trace pandoc adds to it; any other message from pandoc is shown whole.
render_chapter() {
  local chapter=$1 json=$2 log=$3
  if pandoc "$chapter" --from markdown --to json \
    --lua-filter "$BOOK_DIR/include-code.lua" --output "$json" 2>"$log"; then
    cat "$log" >&2
    return 0
  fi
  if grep -q '^book: ' "$log"; then
    grep '^book: ' "$log" >&2
  else
    cat "$log" >&2
  fi
  die "chapter $chapter failed to render"
}

# Joins the chapters' JSON, in order, into one standalone HTML file.
render_book() {
  local output=$1 lessons_dir=$2
  shift 2
  pandoc "$@" --from json --to html5 --standalone --self-contained \
    --metadata-file "$BOOK_DIR/metadata.yaml" \
    --toc --toc-depth 2 --number-sections \
    --syntax-definition "$BOOK_DIR/cuda.xml" --highlight-style pygments \
    --css "$BOOK_DIR/book.css" \
    --resource-path "$lessons_dir:$ROOT" \
    --output "$output"
}

# PATH made absolute, then relative to the repository root when it lies inside it (shorter messages).
from_root() {
  local path
  path=$(realpath -m -- "$1")
  printf '%s\n' "${path#"$ROOT"/}"
}

main() {
  local lessons_dir output work chapter json
  lessons_dir=$(from_root "${1:-$ROOT/lessons}")
  output=$(from_root "${2:-$ROOT/build/book/workbook.html}")
  cd "$ROOT"
  local -a chapters=() parts=()

  require_pandoc
  [ -d "$lessons_dir" ] || die "no lessons directory $lessons_dir"
  # Name order is lesson order: 01-..., 02-..., sorted bytewise whatever the locale.
  local LC_COLLATE=C
  shopt -s nullglob
  chapters=("$lessons_dir"/*.md)
  shopt -u nullglob
  [ "${#chapters[@]}" -gt 0 ] || die "no chapters (*.md) in $lessons_dir"

  work=$(mktemp -d)
  # shellcheck disable=SC2064 # expand $work now: it is local to main
  trap "rm -rf '$work'" EXIT
  for chapter in "${chapters[@]}"; do
    json="$work/$(basename "$chapter" .md).json"
    render_chapter "$chapter" "$json" "$work/pandoc.log"
    parts+=("$json")
  done

  mkdir -p "$(dirname "$output")"
  render_book "$output" "$lessons_dir" "${parts[@]}" || die "pandoc could not write $output"
  printf 'book: wrote %s (%d chapter%s)\n' "$(realpath -- "$output")" "${#chapters[@]}" "$([ "${#chapters[@]}" -eq 1 ] || echo s)"
}

main "$@"
