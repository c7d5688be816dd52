# junit.awk: each student's RUN/FOLDER/junit.xml: a testsuite per lesson, a testcase per step; a step not
# passed has a <failure> whose message is its first line and whose text is the whole step (expected,
# happened, usual cause), a step not graded here (a GPU's speed on the CPU backend) is
# <skipped>. Names and reasons XML-escaped (escape.awk's xml()).
#   WB_CLASS_RUN=RUN awk -f escape.awk -f junit.awk class.tsv
BEGIN { FS = "\t"; run = ENVIRON["WB_CLASS_RUN"] }
function suite() {
  if (lesson == "") return
  body = body sprintf("  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n%s  </testsuite>\n",
    xml(lesson), t, fl, sk, cases)
  lesson = ""; cases = ""; t = fl = sk = 0
}
function flush() {
  suite()
  if (cur == "") return
  file = run "/" cur "/junit.xml"
  printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"%s\">\n%s</testsuites>\n", xml(curname), body > file
  close(file)
  body = ""
}
$1 != cur { flush(); cur = $1; curname = unesc($2) }
$3 != lesson { suite(); lesson = $3 }
{
  t++
  c = sprintf("    <testcase classname=\"%s\" name=\"%s\"", xml(curname "." $3), xml("step " $4 ": " unesc($5)))
  why = unesc($9)
  if ($6 == "passed") c = c "/>\n"
  else if ($10 == 0) { sk++; c = c ">\n      <skipped message=\"" xml(why) "\"/>\n    </testcase>\n" }
  else {
    fl++
    c = c ">\n      <failure message=\"" xml($6 (why != "" ? ": " first_line(why) : "")) "\" type=\"" $6 "\">" xml(why) "</failure>\n    </testcase>\n"
  }
  cases = cases c
}
END { flush() }
