#!/usr/bin/env bash
# import.sh CUDA_SAMPLES_GIT_DIR: copies into cuda-samples/ the sources of every program programs.tsv lists,
# the helper headers of Common/ they include, and the samples' license, from a clone of
# github.com/NVIDIA/cuda-samples (its git directory: the files are read from its HEAD). Run by hand when the
# corpus changes; what it copies is committed, so that the corpus builds without a network.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
git_dir=${1:?usage: import.sh CUDA_SAMPLES_GIT_DIR}
dest=$here/cuda-samples
rm -rf "$dest" && mkdir -p "$dest/Common"
show() { git --git-dir "$git_dir" show "HEAD:$1"; }
show LICENSE >"$dest/LICENSE"
# The helper headers a sample may include (helper_functions.h includes the rest).
for h in helper_cuda.h helper_functions.h helper_image.h helper_math.h helper_string.h helper_timer.h exception.h; do
  show "Common/$h" >"$dest/Common/$h"
done
# Sources and input data only: no project files, documents or images.
grep -v '^#' "$here/programs.tsv" | cut -f2 | while read -r folder; do
  git --git-dir "$git_dir" ls-tree -r --name-only HEAD "Samples/$folder/" | grep -E '\.(cu|cuh|h|hpp|cpp|c|dat)$' |
    while read -r f; do
      mkdir -p "$dest/$(dirname "$f")"
      show "$f" >"$dest/$f"
    done
done
printf 'imported from %s at %s\n' "github.com/NVIDIA/cuda-samples" "$(git --git-dir "$git_dir" rev-parse HEAD)" >"$dest/IMPORTED"
