#!/usr/bin/env bash
set -u
export PATH=$PWD/.tools/bats/bin:$PWD/.tools/bin:$PATH BATS_LIB_PATH=$PWD/.tools/bats/lib/bats WB_NO_INSTALL=1
cpu/bin/nvcc-cpu --ensure-runtime >/dev/null 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p $OUT/rep
start=$(date +%s)
REPORTS=$OUT/rep REGRADE="$1" timeout "$3" tests/gpu/verdicts.sh gpu $OUT/v.tsv "$2"
echo "elapsed $(( $(date +%s) - start )) s"; cat $OUT/v.tsv $OUT/v.tsv.part 2>/dev/null
