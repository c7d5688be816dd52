# course.awk: a class's course gradebook from all its runs: for each student (by name) and lesson, the rows
# of the latest run that graded that student on that lesson. A late resubmission graded alone replaces that
# student's lesson and nothing else; a lesson no run graded for a student gets its steps (from the run that
# graded it for someone else last) as not-graded, 0 points, so that every row of the gradebook adds up to
# the same maximum. Input: each run's class.tsv, oldest first (-v runs="RUN1 RUN2 ...", the folder names in
# the same order: the files' own names are all class.tsv). Output: course.tsv, class.tsv's columns with the
# FOLDER a path under the runs' folder (RUN/FOLDER, where that student's report for the lesson is).
#   awk -f escape.awk -f course.awk -v runs="..." RUN1/class.tsv RUN2/class.tsv ... >course.tsv
BEGIN { FS = OFS = "\t"; nr = split(runs, run, " ") }
FNR == 1 { r++ }
{
  key = $2 SUBSEP $3
  if (!($2 in seen)) { seen[$2] = 1; ns++; stu[ns] = $2 }
  if (!($3 in lseen)) { lseen[$3] = 1; nl++; les[nl] = $3 }
  # The first row of this run for the student's lesson: an earlier run's rows for it are replaced.
  if (owner[key] != r) { owner[key] = r; rows[key] = "" }
  $1 = run[r] "/" $1
  rows[key] = rows[key] $0 "\n"
  # The lesson's steps as the latest run that graded it has them, for a student no run graded on it.
  if (tmpl_run[$3] != r) { tmpl_run[$3] = r; tmpl[$3] = "" }
  if (!index(tmpl[$3], "\n" $4 "\t")) tmpl[$3] = tmpl[$3] "\n" $4 "\t" $5 "\t" $8 "\t" $10
}
END {
  # lessons in order (01 before 02), students by name
  for (i = 2; i <= nl; i++) { v = les[i]; for (j = i - 1; j >= 1 && les[j] > v; j--) les[j + 1] = les[j]; les[j + 1] = v }
  for (i = 2; i <= ns; i++) { v = stu[i]; for (j = i - 1; j >= 1 && stu[j] > v; j--) stu[j + 1] = stu[j]; stu[j + 1] = v }
  for (s = 1; s <= ns; s++) for (l = 1; l <= nl; l++) {
    key = stu[s] SUBSEP les[l]
    if (key in rows) { printf "%s", rows[key]; continue }
    n = split(substr(tmpl[les[l]], 2), st, "\n")
    for (k = 1; k <= n; k++) {
      split(st[k], f, "\t")
      print "", stu[s], les[l], f[1], f[2], "not-graded", 0, f[3], tsvesc("no run of this class graded this lesson for this student"), f[4]
    }
  }
}
