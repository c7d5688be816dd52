#!/usr/bin/env bash
# Grades a whole class: every entry of CLASS_DIR is one student (a folder laid out like exercises/, a
# .tar, .tar.gz/.tgz or .zip, a git work tree or a bare repository; grader/class/unpack.sh). Writes a run
# folder (default build/class/CLASS/NN-YYYYmmdd-HHMMSS/, build/class/CLASS/latest its link; earlier runs
# are kept): gradebook.csv, scores.csv, class.html, run.log, and per student FOLDER/{report.txt,results.json,
# junit.xml}; prints each student's total. Then the class's course gradebook beside its runs (course.sh).
#   grade-class.sh CLASS_DIR [LESSON] [--jobs N] [--out DIR] [--force | --no-reuse] [--backend B] [--unsafe]
#                  [--scheduler local|slurm] [--chunk N] [--allow LIST]
#   grade-class.sh --upload DIR [LESSON] ...   one course platform's upload (grader/course/upload.sh): DIR
#                  alone is the class; not lesson-shaped, it is read for the lessons' files by their names
# --scheduler slurm: the gradings are a Slurm job array (grader/class/slurm-submit.sh: CHUNK students a task,
# at most JOBS tasks at once), and a job that waits for them writes the outputs (merge.sh).
# Students' code runs in the sandbox (grader/lib/sandbox.sh); where there is none, grading a class is
# refused unless --unsafe says that its code may read and write whatever the grader can. A student whose
# submission and grader are unchanged since an earlier run (same parent folder) is not graded again, but
# copied, when that result's seal verifies (grader/class/seal.py: an HMAC keyed with WB_CLASS_KEY, default
# $WB_BUILD/keys/results.key, made on first use); --force (or --no-reuse) grades everyone.
# Two entries that give one student name (alice/ and alice.zip) or one folder are both refused, loudly.
# --allow LIST: what the policy on lesson code lets through for the whole class (grader/policy/allowed); it is
# part of the grader's hash, so that a result graded under other allowances is never reused.
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export WB_ROOT
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"
# shellcheck source=grader/lib/sandbox.sh
. "$WB_ROOT/grader/lib/sandbox.sh"
# shellcheck source=grader/lib/backend.sh
. "$WB_ROOT/grader/lib/backend.sh"
cls=$WB_ROOT/grader/class
unsafe=0 jobs="" out="" force=0 upload="" backend=${BACKEND:-auto} scheduler=local chunk=1 args=()
while [ $# -gt 0 ]; do
  case $1 in
    --unsafe) unsafe=1; shift ;;
    --force | --no-reuse) force=1; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --scheduler) scheduler=$2; shift 2 ;;
    --chunk) chunk=$2; shift 2 ;;
    --upload) upload=$2; shift 2 ;;
    --allow) WB_ALLOW=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
set -- "${args[@]}"
# An upload is graded alone: its folder is the one entry, in the class of its parent folder.
[ -z "$upload" ] || { [ -d "$upload" ] && set -- "$(dirname "$upload")" "$@"; }
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: make grade CLASS=DIR [LESSON=N] [JOBS=N] [OUT=DIR] [FORCE=1] [UNSAFE=1]   (DIR/STUDENT, STUDENT.zip, ...)" >&2
  exit 2
fi
[ -z "$jobs" ] || [[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "error: JOBS must be a number of parallel gradings, not \"$jobs\"" >&2; exit 2; }
[[ $chunk =~ ^[1-9][0-9]*$ ]] || { echo "error: CHUNK must be a number of students per Slurm task, not \"$chunk\"" >&2; exit 2; }
case $scheduler in
  local) ;;
  slurm) command -v sbatch >/dev/null 2>&1 || { echo "error: SCHEDULER=slurm, but sbatch is not installed here (a Slurm client)" >&2; exit 2; } ;;
  *) echo "error: SCHEDULER must be local or slurm, not \"$scheduler\"" >&2; exit 2 ;;
esac
if ! sandbox_available && [ "$unsafe" = 0 ]; then
  echo "error: no sandbox here ($WB_SANDBOX_WHY): a class's code would run with the grader's rights; make grade UNSAFE=1 grades anyway" >&2
  exit 2
fi
class=$(cd "$1" && pwd)
if [ -n "${2:-}" ]; then ids=$(lesson_resolve "$2") || exit 2; else ids=$(lesson_ids); fi
"$WB_ROOT/grader/setup.sh" --quiet || exit 2
# The key that seals each result (grade-one.sh), on the instructor's machine, outside every class and run:
# student programs run in the sandbox, which does not show it. With Slurm the nodes share build/.
[ -x /usr/bin/python3 ] || { echo "error: make grade needs Debian's python3 to seal results (sudo apt-get install -y python3)" >&2; exit 2; }
WB_CLASS_KEY=${WB_CLASS_KEY:-$WB_BUILD/keys/results.key}
/usr/bin/python3 -I "$cls/seal.py" key "$WB_CLASS_KEY" || { echo "error: no key to seal the results with" >&2; exit 2; }
export WB_CLASS_KEY

