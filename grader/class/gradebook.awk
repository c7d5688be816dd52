# gradebook.awk: class.tsv as gradebook.csv, one row per student (RFC 4180, CRLF line ends): student,
# total, maximum, one column per lesson (its points), one per step ("01 step 3", its points), and the
# folder under the run that holds the student's report, results.json and junit.xml.
# A course's gradebook (course.awk's course.tsv, one student's lessons from several runs) tells students
# apart by name (-v course=1) and has no folder column: each lesson's report is in its own run.
#   awk -f escape.awk -f gradebook.awk [-v course=1] class.tsv >gradebook.csv
BEGIN { FS = "\t"; ORS = "\r\n" }
{
  if (course) $1 = $2
  if (!($1 in seen)) { seen[$1] = 1; ns++; stu[ns] = $1; nm[$1] = $2 }
  if (!($3 in lseen)) { lseen[$3] = 1; nl++; les[nl] = $3 }
  if (!(($3, $4) in cseen)) { cseen[$3, $4] = 1; nc++; col[nc] = $3 SUBSEP $4; cname[nc] = substr($3, 1, 2) " step " $4 }
  pts[$1, $3, $4] = $7; tot[$1] += $7; max[$1] += $8; lp[$1, $3] += $7
}
END {
  line = "student,total,maximum"
  for (l = 1; l <= nl; l++) line = line "," csv(les[l])
  for (c = 1; c <= nc; c++) line = line "," csv(cname[c])
  print line (course ? "" : ",folder")
  for (s = 1; s <= ns; s++) {
    f = stu[s]; line = csv(unesc(nm[f])) "," tot[f] "," max[f]
    for (l = 1; l <= nl; l++) line = line "," lp[f, les[l]]
    for (c = 1; c <= nc; c++) line = line "," pts[f, col[c]]
    print line (course ? "" : "," csv(f))
  }
}
