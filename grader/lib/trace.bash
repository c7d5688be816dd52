# Reading the trace (grader/README.md, "The trace"): what the program did, as sentences a step can check.
# Loaded by grading.bash. Every helper reads the last run's report ($RUN_DIR/report) through calls.tsv,
# which trace_table writes once per run: one line per call record, its site resolved to the student's line.

# shellcheck shell=bash

# student_files VAR: sets VAR to the base names of the lesson's own source files, " a.cu b.cu " (a call site
# is named by the first frame in one of them). A glob, not ls: no fork.
student_files() {
  local -n sf_out=$1
  local f
  sf_out=" "
  for f in "$WB_WORK/build/src"/*; do [ -e "$f" ] && sf_out="$sf_out${f##*/} "; done
  return 0
}

# trace_table: writes $RUN_DIR/calls.tsv from the report, once. Columns: n, fn, class, status, line (the
# student's file:line that led to the call, or the call's own site), times (1 + its aggregated repeats),
# then the record's other key=value fields.
trace_table() {
  local report=$RUN_DIR/report table=$RUN_DIR/calls.tsv unknown=$RUN_DIR/addresses.new prog new="" cache files
  [ -f "$table" ] && return 0
  [ -f "$report" ] || { : >"$table"; return 0; }
  # What addr2line said of each address, kept beside the program for the grading's later runs (a sweep's
  # runs share their addresses): only addresses not seen before are looked up. Few forks: this runs after
  # every run of a grading. The table is made with what the cache knows, its awk writing the report's stack
  # addresses that the cache does not hold to addresses.new, once each; only when there are any, addr2line
  # and the table again.
  program_get prog
  cache=${prog%/*}/addr2line.cache
  [ -f "$cache" ] || { : >"$cache"; } 2>/dev/null || { cache=$RUN_DIR/addr2line.cache; : >>"$cache"; }
  student_files files
  trace_table_awk "$cache" "$files" "$unknown" >"$table"
  [ -s "$unknown" ] || return 0
  read -r new <"$unknown" || true
  if [ -n "$new" ] && command -v addr2line >/dev/null 2>&1; then
    # The student's executable is read in the sandbox too: a crafted one must not reach the grader.
    local sandbox=()
    ! sandbox_available || sandbox_command sandbox --ro "${prog%/*}" --
    # shellcheck disable=SC2086 # one address per word
    "${sandbox[@]}" addr2line -a -f -i -C -e "$prog" $new 2>/dev/null |
      awk -v asked="$new" 'BEGIN { n = split(asked, q, " ") }
        /^0x[0-9a-f]+$/ { print "A\t" q[++k]; next } { print "A\t" $0 }' >>"$cache" || true
  fi
  trace_table_awk "$cache" "$files" /dev/null >"$table"
}

# trace_table_awk CACHE FILES UNKNOWN: calls.tsv's lines from the cache's lines (A), then the report's (R);
# the report's stack addresses that CACHE does not hold go to the file UNKNOWN, once each, on one line.
trace_table_awk() {
  awk -F '\t' -v files="$2" -v unknown="$3" '
    FILENAME == ARGV[2] && match($0, / stack=[^ ]*/) {
      s = substr($0, RSTART, RLENGTH)
      while (match(s, /\+0x[0-9a-f]*/)) {
        a = substr(s, RSTART + 1, RLENGTH - 1); s = substr(s, RSTART + RLENGTH)
        if (!(a in nf) && !(a in asked)) { asked[a] = 1; printf " %s", a >unknown }
      }
    }
    FILENAME == ARGV[2] { $0 = "R\t" $0 }
    function base(loc) { sub(/ \(discriminator [0-9]+\)$/, "", loc); sub(/^.*\//, "", loc); return loc }
    function mapped(loc,   m) {  # nvcc -O2 names inlined frames after its intermediate file
      if (match(loc, /^tmpxft_[0-9a-f_-]+_/)) { m = substr(loc, RLENGTH + 1); sub(/\.cudafe1\.cpp:/, ".cu:", m); return m }
      return loc
    }
    function side(p, kind, from,   named) {
      if (p ~ /^alloc#/) return "Device"
      if (p ~ /^managed#/) {
        named = kind
        if (from) sub(/To.*/, "", named); else sub(/.*To/, "", named)
        return named == "Host" ? "Host" : "Device"
      }
      return "Host"
    }
    function student(loc,   f) { f = loc; sub(/:.*/, "", f); return f != "" && index(files, " " f " ") > 0 }
    $1 == "A" {
      # An address: no function name or FILE:LINE looks like one (an identifier starts with a letter).
      if ($2 ~ /^0x[0-9a-f]+$/) { k = $2; nf[k] = 0; expect_fn = 1; next }
      if (expect_fn) { fnname[k, nf[k]] = $2; expect_fn = 0 }
      else { loc[k, nf[k]] = mapped(base($2)); nf[k]++; expect_fn = 1 }
      next
    }
    $1 == "R" && $2 ~ /^call / {
      line = substr($2, 6); site = ""; stack = ""; kernel = ""; out = ""; gapus = ""; split("", f)
      nw = split(line, w, " ")
      for (i = 1; i <= nw; i++) {
        key = w[i]; sub(/=.*/, "", key); val = substr(w[i], length(key) + 2)
        if (key == "site") site = val
        else if (key == "stack") stack = val
        else if (key == "gap") gapus = val
        else { if (key == "kernel") kernel = val; f[key] = val; if (key != "n" && key != "fn" && key != "class" && key != "status") out = out " " w[i] }
      }
      # moved=: where a successful copy really took the data, from its pointers (device allocations Device,
      # pinned and pageable memory Host, managed memory the side its kind names, else Device), whatever kind
      # it was given: a copy back written with cudaMemcpyDefault moved DeviceToHost as one that says so.
      if (f["fn"] ~ /^cudaMemcpy/ && ("src" in f) && ("dst" in f) && f["status"] == 0) {
        out = out " moved=" side(f["src"], f["kind"], 1) "To" side(f["dst"], f["kind"], 0)
      }
      at = student(site) ? site : ""
      if (at == "" && stack != "") {
        ns = split(stack, st, ",")
        for (s = 1; s <= ns && at == ""; s++) {
          a = st[s]; sub(/^\+/, "", a); j = a
          for (q = 0; (j in nf) && q < nf[j] && at == ""; q++) {
            fname = fnname[j, q]; sub(/\(.*/, "", fname)
            if (fname ~ /^__device_stub_/ || (kernel != "" && fname == kernel)) continue
            if (student(loc[j, q])) at = loc[j, q]
          }
        }
      }
      if (at == "") at = site
      flush()
      pending = f["n"] "\t" f["fn"] "\t" f["class"] "\t" f["status"] "\t" at; times = 1; prev_out = substr(out, 2); gap = gapus
      next
    }
    # a repeat adds its count, and its host time: gap= is then the record and its repeats together
    $1 == "R" && $2 ~ /^again / {
      c = $2; sub(/.*count=/, "", c); sub(/ .*/, "", c); times += c
      if ($2 ~ / gap=/) { h = $2; sub(/.* gap=/, "", h); sub(/ .*/, "", h); gap = gap + h }
      next
    }
    function flush() { if (pending) print pending "\t" times "\t" prev_out (gap != "" ? (prev_out != "" ? " " : "") "gap=" gap : "") }
    END { flush() }' "$1" "$RUN_DIR/report"
}

# calls [--first] [KEY=VALUE]...: the last run's call records with every KEY=VALUE (fn, class, status, line or
# any field of the record; VALUE may end in * to match a prefix), one per line as calls.tsv has them;
# --first: the first one only.
calls() {
  local first=0
  [ "${1:-}" != --first ] || { first=1; shift; }
  trace_table
  awk -F '\t' -v want="$*" -v first="$first" '
    BEGIN { n = split(want, w, " ") }
    {
      split("", f); f["n"] = $1; f["fn"] = $2; f["class"] = $3; f["status"] = $4; f["line"] = $5; f["times"] = $6
      m = split($7, kv, " ")
      for (i = 1; i <= m; i++) { k = kv[i]; sub(/=.*/, "", k); f[k] = substr(kv[i], length(k) + 2) }
      for (i = 1; i <= n; i++) {
        k = w[i]; sub(/=.*/, "", k); v = substr(w[i], length(k) + 2)
        if (!(k in f)) next
        if (v ~ /\*$/) { if (index(f[k], substr(v, 1, length(v) - 1)) != 1) next }
        else if (f[k] != v) next
      }
      print
      if (first) exit
    }' "$RUN_DIR/calls.tsv"
}

# call_field RECORD KEY: one field of a line of calls (n, fn, class, status, line, times, or a key=value).
call_field() {
  local rec value
  # Builtins only (a step reads hundreds of fields, and a fork costs more than the rest of the step); one
  # value per record for a column, the first one for a key.
  while IFS= read -r rec; do
    if call_get value "$rec" "$2"; then
      printf '%s\n' "$value"
      case $2 in n | fn | class | status | line | times) ;; *) return 0 ;; esac
    fi
  done <<<"$1"
}

# call_get VAR RECORD KEY: sets VAR to call_field's value of KEY in one record, without the fork of a $(...);
# returns 1 (VAR empty) when the record has no such key.
# shellcheck disable=SC2034 # cg_value is the caller's variable
call_get() {
  local -n cg_value=$1
  local cg_rest=$2 cg_i cg_col
  case $3 in
    n) cg_col=1 ;; fn) cg_col=2 ;; class) cg_col=3 ;; status) cg_col=4 ;; line) cg_col=5 ;; times) cg_col=6 ;; *) cg_col=7 ;;
  esac
  for ((cg_i = 1; cg_i < cg_col; cg_i++)); do
    [[ $cg_rest == *$'\t'* ]] || { cg_rest=""; break; }
    cg_rest=${cg_rest#*$'\t'}
  done
  cg_rest=${cg_rest%%$'\t'*}
  cg_value=""
  if [ "$cg_col" -lt 7 ]; then
    cg_value=$cg_rest
  elif [[ " $cg_rest " =~ \ $3=([^ ]*)\  ]]; then
    cg_value=${BASH_REMATCH[1]}
  else
    return 1
  fi
}

