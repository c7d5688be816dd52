# escape.awk: the escapings every output of `make grade` needs, as awk functions (run with LC_ALL=C so that
# a string is its bytes), and the reading of a student's report that several of them carry. A student's name travels through class.tsv escaped as the tables need it (a
# backslash before \, and \t \n \r for the three bytes a TSV cannot hold): unesc() gives the bytes back.
#   csv(s)   one RFC 4180 field: quoted, quotes doubled, when it holds a comma, quote, CR or LF
#   json(s)  a JSON string, quotes included; bytes that are not UTF-8 become U+FFFD
#   xml(s)   text or attribute value for XML 1.0 (and HTML): & < > " ' as references, control
#            characters XML cannot hold as \xHH, invalid UTF-8 as U+FFFD
function esc_init(   i) {
  if (ESC_READY) return
  for (i = 1; i < 256; i++) ESC_ORD[sprintf("%c", i)] = i
  ESC_READY = 1
}
function unesc(s,   out, i, c) {
  if (index(s, "\\") == 0) return s
  out = ""
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (c == "\\" && i < length(s)) {
      c = substr(s, ++i, 1)
      if (c == "t") c = "\t"; else if (c == "n") c = "\n"; else if (c == "r") c = "\r"
    }
    out = out c
  }
  return out
}
function csv(s) {
  if (s ~ /[",\r\n]/ || s ~ /^ / || s ~ / $/) { gsub(/"/, "\"\"", s); return "\"" s "\"" }
  return s
}
# utf8_len(s, i): the length of the valid UTF-8 sequence starting at byte i (1 for ASCII), 0 if invalid.
function utf8_len(s, i,   b, n, k, c, lo, hi) {
  esc_init()
  b = ESC_ORD[substr(s, i, 1)]
  if (b < 128) return 1
  if (b >= 194 && b <= 223) n = 2
  else if (b >= 224 && b <= 239) n = 3
  else if (b >= 240 && b <= 244) n = 4
  else return 0
  for (k = 1; k < n; k++) {
    c = ESC_ORD[substr(s, i + k, 1)]
    lo = 128; hi = 191
    if (k == 1 && b == 224) lo = 160
    if (k == 1 && b == 237) hi = 159
    if (k == 1 && b == 240) lo = 144
    if (k == 1 && b == 244) hi = 143
    if (c < lo || c > hi) return 0
  }
  return n
}
function json(s,   out, i, c, b, n) {
  esc_init()
  out = ""
  for (i = 1; i <= length(s); i += n) {
    c = substr(s, i, 1); b = ESC_ORD[c]; n = 1
    if (c == "\"") out = out "\\\""
    else if (c == "\\") out = out "\\\\"
    else if (c == "\n") out = out "\\n"
    else if (c == "\r") out = out "\\r"
    else if (c == "\t") out = out "\\t"
    else if (b < 32 || b == 127) out = out sprintf("\\u%04x", b)
    else if (b < 128) out = out c
    else if ((n = utf8_len(s, i)) > 0) out = out substr(s, i, n)
    else { out = out "\\ufffd"; n = 1 }
  }
  return "\"" out "\""
}
function xml(s,   out, i, c, b, n) {
  esc_init()
  out = ""
  for (i = 1; i <= length(s); i += n) {
    c = substr(s, i, 1); b = ESC_ORD[c]; n = 1
    if (c == "&") out = out "&amp;"
    else if (c == "<") out = out "&lt;"
    else if (c == ">") out = out "&gt;"
    else if (c == "\"") out = out "&quot;"
    else if (c == "'") out = out "&#39;"
    else if (c == "\n") out = out "&#10;"
    else if (c == "\r") out = out "&#13;"
    else if (c == "\t") out = out "&#9;"
    else if (b < 32 || b == 127) out = out sprintf("\\x%02x", b)
    else if (b < 128) out = out c
    else if ((n = utf8_len(s, i)) > 0) out = out substr(s, i, n)
    else { out = out "&#xfffd;"; n = 1 }
  }
  return out
}
# first_line(s): the first line of a step's message (its "expected: ..."), for a one-line field.
function first_line(s) { sub(/\n.*/, "", s); return s }
# report_text(folder): RUN/FOLDER/report.txt, what `make check` shows the student.
function report_text(folder,   f, line, s) {
  f = ENVIRON["WB_CLASS_RUN"] "/" folder "/report.txt"; s = ""
  while ((getline line < f) > 0) s = s line "\n"
  close(f)
  return s
}
function tsvesc(s) {
  gsub(/\\/, "\\\\", s); gsub(/\t/, "\\t", s); gsub(/\n/, "\\n", s); gsub(/\r/, "\\r", s)
  return s
}
