# order.awk: what the program's queued GPU work was ordered by, read from a trace table (calls.tsv, one call
# per line: n, fn, class, status, line, times, fields). Decided with the rules CUDA promises, not from timing:
#   - work on a stream follows the stream's earlier work; work on the legacy default stream (0, where
#     cudaMemcpy and cudaMemset run too) follows the blocking streams' earlier work and they follow its
#     (not streams made with cudaStreamNonBlocking); cudaStreamWaitEvent makes a stream's later work follow
#     the event's latest record;
#   - cudaDeviceSynchronize finishes everything issued; cudaStreamSynchronize(s), or cudaStreamQuery(s)
#     returning cudaSuccess, finishes s's work (a point on s, with the legacy rule above); cudaEventSynchronize
#     or a successful cudaEventQuery finishes the event's latest record; a cudaMemcpy to or from the host
#     returns when it and the legacy stream's work before it are done;
#   - finishing work finishes what it follows; work issued after other work finished follows it;
#   - stream-ordered allocations and frees (cudaMallocAsync, cudaFreeAsync) are work on their stream too.
# mode=unfinished at=OFFSET asked="N...": prints the asked calls not finished before the program had printed
#   OFFSET bytes.
# mode=follows asked="A B": prints "yes" when queued work B follows A (B cannot start before A is done).
# mode=races: prints "A B" for each two copies or memsets that touch the same bytes, one of them writing,
#   that nothing orders (kernels are left out: what they touch is not in the trace).

function field(k,   v) {
  v = " " $7 " "
  if (!match(v, " " k "=[^ ]*")) return ""
  return substr(v, RSTART + length(k) + 2, RLENGTH - length(k) - 2)
}
function stream(  s) { s = field("stream"); return s == "" || s == "legacy" ? "0" : s }
function blocking(s) { return s != "0" && !(s in nonblocking) }
# Work on s and later work on t are ordered though the streams differ: one is the legacy stream and the
# other a blocking stream.
function tied(s, t) { return (s == "0" && blocking(t)) || (t == "0" && blocking(s)) }
function finish(x,   k) {
  if (x == "" || (x in done)) return
  done[x] = 1
  for (k = 1; k <= ndep[x]; k++) finish(dep[x, k])
}
function follow(x, y) { if (y != "") dep[x, ++ndep[x]] = y }
function point(s,   t) {  # a wait at the end of stream s
  finish(last[s])
  for (t in last) if (tied(s, t)) finish(last[t])
}
# Marks in seen[] everything x follows, directly or not.
function ancestors(x,   k) {
  for (k = 1; k <= ndep[x]; k++)
    if (!(dep[x, k] in seen)) { seen[dep[x, k]] = 1; ancestors(dep[x, k]) }
}
# The bytes a copy or memset touches, as "OBJECT LOW HIGH" (pageable host memory has no name: left out).
function span(p, bytes,   obj, off) {
  if (p == "" || p == "host" || p == "null" || bytes + 0 == 0) return ""
  obj = p; off = 0
  if (match(p, /\+[0-9]+$/)) { obj = substr(p, 1, RSTART - 1); off = substr(p, RSTART + 1) + 0 }
  return obj " " off " " off + bytes
}
function extent(pitch) {  # a 2-D copy's bytes, first row to the end of the last (the rows between too)
  return field("height") > 0 ? pitch * (field("height") - 1) + field("width") : 0
}
function extent3(pitch, ysize) {  # a 3-D copy's bytes, first row of the first slice to the end of the last
  return field("depth") > 0 && field("height") > 0 ? pitch * (ysize * (field("depth") - 1) + field("height") - 1) + field("width") : 0
}
function touch(x, where, writes,   w) {
  if (where == "") return
  split(where, w, " ")
  nacc++; acc_op[nacc] = x; acc_obj[nacc] = w[1]; acc_lo[nacc] = w[2]; acc_hi[nacc] = w[3]; acc_w[nacc] = writes
}
# The accesses of x (the last ones added, from first) against every earlier access of other work.
function races(x, first,   i, j) {
  split("", seen); ancestors(x)
  for (i = first; i <= nacc; i++)
    for (j = 1; j < first; j++)
      if (acc_obj[j] == acc_obj[i] && acc_lo[j] < acc_hi[i] && acc_lo[i] < acc_hi[j] && (acc_w[i] || acc_w[j]) &&
          !(acc_op[j] in done) && !(acc_op[j] in seen) && !((acc_op[j], x) in said)) {
        said[acc_op[j], x] = 1
        print acc_op[j], x
      }
}

BEGIN { nasked = split(asked, wanted, " ") }
# follows: B issued when A was already known to be finished (a wait between them) follows A too.
mode == "follows" && $1 == wanted[2] && (wanted[1] in done) { finished_first = 1 }
mode == "unfinished" { p = field("printed"); if (p != "" && p + 0 > at + 0) exit }
$4 != 0 { next }
$2 ~ /^cudaStreamCreate/ { if (int(field("flags")) % 2 == 1) nonblocking[field("stream")] = 1; next }
($3 == "op" && field("stream") != "") || $2 ~ /^cudaMem(cpy|set)([23]D)?$/ || $2 ~ /^cuda(FreeAsync|Malloc(FromPool)?Async)$/ {
  s = stream(); x = $1
  follow(x, last[s])
  for (t in last) if (tied(s, t)) follow(x, last[t])
  if (s in waited) follow(x, waited[s])
  if ($2 == "cudaStreamWaitEvent") waited[s] = recorded[field("event")]
  if ($2 == "cudaEventRecord") recorded[field("event")] = x
  last[s] = x; issued[++nissued] = x
  if (mode == "races" && $2 ~ /^cudaMem(cpy|set)/) {
    first = nacc + 1
    if ($2 ~ /3D/) {
      touch(x, span(field("dst"), extent3(field("dpitch") != "" ? field("dpitch") : field("pitch"),
                                          field("dysize") != "" ? field("dysize") : field("ysize"))), 1)
      touch(x, span(field("src"), extent3(field("spitch"), field("sysize"))), 0)
    } else if ($2 ~ /2D/) {
      touch(x, span(field("dst"), extent(field("dpitch") != "" ? field("dpitch") : field("pitch"))), 1)
      touch(x, span(field("src"), extent(field("spitch"))), 0)
    } else {
      touch(x, span(field("dst"), field("bytes")), 1)
      touch(x, span(field("src"), field("bytes")), 0)
    }
    races(x, first)
  }
  if ($2 ~ /^cudaMemcpy([23]D)?$/ && field("kind") !~ /DeviceToDevice/) point("0")
  next
}
$2 == "cudaDeviceSynchronize" { for (k = 1; k <= nissued; k++) finish(issued[k]); next }
$2 == "cudaStreamSynchronize" || $2 == "cudaStreamQuery" { point(stream()); next }
$2 == "cudaEventSynchronize" || $2 == "cudaEventQuery" { finish(recorded[field("event")]); next }
END {
  if (mode == "follows") { split(asked, ab, " "); split("", seen); ancestors(ab[2]); if ((ab[1] in seen) || finished_first) print "yes" }
  if (mode == "unfinished") for (k = 1; k <= nasked; k++) if (!(wanted[k] in done)) print wanted[k]
}
