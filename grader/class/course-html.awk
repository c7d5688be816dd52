# course-html.awk: course.html, a class's course page from course.tsv (course.awk): one row per student, one
# column per lesson (points out of the maximum, a link to the report of the run that graded it, "not graded"
# where none did), the total; under them each lesson's mean and how many students got every point.
# Self-contained (inline CSS, no network); names HTML-escaped (escape.awk's xml()).
#   WB_CLASS_TITLE=TEXT awk -f escape.awk -f course-html.awk course.tsv >course.html
BEGIN { FS = "\t"; title = ENVIRON["WB_CLASS_TITLE"] }
{
  if (!($2 in seen)) { seen[$2] = 1; ns++; stu[ns] = $2 }
  if (!($3 in lseen)) { lseen[$3] = 1; nl++; les[nl] = $3 }
  got[$2, $3] += $7; max[$2, $3] += $8; tot[$2] += $7; all[$2] += $8
  if ($6 == "not-graded") ng[$2, $3] = 1
  if ($1 != "") dir[$2, $3] = $1
}
END {
  print "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>" xml(title) "</title>"
  print "<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse}"
  print "td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}td:first-child,th:first-child{text-align:left}"
  print ".full{color:#161}.ng{color:#a33}tfoot td{font-weight:600}</style></head><body>"
  print "<h1>" xml(title) "</h1>\n<p>" ns " students; each lesson's points are from the latest run that graded it.</p>"
  printf "<table><thead><tr><th>student</th>"
  for (l = 1; l <= nl; l++) printf "<th>%s</th>", xml(les[l])
  print "<th>total</th><th>maximum</th></tr></thead><tbody>"
  for (s = 1; s <= ns; s++) {
    n = stu[s]; printf "<tr><td>%s</td>", xml(unesc(n))
    for (l = 1; l <= nl; l++) {
      k = n SUBSEP les[l]
      if (!(k in dir)) { printf "<td class=\"ng\">not graded</td>"; continue }
      cls = (k in ng) ? "ng" : (got[k] == max[k] ? "full" : "")
      printf "<td class=\"%s\"><a href=\"%s/report.txt\">%d/%d</a></td>", cls, xml(dir[k]), got[k], max[k]
      mean[les[l]] += got[k]; if (got[k] == max[k] && !(k in ng)) full[les[l]]++
    }
    printf "<td>%d</td><td>%d</td></tr>\n", tot[n], all[n]
  }
  printf "</tbody><tfoot><tr><td>mean; every point</td>"
  for (l = 1; l <= nl; l++) printf "<td>%.1f; %d of %d</td>", (ns ? mean[les[l]] / ns : 0), full[les[l]], ns
  print "<td></td><td></td></tr></tfoot></table>\n</body></html>"
}
