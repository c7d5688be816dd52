#!/usr/bin/env bash
# Draws the book's plots as SVG from the H200's measured numbers in facts/measured/*.tsv (their one source).
#
#   book/plots.sh OUTDIR      writes OUTDIR/plot-NAME.svg for each plot; chapters show them as figures/plot-NAME.svg
#
# Plain awk, no plotting package: horizontal bars, one per measured row, with the value as the chapters
# write it. Colours and text follow the hand-drawn figures (book/figures/): transparent, and readable in
# light and dark themes.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# book/build.sh renders from the committed tree, staged in BOOK_SOURCE: the data is read from there.
DATA=${BOOK_SOURCE:-$ROOT}/facts/measured

die() {
  printf 'plots: %s\n' "$*" >&2
  exit 1
}

# rows TSV: the data rows of a measured file (comments and the header line left out).
rows() {
  grep -v '^#' "$1" | tail -n +2
}

# bars TITLE UNIT NOTE [BASE] < "label<TAB>value as written<TAB>class" lines: the SVG of a horizontal bar chart.
# A value "low–high" draws a bar to high with a tick at low; "≤ x" and "1,234" are read as numbers. BASE: where
# the bars start (a ratio's 1: bars from 0 would make 1.00x and 1.14x look alike), marked on the axis.
bars() {
  awk -F '\t' -v title="$1" -v unit="$2" -v note="$3" -v base="${4:-0}" '
    function num(s) { gsub(/[,≤ ]/, "", s); return s + 0 }
    function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); return s }
    { label[NR] = $1; shown[NR] = $2; class[NR] = $3
      n = split($2, part, "–"); low[NR] = num(part[1]); high[NR] = num(part[n])
      if (high[NR] > max) max = high[NR] }
    END {
      left = 380; width = 260; row = 28; top = 44; h = top + NR * row + 40
      printf "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 720 %d\" width=\"720\" height=\"%d\" role=\"img\" aria-labelledby=\"t\">\n", h, h
      printf "  <title id=\"t\">%s</title>\n", esc(title)
      print "  <!-- Made by book/plots.sh from facts/measured/: edit the data, not this file. -->"
      print "  <style>"
      print "    text { font-size: 13px; font-family: \"Liberation Sans\", Arial, Helvetica, sans-serif; fill: #24292f; } .title { font-weight: bold; font-size: 14px; }"
      print "    .axis { stroke: #24292f; stroke-width: 1; } .tick { stroke: #24292f; stroke-width: 2; }"
      print "    .a { fill: #4c8bf5; fill-opacity: .55; } .b { fill: #f0a020; fill-opacity: .6; } .c { fill: #2ea043; fill-opacity: .55; }"
      print "    @media (prefers-color-scheme: dark) { text { fill: #e6edf3; } .axis, .tick { stroke: #e6edf3; } }"
      print "  </style>"
      printf "  <text class=\"title\" x=\"10\" y=\"22\">%s</text>\n", esc(title)
      # From a base, the scale ends at the next half unit above it (1.5x for 1.14x), marked too: bars that
      # filled the width would make a 14 % gain look like a doubling.
      if (base != 0) max = base + 0.5 * int((max - base) / 0.5 + 0.999)
      span = max - base
      for (i = 1; i <= NR; i++) {
        y = top + (i - 1) * row
        w = span > 0 ? (high[i] - base) / span * width : 0
        if (w < 2) w = 2
        printf "  <text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", left - 8, y + 17, esc(label[i])
        printf "  <rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>\n", class[i], left, y + 4, w, row - 8
        if (low[i] != high[i])
          printf "  <path class=\"tick\" d=\"M%.1f,%d L%.1f,%d\"/>\n", left + (low[i] - base) / span * width, y + 2, left + (low[i] - base) / span * width, y + row - 2
        printf "  <text x=\"%.1f\" y=\"%d\">%s %s</text>\n", left + w + 6, y + 17, esc(shown[i]), unit
      }
      printf "  <path class=\"axis\" d=\"M%d,%d L%d,%d\"/>\n", left, top, left, top + NR * row
      if (base != 0) {
        printf "  <text x=\"%d\" y=\"%d\" text-anchor=\"middle\" style=\"font-size: 12px\">%s%s (no gain)</text>\n", left, top - 4, base, unit
        printf "  <path class=\"axis\" stroke-dasharray=\"3,3\" d=\"M%d,%d L%d,%d\"/>\n", left + width, top, left + width, top + NR * row
        printf "  <text x=\"%d\" y=\"%d\" text-anchor=\"middle\" style=\"font-size: 12px\">%s%s</text>\n", left + width, top - 4, max, unit
      }
      printf "  <text x=\"10\" y=\"%d\" style=\"font-size: 12px\">%s</text>\n", top + NR * row + 24, esc(note)
      print "</svg>"
    }'
}

# The measured files' common header says where the numbers come from; every plot says so too.
source_note() {
  printf 'Measured on an NVIDIA H200, CUDA 13.0, driver 580.159: facts/measured/%s' "$1"
}

main() {
  [ $# -eq 1 ] || die "usage: book/plots.sh OUTDIR"
  local out=$1
  mkdir -p "$out"

  rows "$DATA/copy-bandwidth.tsv" | awk -F '\t' '$2 != "device" { print $1 ", " $2 "\t" $3 "\t" ($2 == "pinned" ? "c" : "b") }' |
    bars "Copies between host and device memory (1 GiB, cudaMemcpy)" "GB/s" "$(source_note copy-bandwidth.tsv)" \
      >"$out/plot-copy-bandwidth.svg"

  rows "$DATA/unified-memory.tsv" | awk -F '\t' '{ print $1 "\t" $3 "\t" ($2 == "in" ? "a" : "b") }' |
    bars "1 GiB of managed memory: first touch, prefetch, and the way back" "ms" "$(source_note unified-memory.tsv)" \
      >"$out/plot-unified-memory.svg"

  # A row of n floats is 4n bytes, and the pitch the next multiple of 512 bytes (facts/gpu-facts.md).
  rows "$DATA/pitch.tsv" |
    awk -F '\t' '{ b = 4 * $1; pad = (512 - b % 512) % 512; print "rows of " $1 " floats, " pad " bytes of padding\t" $2 "\tc" }' |
    bars "Pitched against flat: how many times faster a 2-D kernel ran" "x" "$(source_note pitch.tsv)" 1 \
      >"$out/plot-pitch.svg"

  rows "$DATA/blocking-calls.tsv" | awk -F '\t' '{ print $1 "\t" ($2 == "yes" ? $3 : "≤ " $3) "\t" ($2 == "yes" ? "b" : "c") }' |
    bars "How long each call took while a 200 ms kernel ran" "ms" "$(source_note blocking-calls.tsv)" \
      >"$out/plot-blocking-calls.svg"
}

main "$@"