# A call record as a student reads it: "cudaMemset(dst=alloc#1 value=0 bytes=4000) = 0 at alloc.cu:42".
call_text() {
  printf '%s(%s) returned %s at %s' "$(call_field "$1" fn)" "$(cut -f7 <<<"$1" | sed 's/\(^\| \)\(printed\|gap\)=[0-9]*//g' | cut -c1-140)" \
    "$(call_field "$1" status)" "$(call_field "$1" line)"
}

# call_site_text RECORD: "the cudaMalloc at alloc.cu:56 (bytes=4000000 ...)", a call named by its place.
call_site_text() {
  printf 'the %s at %s (%s)' "$(call_field "$1" fn)" "$(call_field "$1" line)" \
    "$(cut -f7 <<<"$1" | sed 's/\(^\| \)\(printed\|gap\)=[0-9]*//g' | cut -c1-140)"
}

# The program's calls of FN, for a failure message (at most 6, and how many there were).
calls_of() {
  local all count
  all=$(calls "fn=$1")
  count=$(grep -c . <<<"$all" || true)
  [ "$count" -gt 0 ] || { echo "    (no $1 call at all)"; return; }
  head -n 6 <<<"$all" | while IFS= read -r c; do printf '    %s\n' "$(call_text "$c")"; done
  [ "$count" -le 6 ] || echo "    ... ($count in all)"
}

