# prairielearn.awk: each student's RUN/FOLDER/prairielearn.json, a PrairieLearn external grader's
# results.json: gradable (false only when the upload could not be graded at all: unpacking refused it),
# score (points / maximum, 0..1), message (the total, or why not gradable), output (report.txt, what
# `make check` shows), tests[] (one per step: name, points, max_points, output the reason, message the
# status). Steps not graded here (a GPU's speed on the CPU backend) are left out, as of everyone's maximum.
#   WB_CLASS_RUN=RUN awk -f escape.awk -f prairielearn.awk students.tsv class.tsv
BEGIN { FS = "\t"; run = ENVIRON["WB_CLASS_RUN"] }
FNR == NR { state[$1] = $3; why[$1] = unesc($4); next }
function flush(   file, gradable, msg) {
  if (cur == "") return
  file = run "/" cur "/prairielearn.json"
  gradable = (state[cur] != "not-graded")
  msg = gradable ? sprintf("%d/%d points", score, max) : "not graded: " why[cur]
  printf "{\n  \"gradable\": %s,\n  \"score\": %s,\n  \"message\": %s,\n  \"output\": %s,\n  \"tests\": [%s\n  ]\n}\n",
    (gradable ? "true" : "false"), (max > 0 ? sprintf("%.6f", score / max) : "0"), json(msg), json(report_text(cur)), tests > file
  close(file)
}
$1 != cur { flush(); cur = $1; score = max = 0; tests = ""; sep = "" }
$10 == 0 { next }
{
  score += $7; max += $8
  tests = tests sep sprintf("\n    {\"name\": %s, \"points\": %d, \"max_points\": %d, \"message\": \"%s\", \"output\": %s}",
    json($3 " step " $4 ": " unesc($5)), $7, $8, $6, json(unesc($9)))
  sep = ","
}
END { flush() }
