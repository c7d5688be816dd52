#!/usr/bin/env bash
# One task of make grade's Slurm job array (slurm-submit.sh): grades students SLURM_ARRAY_TASK_ID * CHUNK to
# (SLURM_ARRAY_TASK_ID + 1) * CHUNK - 1 of RUN/students.list, one after another, as grade-class.sh does
# (grade-one.sh, its stderr in RUN/work/FOLDER.err).
# Environment: WB_SLURM_CLS (grader/class/), WB_SLURM_RUN, WB_SLURM_CHUNK, WB_SLURM_LESSON, and
# grade-class.sh's WB_CLASS_*.
set -euo pipefail
run=$WB_SLURM_RUN first=$((SLURM_ARRAY_TASK_ID * WB_SLURM_CHUNK))
i=0
while IFS= read -r -d '' folder && IFS= read -r -d '' entry; do
  if [ "$i" -ge "$first" ] && [ "$i" -lt $((first + WB_SLURM_CHUNK)) ]; then
    echo "task $SLURM_ARRAY_TASK_ID: $folder"
    "$WB_SLURM_CLS/grade-one.sh" "$entry" "$run" "$folder" ${WB_SLURM_LESSON:+"$WB_SLURM_LESSON"} >/dev/null 2>"$run/work/$folder.err" </dev/null ||
      echo "task $SLURM_ARRAY_TASK_ID: the grading of $folder ended with status $?"
  fi
  i=$((i + 1))
done <"$run/students.list"
