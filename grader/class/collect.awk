# collect.awk: every student's results, in one table that all the outputs are written from (class.tsv):
#   FOLDER NAME LESSON STEP STEP_NAME STATUS POINTS MAXIMUM REASON HERE   (tab-separated; HERE 1 when
#   the step can be graded on this machine, else 0; NAME, STEP_NAME
#   and REASON escaped as tsvesc() does)
# The maximum of a step is the one of steps.tsv, the same for everyone: its points, or 0 where it cannot
# be graded here (a GPU's speed on the CPU backend; its status stays what the grader said, its reason
# starts "not graded here"). A student whose entry could not be graded gets every step, not-graded, 0
# points, with the reason; so does a lesson the grader wrote no result for.
#   WB_CLASS_RUN=RUN awk -f escape.awk -f collect.awk steps.tsv students.tsv
# students.tsv: FOLDER NAME STATE REASON, NAME and REASON escaped.
BEGIN { FS = OFS = "\t"; run = ENVIRON["WB_CLASS_RUN"] }
FNR == NR { n++; L[n] = $1; S[n] = $2; P[n] = $3; H[n] = $4; N[n] = $5; next }
{
  folder = $1; name = $2; state = $3; why = $4
  delete got
  if (state != "not-graded") {
    for (i = 1; i <= n; i++) {
      if (L[i] in read) continue
      read[L[i]] = 1
      file = run "/" folder "/results/" L[i] ".tsv"
      while ((getline line < file) > 0) {
        split(line, f, "\t")
        got[L[i], f[1]] = 1; st[L[i], f[1]] = f[2]; pt[L[i], f[1]] = f[3]; rs[L[i], f[1]] = unesc(f[6])
      }
      close(file)
    }
    delete read
  }
  for (i = 1; i <= n; i++) {
    max = H[i] ? P[i] : 0
    if (state == "not-graded") { status = "not-graded"; points = 0; reason = unesc(why) }
    else if (!((L[i], S[i]) in got)) {
      status = "not-graded"; points = 0; reason = "the grader wrote no result for this step (report.txt says why)"
    } else {
      status = st[L[i], S[i]]; reason = rs[L[i], S[i]]
      points = (status == "passed") ? pt[L[i], S[i]] + 0 : 0
      if (points > max) points = max
      if (!H[i]) reason = "not graded here: " (reason != "" ? reason : "this backend cannot measure it")
    }
    print folder, name, L[i], S[i], tsvesc(N[i]), status, points, max, tsvesc(reason), H[i]
  }
}
