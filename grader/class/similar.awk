# similar.awk: similar.tsv (merge.sh: LESSON, own tokens, students, names, "solution" or nothing) as
# similar.csv, one row per group of identical submissions (RFC 4180, CRLF line ends).
#   awk -f escape.awk -f similar.awk similar.tsv >similar.csv
BEGIN { FS = "\t"; ORS = "\r\n"; print "lesson,own tokens,students,names,same as the reference solution" }
{ print $1 "," $2 "," $3 "," csv(unesc($4)) "," ($5 == "solution" ? "yes" : "no") }
