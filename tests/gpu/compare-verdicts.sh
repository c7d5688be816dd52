#!/usr/bin/env bash
# compare-verdicts.sh CPU_FILE GPU_FILE: the submissions whose failed steps differ between the two backends,
# from verdicts.sh's files. A step the CPU backend cannot grade (needs-gpu) is left out of the GPU's list,
# and listed apart when it failed there. Ends with a count; exit status 1 when any differ.
set -euo pipefail
cpu=${1:?usage: compare-verdicts.sh CPU_FILE GPU_FILE}
gpu=${2:?usage: compare-verdicts.sh CPU_FILE GPU_FILE}
awk -F '\t' '
  NR == FNR { key = $1 FS $2 FS $3; failed[key] = $5; gpuonly[key] = $6; next }
  {
    key = $1 FS $2 FS $3; seen[key] = 1; total++
    if (!(key in failed)) { print "only on the GPU: " $1 " " $2 " " $3; differ++; next }
    n = split(gpuonly[key], g, " "); delete skip; for (i = 1; i <= n; i++) skip[g[i]] = 1
    n = split($5, f, " "); mine = ""; extra = ""
    for (i = 1; i <= n; i++) {
      if (f[i] in skip) extra = extra " " f[i]; else mine = mine (mine == "" ? "" : " ") f[i]
    }
    if (mine != failed[key]) {
      printf "%s %s %s: CPU failed [%s], GPU failed [%s]\n", $1, $2, $3, failed[key], mine; differ++
    }
    if (extra != "") printf "%s %s %s: failed GPU-only step(s)%s (expected step %s)\n", $1, $2, $3, extra, $4
  }
  END {
    for (key in failed) if (!(key in seen)) { print "only on the CPU backend: " key; differ++ }
    printf "%d of %d submissions differ\n", differ, total
    exit differ > 0
  }' "$cpu" "$gpu"