# expect_call FN [KEY=VALUE]... [--because CAUSE]: the last run made a call of FN with those fields.
expect_call() {
  local fn=$1 cause="" fields=()
  shift
  while [ $# -gt 0 ]; do
    case $1 in
      --because) cause=$2; shift 2 ;;
      *) fields+=("$1"); shift ;;
    esac
  done
  [ -n "$(calls "fn=$fn" "${fields[@]}")" ] && return 0
  fail "$(printf 'expected: a call %s(%s)\nhappened: the program %s; its %s calls:\n%s\nusual cause: %s' \
    "$fn" "${fields[*]}" "$RUN_HOW" "$fn" "$(calls_of "$fn")" "${cause:-read the chapter section on $fn}")"
}

# first_n [KEY=VALUE]...: the order number of the first call with those fields (nothing when none).
first_n() { calls --first "$@" | cut -f1; }

# CUDA 13.0's names and strings of errors (cpu/include/cudawb/errors.def) and cuBLAS's of statuses
# (cublas_status.def), read once when this file is loaded: a step looks up many, and a sed each was a fork.
# shellcheck disable=SC2034 # read through error_name's and error_string's namerefs
declare -gA WB_ERROR_NAME=() WB_ERROR_STRING=() WB_CUBLAS_NAME=() WB_CUBLAS_STRING=()
load_error_tables() {
  local line table re='^CUDAWB_(ERROR|CUBLAS_STATUS)\(([0-9]+), ([A-Za-z0-9_]+), "(.*)"\)$'
  # Each file read by itself, not through a pipe: read(1) on a pipe takes a byte at a time.
  for table in errors.def cublas_status.def; do
    # shellcheck disable=SC2034 # read through error_name's and error_string's namerefs
    while IFS= read -r line; do
      [[ $line =~ $re ]] || continue
      if [ "${BASH_REMATCH[1]}" = ERROR ]; then
        WB_ERROR_NAME[${BASH_REMATCH[2]}]=${BASH_REMATCH[3]} WB_ERROR_STRING[${BASH_REMATCH[2]}]=${BASH_REMATCH[4]}
      else
        WB_CUBLAS_NAME[${BASH_REMATCH[2]}]=${BASH_REMATCH[3]} WB_CUBLAS_STRING[${BASH_REMATCH[2]}]=${BASH_REMATCH[4]}
      fi
    done <"$WB_ROOT/cpu/include/cudawb/$table"
  done
}
load_error_tables