# The backend is chosen, and what every grading shares built, once, before the gradings run in parallel.
# With Slurm and BACKEND=gpu the GPUs are the compute nodes', not this machine's: each task asks for one, and
# its grading checks it there.
if [ "$scheduler" = slurm ] && [ "$backend" = gpu ]; then
  WB_BACKEND=gpu WB_BACKEND_WHY="BACKEND=gpu: each Slurm task asks for a GPU (--gres=gpu:1)"
else
  backend_choose "$backend" || exit 2
fi
if [ "$WB_BACKEND" = none ]; then
  echo "error: nothing here can run the students' programs ($WB_BACKEND_WHY): every step but the compile would score 0" >&2
  exit 2
fi
if [ "$WB_BACKEND" = cpu ]; then
  "$WB_NVCC" --ensure-runtime >/dev/null || { echo "error: the CPU backend's runtime does not build" >&2; exit 2; }
elif [ "$WB_BACKEND" = gpu ] && [ "$scheduler" = local ]; then
  # shellcheck source=grader/lib/build.sh
  . "$WB_ROOT/grader/lib/build.sh"
  trace_object >/dev/null || exit 2
  trace_object cublas >/dev/null 2>&1 || true # only programs that use cuBLAS need it
fi
# JOBS: by default one grading per core on the CPU backend, and one at a time on a GPU. Gradings side by side
# on one GPU take turns where it matters (lib/gpu-turns.sh: a timed run, or one that fills device memory,
# runs alone), but sixteen at a time on the H100 have not yet given the CPU backend's verdicts everywhere.
jobs_asked=$jobs
if [ -z "$jobs" ]; then
  if [ "$WB_BACKEND" = gpu ]; then jobs=1; else jobs=$(nproc); fi
elif [ "$WB_BACKEND" = gpu ] && [ "$jobs" -gt 1 ] && [ "$scheduler" = local ]; then
  echo "note: JOBS=$jobs on one GPU: timed runs and runs that fill device memory take turns; the rest share the GPU" >&2
fi

# shellcheck source=grader/class/names.sh
. "$cls/names.sh"
# The run's folder: a new one each time, among the class's runs (class_runs: build/class/CLASS/), named by
# the lesson and the time (01-20261207-101500, "all" for every lesson); earlier runs beside it are kept,
# looked in for reuse, and merged into the class's course gradebook (course.sh).
if [ -z "$out" ]; then
  stamp=$(date +%Y%m%d-%H%M%S)
  tag=all
  [ -z "${2:-}" ] || tag=${ids%%-*}
  runs=$(class_runs "$class")
  out=$runs/$tag-$stamp
  # Two runs in one second: mkdir decides, the later one gets a suffix.
  until mkdir "$out" 2>/dev/null; do out=$runs/$tag-$stamp-$RANDOM; done
