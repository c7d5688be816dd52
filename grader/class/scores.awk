# scores.awk: class.tsv as scores.csv, one row per student, lesson and step (RFC 4180, CRLF line ends).
#   awk -f escape.awk -f scores.awk class.tsv >scores.csv
BEGIN { FS = "\t"; ORS = "\r\n"; print "student,lesson,step,step name,status,points,maximum,reason" }
{ print csv(unesc($2)) "," $3 "," $4 "," csv(unesc($5)) "," $6 "," $7 "," $8 "," csv(unesc($9)) }
