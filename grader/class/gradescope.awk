# gradescope.awk: each student's RUN/FOLDER/results.json, in Gradescope's format: {"score", "output" (the
# student's name and report.txt, what `make check` shows), "tests": [one per step: name, score, max_score,
# status passed|failed, output (the whole step: expected, happened, usual cause), visibility]}, all as plain
# text (output_format: Gradescope keeps the report's line breaks and indents). Steps not
# graded here (a GPU's speed on the CPU backend) are left out, as they are of everyone's maximum.
#   WB_CLASS_RUN=RUN awk -f escape.awk -f gradescope.awk class.tsv
BEGIN { FS = "\t"; run = ENVIRON["WB_CLASS_RUN"] }
function flush() {
  if (cur == "") return
  file = run "/" cur "/results.json"
  printf "{\n  \"score\": %d,\n  \"output\": %s,\n  \"output_format\": \"text\",\n  \"test_output_format\": \"text\",\n  \"tests\": [%s\n  ]\n}\n",
    score, json("student: " curname "\n\n" report_text(cur)), tests > file
  close(file)
}
$1 != cur { flush(); cur = $1; curname = unesc($2); score = 0; tests = ""; sep = "" }
$10 == 0 { next }
{
  score += $7
  out = $6 (unesc($9) != "" ? ": " unesc($9) : "")
  tests = tests sep sprintf("\n    {\"name\": %s, \"score\": %d, \"max_score\": %d, \"status\": \"%s\", \"output\": %s, \"visibility\": \"visible\"}",
    json($3 " step " $4 ": " unesc($5)), $7, $8, ($6 == "passed" ? "passed" : "failed"), json(out))
  sep = ","
}
END { flush() }