fi
# A run folder inside the class would be graded as one of its students, and the class's files would sit
# beside the results: refused.
case $(realpath -m -- "$out")/ in
  "$(realpath -- "$class")"/*) echo "error: OUT=$out is inside the class $class: put the results elsewhere" >&2; exit 2 ;;
esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
parent=$(dirname "$out")
if [ "$scheduler" = slurm ]; then
  # The tasks run elsewhere and later: their work area is in the run folder (on the shared file system).
  work=$out/work
  mkdir -p "$work"
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/cudawb-class.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
# shellcheck disable=SC2086 # ids are words
"$cls/steps.sh" "$WB_BACKEND" $ids >"$out/steps.tsv"
export WB_ALLOW=${WB_ALLOW:-}
export WB_CLASS_IDS=${ids//$'\n'/ } WB_CLASS_BACKEND=$WB_BACKEND WB_CLASS_WORK=$work WB_CLASS_PARENT=$parent \
  WB_CLASS_FORCE=$force WB_CLASS_UPLOAD=${upload:+1}
# shellcheck disable=SC2086 # ids are words
WB_CLASS_GRADER_HASH=$("$cls/hashes.sh" grader "$WB_BACKEND" $ids)
export WB_CLASS_GRADER_HASH

# One student per entry (hidden ones aside); its folder: the name made safe, and the sha256 of the entry's
# name (grader/class/names.sh).
# shellcheck source=grader/class/progress.sh
. "$cls/progress.sh"
entries=() names=() folders=()
while IFS= read -r -d '' e; do
  entries+=("$e") names+=("$(student_name "${e##*/}")") folders+=("$(student_folder "${e##*/}")")
done < <(if [ -n "$upload" ]; then printf '%s/%s\0' "$class" "$(basename "$upload")"; else
  find "$class" -mindepth 1 -maxdepth 1 ! -name '.*' -print0 | LC_ALL=C sort -z; fi)
total=${#entries[@]}
[ "$total" -gt 0 ] || { echo "error: $class holds no student" >&2; exit 2; }
# Two entries that give one student name (alice/, alice.zip and alice.tgz are all "alice"), or one folder:
# neither is graded over the other (one would overwrite the other's results, the gradebook keep one row).
# Each is refused, its row says which other entry is in the way, and so does stderr. Entries that give one
# folder (the whole sha256 of two names alike) get folders of their own, -refused-N.
declare -A by_name=() by_folder=()
for i in "${!entries[@]}"; do by_name[${names[i]}]+=" $i" by_folder[${folders[i]}]+=" $i"; done
# entry_shown I: entry I's file name as on a terminal, a folder's with a /.
entry_shown() {
  shown "${entries[$1]##*/}"
  [ -L "${entries[$1]}" ] || [ ! -d "${entries[$1]}" ] || printf /
}
# others I INDEX...: the entries but I, comma-separated.
others() {
  local i=$1 j list=""
  shift
  for j in "$@"; do [ "$j" = "$i" ] || list="$list, $(entry_shown "$j")"; done
  printf '%s' "${list#, }"
}
refused=()
for i in "${!entries[@]}"; do
  read -ra same <<<"${by_name[${names[i]}]}"
  [ "${#same[@]}" -lt 2 ] || refused[i]="another entry gives the same student name: $(others "$i" "${same[@]}"); keep one"
  read -ra same <<<"${by_folder[${folders[i]}]}"
  if [ "${#same[@]}" -ge 2 ]; then
    refused[i]="another entry's name gives the same folder (${folders[i]}): $(others "$i" "${same[@]}"); rename one"
    folders[i]=${folders[i]}-refused-$i
  fi
done
# The students, for the gradings and merge.sh: FOLDER NUL ENTRY NUL each (a name may hold any byte but NUL).
for i in "${!entries[@]}"; do printf '%s\0%s\0' "${folders[i]}" "${entries[i]}"; done >"$out/students.list"
# The refused ones' folders, written now: their gradings (here or in Slurm's tasks) leave them as they are.
for i in "${!refused[@]}"; do
  "$cls/grade-one.sh" --refuse "${refused[i]}" "${entries[i]}" "$out" "${folders[i]}"
  echo "warning: $(entry_shown "$i") is not graded: ${refused[i]}" >&2
done
lessons_graded="lesson ${ids%%-*}"
[ -n "${2:-}" ] || lessons_graded="all lessons"
title="Class $(basename "$class"), $lessons_graded, $(date '+%Y-%m-%d %H:%M'), $WB_BACKEND backend"
if [ "$scheduler" = slurm ]; then
  exec "$cls/slurm-submit.sh" "$out" "$title" "$chunk" "$jobs_asked" ${2:+"$2"}
fi
echo "backend: $WB_BACKEND ($WB_BACKEND_WHY); $total $( [ "$total" = 1 ] && echo entry || echo entries), $jobs at a time; results: $out" >&2

# JOBS gradings at a time, each in its own folders; a line on stderr as each one ends.
declare -A running=()
# Each grading is a process group of its own (setsid), so that an interrupted run stops all of them: their
# compiles and programs with them.
stop() {
  local p
  for p in "${!running[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
  echo "interrupted: $out is incomplete (its students without a hash file will be graded again)" >&2
  exit 130
}
trap stop INT TERM
start=$SECONDS done=0
finish() { # PID: that grading ended
  local i=${running[$1]}
  unset "running[$1]"
  done=$((done + 1))
  progress_line "$out/${folders[$i]}" "$done" "$total" "$((SECONDS - start))"
}
for i in "${!entries[@]}"; do
  while [ "${#running[@]}" -ge "$jobs" ]; do wait -n -p ended || true; finish "$ended"; done
  setsid "$cls/grade-one.sh" "${entries[$i]}" "$out" "${folders[$i]}" ${2:+"$2"} >/dev/null 2>"$work/${folders[$i]}.err" &
  running[$!]=$i
done
while [ "${#running[@]}" -gt 0 ]; do wait -n -p ended || true; finish "$ended"; done
progress_end
"$cls/merge.sh" "$out" "$work" "$title"
