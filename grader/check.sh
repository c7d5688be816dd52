#!/usr/bin/env bash
# Grades one lesson, or all of them: builds the student's code, runs the lesson's Bats grader, reports.
#   check.sh [LESSON] [--submission DIR] [--backend gpu|cpu|auto] [--results DIR] [--work DIR] [--allow LIST]
#            [--steps "N..."]
# LESSON: 1, 01 or 01-allocation; none grades every lesson and ends with a table. DIR/NN-slug/ holds
# the code to grade (default exercises/). LIST: what the policy on lesson code lets through, comma-separated
# (grader/policy/allowed; default $WB_ALLOW). --steps: those steps only, and step 1 (the build's verdict);
# the other steps keep their last results. Exit status 0 only when every step graded passed.
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export WB_ROOT
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"
# shellcheck source=grader/lib/backend.sh
. "$WB_ROOT/grader/lib/backend.sh"
# shellcheck source=grader/lib/sandbox.sh
. "$WB_ROOT/grader/lib/sandbox.sh"

lesson="" submission=$WB_ROOT/exercises backend=${BACKEND:-auto} results=$WB_BUILD/results work="" steps=""
while [ $# -gt 0 ]; do
  case $1 in
    --submission) submission=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --allow) WB_ALLOW=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "error: unknown option $1" >&2; exit 2 ;;
    *) lesson=$1; shift ;;
  esac
done

"$WB_ROOT/grader/setup.sh" --quiet || exit 2
if [ ! -d "$submission" ]; then
  echo "error: SUBMISSION=$submission is not a folder (it should hold NN-slug/ folders, like exercises/)" >&2
  exit 2
fi
submission=$(cd "$submission" && pwd)
# Only the student's own exercises/ feed `make progress` and `make hint`.
if [ "$results" = "$WB_BUILD/results" ] && [ "$submission" != "$WB_ROOT/exercises" ]; then
  results=$WB_BUILD/results-of/$(printf '%s' "$submission" | tr -c 'A-Za-z0-9._-' '_')
fi
# --steps: Bats runs only the tests of those steps (their names start "step N:").
filter=()
if [ -n "$steps" ]; then
  if [[ ! $steps =~ ^[0-9]+([\ ,][0-9]+)*$ ]]; then
    echo "error: STEP=$steps: give step numbers, like STEP=5 or STEP='2 5'" >&2
    exit 2
  fi
  filter=(-f "^step (1|${steps//[ ,]/|}):")
fi
if [ -n "$lesson" ]; then
  ids=$(lesson_resolve "$lesson") || exit 2
else
  ids=$(lesson_ids)
fi
backend_choose "$backend" || exit 2
cpu_runtime_ready || exit 2
mkdir -p "$WB_BUILD" "$results"
results=$(cd "$results" && pwd)
[ -z "$work" ] || { mkdir -p "$work" && work=$(cd "$work" && pwd); }
echo "backend: $WB_BACKEND ($WB_BACKEND_WHY)"
# What the policy on lesson code lets through (grader/policy/): said in the report, which it changes.
export WB_ALLOW=${WB_ALLOW:-}
[ -z "$WB_ALLOW" ] || echo "policy: ALLOW=$WB_ALLOW (let through by the instructor)"
# Tried once here, for every step of every lesson (the answer is exported).
sandbox_available || echo "note: no sandbox ($WB_SANDBOX_WHY): your code runs with your own rights"

# What the grader compares with must come out of the run unchanged; say so loudly if it did not.
fingerprint() { (cd "$WB_ROOT" && find grader kernels lessons -type f -print0 | sort -z | xargs -0 cksum); }
before=$(fingerprint)

status=0
table=""
# Each lesson's report, for its last line in the table: a file of this run's own, so that gradings run in
# parallel (make grade JOBS=N) do not write over each other's.
last=$(mktemp)
trap 'rm -f "$last"' EXIT
# Long steps say how far they are, on a terminal only (report.sh shows it on stderr).
[ -t 2 ] && export WB_PROGRESS=1
for id in $ids; do
  echo
  echo "lesson ${id%%-*} · $(lesson_title "$id") · $submission/$id/"
  export WB_LESSON=$id WB_SUBMISSION=$submission WB_WORK=${work:-$WB_BUILD/check/$WB_BACKEND}/$id
  rm -rf "$WB_WORK" && mkdir -p "$WB_WORK"
  # What the program printed reaches the report with its control characters made visible (an escape
  # sequence or a carriage return could repaint the screen over a FAIL line) and long lines cut.
  # The steps run in the lesson's work folder: nothing a grader writes by a relative name lands in the
  # repository.
  tsv=$results/$id.tsv
  if [ -n "$steps" ]; then
    echo "STEP=$steps: step(s) ${steps//[ ,]/, } graded alone (and step 1, the build); the other steps keep their last results"
    tsv=$results/$id.steps.tsv
  fi
  (cd "$WB_WORK" && bats --formatter "$WB_ROOT/grader/lib/bats-stream" "${filter[@]}" "$WB_ROOT/grader/$id.bats") 2>&1 |
    LC_ALL=C sed -u -e 's/\x1b/\\e/g' -e 's/\r/\\r/g' -e 's/[\x01-\x08\x0b-\x1f\x7f]/?/g' \
      -e 's/^\(.\{400\}\).\{1,\}$/\1 [cut]/' |
    "$WB_ROOT/grader/report.sh" "$id" "$tsv" | tee "$last" ||
    status=1
  if [ -n "$steps" ]; then
    # The steps graded now replace their rows; the others stay as the last grading left them.
    touch "$results/$id.tsv"
    awk -F '\t' 'NR == FNR { now[$1] = $0; next } !($1 in now) { print } END { for (k in now) print now[k] }' \
      "$tsv" "$results/$id.tsv" | sort -n >"$tsv.merged"
    mv "$tsv.merged" "$results/$id.tsv"
    rm -f "$tsv"
  fi
  table="$table$(tail -n 1 "$last")"$'\n'
done

if [ "$(fingerprint)" != "$before" ]; then
  echo "warning: the grader's own files changed during the run (grader/, kernels/ or lessons/): 'git status' shows which" >&2
  status=1
fi
if [ -z "$lesson" ]; then
  echo
  echo "summary ($WB_BACKEND backend):"
  printf '%s' "$table" | sed 's/^/  /'
fi
exit "$status"
