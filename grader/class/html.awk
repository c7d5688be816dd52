# html.awk: class.html, one self-contained page (inline CSS, SVG drawn from the data, no network): the
# distribution of the totals, each step's pass rate, the students by total with links to their reports,
# and the steps not graded here. Every name is HTML-escaped (escape.awk's xml()).
#   WB_CLASS_TITLE=TEXT awk -f escape.awk -f html.awk class.tsv >class.html
BEGIN { FS = "\t"; title = ENVIRON["WB_CLASS_TITLE"] }
{
  if (!($1 in seen)) { seen[$1] = 1; ns++; stu[ns] = $1; nm[$1] = unesc($2) }
  if (!(($3, $4) in cseen)) { cseen[$3, $4] = 1; nc++; col[nc] = $3 SUBSEP $4; cname[nc] = substr($3, 1, 2) " step " $4 ": " unesc($5); here[nc] = $10 }
  tot[$1] += $7; max[$1] += $8
  if ($6 == "not-graded") ng[$1] = 1
  if ($6 == "passed") pass[$3, $4]++
}
END {
  print "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" xml(title) "</title>"
  print "<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:60em;color:#222}"
  print "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;border-bottom:1px solid #ddd}"
  print "td.n{text-align:right}svg text{font:11px sans-serif}.bar{fill:#4a7bd0}.bar.off{fill:#bbb}.ng{color:#a33}</style></head><body>"
  print "<h1>" xml(title) "</h1>"
  # The histogram: totals as a share of the maximum, in ten bins.
  m = 0; for (s = 1; s <= ns; s++) if (max[stu[s]] > m) m = max[stu[s]]
  for (b = 0; b < 10; b++) bin[b] = 0
  for (s = 1; s <= ns; s++) { b = (m > 0) ? int(10 * tot[stu[s]] / m) : 0; if (b > 9) b = 9; bin[b]++ }
  top = 1; for (b = 0; b < 10; b++) if (bin[b] > top) top = bin[b]
  print "<h2>Totals (" ns " students, out of " m " points)</h2>"
  print "<svg width=\"540\" height=\"200\" viewBox=\"0 0 540 200\" role=\"img\" aria-label=\"histogram of totals\">"
  # A bar per bin between its edges (the last one holds 100%), the count above it, the edges below the axis.
  for (b = 0; b < 10; b++) {
    h = int(150 * bin[b] / top); x = 23 + 50 * b
    printf "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"44\" height=\"%d\"><title>%d%% to %s%d%%: %d</title></rect>", x, 170 - h, h, 10 * b, (b == 9 ? "" : "under "), 10 * b + 10, bin[b]
    printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x + 22, 165 - h, bin[b]
  }
  print "<line x1=\"20\" y1=\"170.5\" x2=\"520\" y2=\"170.5\" stroke=\"#888\"/>"
  for (b = 0; b <= 10; b++) printf "<text x=\"%d\" y=\"186\" text-anchor=\"middle\">%d%%</text>", 20 + 50 * b, 10 * b
  print "\n</svg>"
  # Each step's pass rate, a bar each.
  print "<h2>Pass rate per step</h2>"
  printf "<svg width=\"720\" height=\"%d\" viewBox=\"0 0 720 %d\" role=\"img\" aria-label=\"pass rate per step\">\n", 18 * nc + 10, 18 * nc + 10
  for (c = 1; c <= nc; c++) {
    r = (ns > 0) ? pass[col[c]] / ns : 0; y = 18 * (c - 1) + 4
    # A long name is cut at a word, with an ellipsis; the whole name is its tooltip.
    label = cname[c]
    if (length(label) > 56) { label = substr(label, 1, 55); sub(/[ ,:;]*[^ ]*$/, "", label); label = label "\342\200\246" }
    printf "<text x=\"0\" y=\"%d\"><title>%s</title>%s</text><rect class=\"%s\" x=\"330\" y=\"%d\" width=\"%d\" height=\"13\"/><text x=\"%d\" y=\"%d\">%d%%%s</text>\n",
      y + 11, xml(cname[c]), xml(label), here[c] ? "bar" : "bar off", y, int(300 * r), 336 + int(300 * r), y + 11, int(100 * r + 0.5), here[c] ? "" : " (not graded here)"
  }
  print "</svg>"
  # The students, highest total first (a stable insertion sort: ties keep the class's order).
  for (s = 1; s <= ns; s++) ord[s] = stu[s]
  for (i = 2; i <= ns; i++) { v = ord[i]; for (j = i - 1; j >= 1 && tot[ord[j]] < tot[v]; j--) ord[j + 1] = ord[j]; ord[j + 1] = v }
  print "<h2>Students</h2>\n<table><tr><th>student</th><th>total</th><th>maximum</th><th>report</th></tr>"
  for (i = 1; i <= ns; i++) {
    f = ord[i]
    printf "<tr><td>%s%s</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td><a href=\"%s/report.txt\">report.txt</a></td></tr>\n",
      xml(nm[f]), (f in ng) ? " <span class=\"ng\">(not graded)</span>" : "", tot[f], max[f], xml(f)
  }
  print "</table>"
  out = ""; for (c = 1; c <= nc; c++) if (!here[c]) out = out "<li>" xml(cname[c]) "</li>"
  if (out != "") print "<h2>Not graded here</h2><p>In no one's maximum:</p><ul>" out "</ul>"
  # Entries that hold no lesson: not students, in no statistic above (merge.sh).
  apart = ENVIRON["WB_CLASS_APART"]; out = ""
  if (apart != "") while ((getline line < apart) > 0) { split(line, a, "\t"); out = out "<li>" xml(unesc(a[2])) ": " xml(unesc(a[3])) "</li>" }
  if (out != "") print "<h2>Not submissions</h2><p>Entries of the class that hold no lesson, counted nowhere above:</p><ul>" out "</ul>"
  # Submissions that are the same once comments, layout and names are set aside (merge.sh, similar.tsv).
  similar = ENVIRON["WB_CLASS_SIMILAR"]; out = ""
  if (similar != "") while ((getline line < similar) > 0) {
    split(line, a, "\t")
    out = out "<li>" xml(a[1]) ", " a[3] " students, " a[2] " tokens of their own: " xml(unesc(a[4])) (a[5] == "solution" ? " (the same as the reference solution)" : "") "</li>"
  }
  if (out != "") print "<h2>Identical submissions</h2><p>The same code once comments, layout and names are set aside (lines of the skeleton do not count). In a short lesson the right answer can be the same by itself: read them before you conclude.</p><ul>" out "</ul>"
  print "</body></html>"
}