# error_name CODE [FN]: cudaGetErrorName of CODE; for a cuBLAS call FN, cublasGetStatusName's. Nothing for a
# code the table does not have.
error_name() {
  local table=WB_ERROR_NAME
  [[ ${2:-} != cublas* ]] || table=WB_CUBLAS_NAME
  local -n names=$table
  [ -z "$1" ] || [ -z "${names[$1]+set}" ] || printf '%s\n' "${names[$1]}"
  return 0
}
# error_string CODE [FN]: cudaGetErrorString of CODE (cublasGetStatusString's for a cuBLAS call FN).
error_string() {
  local table=WB_ERROR_STRING
  [[ ${2:-} != cublas* ]] || table=WB_CUBLAS_STRING
  local -n strings=$table
  [ -z "$1" ] || [ -z "${strings[$1]+set}" ] || printf '%s\n' "${strings[$1]}"
  return 0
}

# expect_answers QUESTION|FILTER[|then]...: a probe's printed answers, each checked against the call that
# produced it. For each entry, in order: the run printed "QUESTION: NAME..." (or "QUESTION NAME" when
# QUESTION ends with a space), and the last call with
# FILTER's KEY=VALUE fields made before that line was printed (the records' printed= field) and after the
# previous answer's call returned NAME. "|then": the line is
# "QUESTION: A, then B", two such calls in a row. Sets ANSWER_NS to the answering calls' order numbers
# (the failure sweep leaves them alone: they are questions, not operations). --find: only find the
# answering calls, without judging the answers (a sweep's set-up: the answers are another step's); a
# question with no call of its filter (asked with another argument than it names) has the last call made
# before its line (after the previous answer's) taken as its own: the sweep leaves it alone too, rather than
# report a question's failure as a missing error check (the probe's step says what is wrong with it).
expect_answers() {
  local q question filter pair line printed rec after=0 name second at judge=1 asked
  [ "${1:-}" != --find ] || { judge=0; shift; }
  ANSWER_NS=""
  [ $# -gt 0 ] || fail "grader error: expect_answers was given no question"
  for q in "$@"; do
    question=${q%%|*} filter=${q#*|} pair=""
    [[ $filter != *"|then" ]] || { filter=${filter%|then}; pair=1; }
    [[ $question == *" " ]] || question="$question: " # the answer follows ": ", or the given separator
    line=$(grep -b -m1 -F -- "$question" "$RUN_DIR/stdout" || true)
    at=${line%%:*} line=${line#*:}
    [ -n "$line" ] || [ "$judge" = 1 ] || continue
    [ -n "$line" ] || fail "$(printf 'expected: a line "%s..." with what the runtime answered\nhappened: no such line; the program %s\nusual cause: the probe question is not written yet' "$question" "$RUN_HOW")"
    printed=${line#"$question"}
    printed=${printed%%,*}
    # shellcheck disable=SC2086 # the filter is several KEY=VALUE words
    # the last such call before the line (the last two for "A, then B")
    rec=$(calls $filter | awk -F '\t' -v a="$after" -v at="${at:-0}" -v two="${pair:-0}" '
      $1 > a { p = $7; if (!sub(/.*printed=/, "", p)) { if (!found) first = $0; found = 1; next }; sub(/ .*/, "", p)
               if (p + 0 <= at + 0) { before = last; last = $0 } }
      END { if (two) print (before != "" ? before : first); else print (last != "" ? last : first) }')
    if [ -z "$rec" ] && [ "$judge" = 0 ]; then
      asked=$(calls | awk -F '\t' -v a="$after" -v at="${at:-0}" '
        $1 > a { p = $7; if (sub(/.*printed=/, "", p)) { sub(/ .*/, "", p); if (p + 0 <= at + 0) last = $1 } }
        END { if (last != "") print last }')
      [ -z "$asked" ] || { ANSWER_NS="$ANSWER_NS $asked"; after=$asked; }
      continue
    fi
    # The skeletons print cudaErrorNotYetImplemented where a question's call is still to be written.
    [ -n "$rec" ] || fail "$(printf 'expected: the answer "%s" comes from a call %s made by the program before it printed the line\nhappened: it printed the answer, but made no such call (after the previous question'"'"'s)\nusual cause: %s' "$line" "${filter#fn=}" \
      "$([[ $line == *cudaErrorNotYetImplemented* ]] && echo "the question's TODO is not written yet: replace cudaErrorNotYetImplemented by the call the question names" ||
        echo "an answer typed in instead of asked of the runtime, or a call with other pointers or another kind than the question names")")"
    name=$(error_name "$(call_field "$rec" status)" "$(call_field "$rec" fn)")
    [ "$judge" = 0 ] || [ "$printed" = "$name" ] || fail "$(printf 'expected: "%s..." prints what the call returned: %s\nhappened: it printed "%s", while the call that asks it, %s, means %s\nusual cause: an answer typed in, or the result of another call printed' "$question" "$name" "$printed" "$(call_text "$rec")" "$name")"
    if [ -n "$pair" ]; then
      # shellcheck disable=SC2086
      second=$(calls $filter | awk -F '\t' -v a="$(call_field "$rec" n)" '$1 > a' | head -n 1)
      [ "$judge" = 0 ] || [[ $line == *", then $(error_name "$(call_field "$second" status)")" ]] ||
        fail "$(printf 'expected: "%sA, then B" prints what two such calls in a row returned\nhappened: it printed "%s"\nusual cause: cudaPeekAtLastError used where cudaGetLastError clears the error, or an answer typed in' "$question" "$line")"
      rec=$second
    fi
    ANSWER_NS="$ANSWER_NS $(call_field "$rec" n)"
    after=$(call_field "$rec" n)
  done
}

# follows A B: queued work B (an order number) cannot start before queued work A has finished: the same
# stream, the legacy stream's ties with blocking streams, or events (order.awk).
follows() {
  trace_table
  [ "$(awk -F '\t' -f "$WB_ROOT/grader/lib/order.awk" -v mode=follows -v asked="$1 $2" "$RUN_DIR/calls.tsv")" = yes ]
}

# printed_at PREFIX: the byte offset in the last run's stdout of its first line starting with PREFIX.
printed_at() { grep -b -m1 -F -- "$1" "$RUN_DIR/stdout" | grep -m1 "^[0-9]*:$1" | cut -d: -f1; }

# unfinished_at OFFSET CALL...: of the given calls (order numbers of queued work: launches, async copies,
# memsets, event records), those the program could not know were finished when it had printed OFFSET bytes.
# Decided from the trace with the rules CUDA promises, not from timing, so that a read that no wait precedes
# fails on every backend and every run:
#   - work on a stream follows the stream's earlier work; work on the legacy default stream (0) follows the
#     blocking streams' earlier work and they follow its (not streams made with cudaStreamNonBlocking);
#     cudaStreamWaitEvent makes a stream's later work follow the event's latest record;
#   - cudaDeviceSynchronize finishes everything issued; cudaStreamSynchronize(s), or cudaStreamQuery(s)
#     returning cudaSuccess, finishes s's work (a point on s, with the legacy rule above); cudaEventSynchronize
#     or a successful cudaEventQuery finishes the event's latest record; a blocking cudaMemcpy (to or from the
#     host) is a point on the legacy stream;
#   - finishing work finishes what it follows.
unfinished_at() {
  trace_table
  local at=$1
  shift
  awk -F '\t' -f "$WB_ROOT/grader/lib/order.awk" -v mode=unfinished -v at="$at" -v asked="$*" "$RUN_DIR/calls.tsv"
}

# unordered_copies: pairs "A B" of copies or memsets (order numbers) that touch the same bytes, at least one
# of them writing, with nothing ordering them (the rules of unfinished_at): on a GPU they may run at the same
# time, in either order. Kernels are left out: what a kernel touches is not in the trace.
unordered_copies() {
  trace_table
  awk -F '\t' -f "$WB_ROOT/grader/lib/order.awk" -v mode=races "$RUN_DIR/calls.tsv"
}

# expect_ordered [--from N | --with N] CAUSE: no two copies or memsets of the run race (unordered_copies);
# with --from, none that both come at or after call N (a race with earlier work is an earlier step's);
# with --with, none that call N is one of.
expect_ordered() {
  local pairs a b from=0 with=""
  [ "$1" = --from ] && { from=$2; shift 2; }
  [ "$1" = --with ] && { with=$2; shift 2; }
  pairs=$(unordered_copies | awk -v from="$from" -v with="$with" '$1 >= from && (with == "" || $1 == with || $2 == with)')
  [ -z "$pairs" ] && return 0
  read -r a b <<<"$pairs"
  fail "$(printf 'expected: copies of the same bytes ordered (the same stream, an event, or a wait between them)
happened: these two touch the same bytes, and nothing orders them, so a GPU may run them at the same time:
    %s
    %s%s
usual cause: %s' \
    "$(call_text "$(calls "n=$a")")" "$(call_text "$(calls "n=$b")")" \
    "$([ "$(grep -c . <<<"$pairs")" -gt 1 ] && printf '\n    (and %s more such pairs)' "$(($(grep -c . <<<"$pairs") - 1))")" "$1")"
}

# expect_waited WHAT PREFIX CAUSE CALL...: the line starting with PREFIX was printed after the program had
# waited for the queued work CALL... (unfinished_at). WHAT names that work in the message.
expect_waited() {
  local what=$1 prefix=$2 cause=$3 at late
  shift 3
  at=$(printed_at "$prefix")
  [ -n "$at" ] || fail "$(printf 'expected: a line starting "%s"\nhappened: no such line; the program %s' "$prefix" "$RUN_HOW")"
  late=$(unfinished_at "$at" "$@")
  [ -z "$late" ] && return 0
  # The first line names the line read, not what it waits for: two steps that find the same read unwaited
  # (the kernel's wait and the prefetch's, both missing) found one mistake, and report.sh shows it once.
  fail "$(printf 'expected: a wait before the line "%s"\n    (a wait for %s)\nhappened: nothing the program called before that line waits for:\n%s\nso the host read the results without waiting for them, whatever the timing let it see\nusual cause: %s' \
    "$(sed -n "/^$(printf '%s' "$prefix" | sed 's/[]\/$*.^[]/\\&/g')/{p;q}" "$RUN_DIR/stdout")" "$what" \
    "$(for c in $late; do printf '    %s\n' "$(call_text "$(calls "n=$c")")"; done | head -n 4
      [ "$(wc -w <<<"$late")" -le 4 ] || printf '    ... (%s in all)' "$(wc -w <<<"$late")")" "$cause")"
}

# elapsed_spans: one line per cudaEventElapsedTime that returned 0, tab-separated: the ms it gave, the
# call numbers of the last cudaEventRecord of its start and of its end event before it, and its own.
# What a program prints as a time is checked against these, and what ran between two records is "timed".
elapsed_spans() {
  trace_table
  awk -F '\t' '
    function field(k,   v) { v = " " $7 " "; if (!match(v, " " k "=[^ ]*")) return ""; return substr(v, RSTART + length(k) + 2, RLENGTH - length(k) - 2) }
    $4 != 0 { next }
    $2 == "cudaEventRecord" { at[field("event")] = $1 }
    $2 == "cudaEventElapsedTime" && field("ms") != "" && (field("start") in at) && (field("end") in at) {
      print field("ms") "\t" at[field("start")] "\t" at[field("end")] "\t" $1
    }' "$RUN_DIR/calls.tsv"
}

# span_host START END: "TOTAL MAX N": the host time, in microseconds, the program spent outside its CUDA
# calls between call START and call END (the gap= of every call after START up to END: the time its thread
# spent in its own code since its previous call returned, on the trace's clock), the largest of those gaps,
# and the call that ended it.
span_host() {
  calls | awk -F '\t' -v s="$1" -v e="$2" '
    $1 > s && $1 <= e && match(" " $7 " ", / gap=[0-9]+ /) {
      h = substr(" " $7 " ", RSTART + 5, RLENGTH - 6) + 0; t += h; if (h >= m) { m = h; at = $1 }
    }
    END { print t + 0, m + 0, at + 0 }'
}

# span_count START END [KEY=VALUE]...: how many calls with those fields (repeats included) the program
# made after call START and before call END.
span_count() {
  local s=$1 e=$2
  shift 2
  calls "$@" | awk -F '\t' -v s="$s" -v e="$e" '$1 > s && $1 < e { t += $6 } END { print t + 0 }'
}

# RECORD_AWK: awk functions for a line of calls.tsv, for the checks that read it in awk: field(K), the value of
# its field K ("" when it has none); ptr_base(P) and ptr_offset(P), a pointer as the trace names it split into
# its buffer and byte offset (alloc#3+400: alloc#3 and 400).
# shellcheck disable=SC2016 # an awk program: its $ are awk's
RECORD_AWK='
  function field(k,   f) { f = " " $7 " "; return match(f, " " k "=[^ ]+ ") ? substr(f, RSTART + length(k) + 2, RLENGTH - length(k) - 3) : "" }
  function ptr_base(p) { sub(/\+[0-9]+$/, "", p); return p }
  function ptr_offset(p) { return match(p, /\+[0-9]+$/) ? substr(p, RSTART + 1) + 0 : 0 }
'

# span_work START END: the work the last run queued between call START and call END (a timed span), in one
# line that two spans doing the same work share: each kernel launched and how often, each cuBLAS product,
# the bytes copied each way, the bytes set. Allocations, frees, waits and a handle's creation or settings are
# not work (nothing queued on a stream); a span that holds more or other work than it names times something
# else.
span_work() {
  calls status=0 | awk -F '\t' -v s="$1" -v e="$2" "$RECORD_AWK"'
    $1 > s && $1 < e {
      if ($2 == "cudaLaunchKernel") w[field("kernel") " launches"] += $6
      else if ($2 ~ /^(cudaMemcpy|cublas(Set|Get)(Matrix|Vector))/) w["bytes " field("moved")] += field("bytes") * $6
      else if ($2 ~ /^cublas[SDCZ][a-z]/ && $2 !~ /^cublas(Set|Get|Create|Destroy)/) w[$2 " calls"] += $6
      else if ($2 ~ /^cudaMemset/) w["bytes set"] += (field("bytes") != "" ? field("bytes") : field("width") * field("height")) * $6 }
    END { n = 0; for (k in w) keys[++n] = k
      for (i = 2; i <= n; i++) { v = keys[i]; for (j = i - 1; j >= 1 && keys[j] > v; j--) keys[j + 1] = keys[j]; keys[j + 1] = v }
      for (i = 1; i <= n; i++) printf "%s%s: %d", (i > 1 ? ", " : ""), keys[i], w[keys[i]]
      printf "%s\n", (n ? "" : "nothing") }'
}

# printed_times LINE I T1 J T2 DECIMALS: words I and J of LINE, two times the program printed with DECIMALS
# decimals, are T1 and T2 (the ones the trace recorded), to the printed precision.
printed_times() {
  awk -v line="$1" -v i="$2" -v a="$3" -v j="$4" -v b="$5" -v d="$6" 'BEGIN {
    tol = 0.6 / 10 ^ d; if (split(line, w, " ") < (i > j ? i : j)) exit 1
    d1 = w[i] - a; d2 = w[j] - b; exit !(d1 < tol && d1 > -tol && d2 < tol && d2 > -tol) }'
}

# library_overruns: the last run's cuBLAS products (cublasSgemm, cublasDgemm, cublasSgemv, cublasDgemv) with an operand
# that, as the call lays it out, runs past the allocation it starts in. A column-major operand is cols columns
# of rows elements, ld apart: it spans (cols - 1) ld + rows elements from its pointer (the CPU backend holds
# the library to the same span: cpu/src/blas_operand.h). One line each: the call's record, a tab, what runs
# past. The trace decides it, the same on both backends: whether a GPU's memory checker sees such an overrun
# depends on where the buffers happen to lie (one that reaches into a neighbouring buffer is inside an
# allocation).
library_overruns() {
  trace_table
  awk -F '\t' '
    function abs(v) { return v < 0 ? -v : v }
    function operand(name, ld, rows, cols,   p, id, off, need, type, shape) {
      p = f[name]
      if (rows <= 0 || cols <= 0 || p !~ /^(alloc|managed|pinned)#[0-9]+(\+[0-9]+)?$/) return ""
      id = p; sub(/^[a-z]+#/, "", id); sub(/\+.*/, "", id)
      off = (p ~ /\+/) ? substr(p, index(p, "+") + 1) + 0 : 0
      need = off + ((cols - 1) * ld + rows) * elem
      if (!(id in size) || need <= size[id]) return ""
      type = elem == 4 ? "floats" : "doubles"
      shape = name ~ /^[xy]$/ ? sprintf("%d %s %d apart", cols, type, ld) : \
        sprintf("%d columns of %d %s each %d apart", cols, rows, type, ld)
      return sprintf("%s (%s), %s, spans %d bytes: %d past the end of its %d-byte allocation", \
        name, p, shape, need - off, need - size[id], size[id])
    }
    {
      split("", f); m = split($7, kv, " ")
      for (i = 1; i <= m; i++) { k = kv[i]; sub(/=.*/, "", k); f[k] = substr(kv[i], length(k) + 2) }
      # an allocation'"'"'s size: its bytes, or a pitched one'"'"'s pitch x height (x depth); unknown, unchecked
      if ($3 == "alloc" && $4 == 0 && ("alloc" in f)) {
        if ("bytes" in f) size[f["alloc"]] = f["bytes"] + 0
        else if (("pitch" in f) && ("height" in f)) size[f["alloc"]] = f["pitch"] * f["height"] * (("depth" in f) ? f["depth"] : 1)
        next
      }
      if ($4 != 0 || $2 !~ /^cublas[SD]gem[mv]$/) next
      elem = substr($2, 7, 1) == "S" ? 4 : 8
      split($2 ~ /gemv$/ ? f["mn"] : f["mnk"], d, "x")
      if ($2 ~ /gemv$/) {
        # x and y: one row each, |inc| apart (a negative increment walks the same span from the other end)
        what = operand("A", f["lda"], d[1], d[2])
        if (what == "") what = operand("x", abs(f["incx"]), 1, f["ta"] == "N" ? d[2] : d[1])
        if (what == "") what = operand("y", abs(f["incy"]), 1, f["ta"] == "N" ? d[1] : d[2])
      }
      else {
        what = operand("A", f["lda"], f["ta"] == "N" ? d[1] : d[3], f["ta"] == "N" ? d[3] : d[1])
        if (what == "") what = operand("B", f["ldb"], f["tb"] == "N" ? d[3] : d[2], f["tb"] == "N" ? d[2] : d[3])
        if (what == "") what = operand("C", f["ldc"], d[1], d[2])
      }
      if (what != "") print $0 "\t" what
    }' "$RUN_DIR/calls.tsv"
}
