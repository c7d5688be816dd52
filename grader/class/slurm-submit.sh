#!/usr/bin/env bash
# make grade SCHEDULER=slurm: submits RUN's students (RUN/students.list) as a Slurm job array, CHUNK students
# a task (slurm-task.sh; at most JOBS tasks at once when JOBS is given; a GPU each, --gres=gpu:1, on the gpu
# backend), then a job that waits for all of them, whatever their ends (--dependency=afterany), and writes
# the same outputs as a local run (merge.sh). Prints both job ids; the tasks' logs go to RUN/slurm/.
# The run folder and the workbook must be on a file system the compute nodes share.
#   slurm-submit.sh RUN TITLE CHUNK JOBS [LESSON]   (environment: grade-class.sh's WB_CLASS_*)
set -euo pipefail
cls=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$1 title=$2 chunk=$3 jobs=$4 lesson=${5:-}
n=$(tr -cd '\0' <"$run/students.list" | wc -c)
tasks=$(((n / 2 + chunk - 1) / chunk))
mkdir -p "$run/slurm"
opts=(--parsable --export=ALL --chdir="$run")
[ "$WB_CLASS_BACKEND" != gpu ] || opts+=(--gres=gpu:1)
# What the tasks need reaches them through the environment (sbatch --wrap runs its line with /bin/sh, which
# cannot quote every path bash can).
export WB_SLURM_CLS=$cls WB_SLURM_RUN=$run WB_SLURM_CHUNK=$chunk WB_SLURM_LESSON=$lesson WB_SLURM_TITLE=$title
# Only those, and what finds the tools, reach the jobs (sbatch --export=ALL hands them this environment): what
# else the submitter's shell holds (exported functions, which Slurm does not carry whole; a Bats run's own
# variables) has no business in a grading.
keep=(env -i)
for v in PATH HOME USER LANG LC_ALL TMPDIR SLURM_CONF BATS_LIB_PATH BACKEND "${!WB_@}"; do
  [ -z "${!v+set}" ] || keep+=("$v=${!v}")
done
# shellcheck disable=SC2016 # expanded by the task's shell, from the environment
array=$("${keep[@]}" sbatch "${opts[@]}" --job-name=wb-grade --array="0-$((tasks - 1))${jobs:+%$jobs}" --output="$run/slurm/task-%a.log" \
  --wrap='exec "$WB_SLURM_CLS/slurm-task.sh"') || { echo "error: sbatch refused the gradings' job array" >&2; exit 2; }
array=${array%%;*}
# shellcheck disable=SC2016 # expanded by the job's shell, from the environment
merge=$("${keep[@]}" sbatch "${opts[@]}" --job-name=wb-merge --dependency="afterany:$array" --output="$run/slurm/merge.log" \
  --wrap='"$WB_SLURM_CLS/merge.sh" "$WB_SLURM_RUN" "$WB_SLURM_RUN/work" "$WB_SLURM_TITLE" && rm -rf "$WB_SLURM_RUN/work"') ||
  { scancel "$array" 2>/dev/null || true; echo "error: sbatch refused the merging job (the array $array is cancelled)" >&2; exit 2; }
merge=${merge%%;*}
printf '%s\n%s\n' "$array" "$merge" >"$run/slurm/jobs"
echo "Slurm: job array $array ($tasks tasks, $chunk student(s) each) grades $((n / 2)) students; job $merge then writes the outputs"
echo "results: $run (the totals: $run/slurm/merge.log)"
