#!/usr/bin/env bats
# class.html in headless Chromium: a made-up class of twelve students over lessons 01 and 02 (its results
# written as check.sh writes them, so no grading runs), its outputs written by grader/class/outputs.sh,
# a screenshot taken, and the screenshot measured against the page (tests/html/check-chart.html): every SVG
# bar the page lays out with a size must be there, in its colour, in the picture.

setup_file() {
  command -v chromium >/dev/null 2>&1 || return 0
  local r=$BATS_FILE_TMPDIR/run cls i f l
  cls=$(cd "$BATS_TEST_DIRNAME/../grader/class" && pwd)
  mkdir -p "$r"
  "$cls/steps.sh" cpu 01-allocation 02-copies >"$r/steps.tsv"
  : >"$r/students.tsv"
  # Student i passes the steps up to (i mod 9) + 1 of each lesson: every histogram bin but two is used.
  for i in $(seq 1 12); do
    f=s$i
    mkdir -p "$r/$f/results"
    echo "report of $f" >"$r/$f/report.txt"
    for l in 01-allocation 02-copies; do
      awk -F '\t' -v OFS='\t' -v i="$i" -v l="$l" '$1 == l { st = ($2 <= (i % 9) + 1) ? "passed" : "failed"
        print $2, st, (st == "passed" ? $3 : 0), $3, $5, (st == "passed" ? "" : "a reason") }' "$r/steps.tsv" >"$r/$f/results/$l.tsv"
    done
    printf '%s\tStudent %s <b>&\tgraded\t\n' "$f" "$i" >>"$r/students.tsv"
  done
  "$cls/outputs.sh" "$r" "Class <demo>, cpu backend"
  mkdir -p "$BATS_FILE_TMPDIR/empty" && echo '<!DOCTYPE html><html><body></body></html>' >"$BATS_FILE_TMPDIR/empty/page.html"
  shot "file://$r/class.html" "$BATS_FILE_TMPDIR/class.png"
  shot "file://$BATS_FILE_TMPDIR/empty/page.html" "$BATS_FILE_TMPDIR/blank.png"
}

# chrome ARGS...: headless Chromium (no sandbox of its own: it renders our pages, and runs as root in CI).
chrome() {
  timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
    --no-first-run --user-data-dir="$BATS_FILE_TMPDIR/profile" "$@" 2>/dev/null
}
# shot URL PNG: a 1000 x 1300 screenshot.
shot() { chrome --window-size=1000,1300 --screenshot="$2" "$1" >/dev/null; }
# measure PAGE_URL PNG: check-chart.html's line.
measure() {
  chrome --allow-file-access-from-files --virtual-time-budget=10000 --window-size=1000,1300 \
    --dump-dom "file://$WB_ROOT/tests/html/check-chart.html?page=$1&png=file://$2" | sed -n 's/.*<pre id="out">\([^<]*\).*/\1/p'
}

setup() {
  load lib/helpers
  command -v chromium >/dev/null 2>&1 || skip "chromium is not installed (apt-get install -y chromium): class.html not rendered"
  RUN=$BATS_FILE_TMPDIR/run
}

@test "the screenshot of class.html shows both charts: every sized bar in its colour where the page put it" {
  run bash -c 'head -c 8 "$1" | od -An -tx1 | tr -d " \n"' _ "$BATS_FILE_TMPDIR/class.png"
  assert_output 89504e470d0a1a0a
  # 10 bins of totals (two empty: 10% and 50%) and 17 steps (one bar per step; every step passed by someone).
  run measure "file://$RUN/class.html" "$BATS_FILE_TMPDIR/class.png"
  assert_output --regexp '^bars 27 sized 25 drawn 25 inked [0-9]+$'
  local inked=${output##* }
  assert [ "$inked" -ge 100 ]
}

@test "the measure can fail: a blank screenshot has none of the bars the page lays out" {
  run measure "file://$RUN/class.html" "$BATS_FILE_TMPDIR/blank.png"
  assert_output 'bars 27 sized 25 drawn 0 inked 0'
}

@test "the rendered page: the title and names escaped as text, the step not graded here marked" {
  run chrome --dump-dom "file://$RUN/class.html"
  assert_success
  assert_output --partial '<title>Class &lt;demo&gt;, cpu backend</title>'
  assert_output --partial 'Student 12 &lt;b&gt;&amp;'
  refute_output --partial '<b>&'
  assert_output --regexp 'class="bar off"[^>]*></rect><text[^>]*>[0-9]+% \(not graded here\)'
}
