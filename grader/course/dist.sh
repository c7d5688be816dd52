#!/usr/bin/env bash
# Builds the student release, build/dist/cuda-memory-workbook/ and build/dist/cuda-memory-workbook.tar.gz:
# the release's files as committed (copy-release.sh: no solutions/, variants or rewrites, with the pristine copy
# make reset and make book use there), RELEASE.md saying what is in it and from which commit, and a GitHub
# Actions workflow (.github/workflows/check.yml) that runs make check on push with the CPU backend.
#   dist.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WB_ROOT=$(cd "$here/../.." && pwd)
dist=${WB_BUILD:-$WB_ROOT/build}/dist
rel=$dist/cuda-memory-workbook
rm -rf "$rel" "$rel.tar.gz"
from=$("$here/copy-release.sh" "$rel")
mkdir -p "$rel/.github/workflows"
cp "$here/dist/check.yml" "$rel/.github/workflows/check.yml"
{ cat "$here/dist/RELEASE.md"; printf '\nBuilt from %s.\n' "$from"; } >"$rel/RELEASE.md"
tar -C "$dist" -czf "$rel.tar.gz" cuda-memory-workbook
echo "built ${rel#"$WB_ROOT"/}/ and ${rel#"$WB_ROOT"/}.tar.gz from $from: $(find "$rel" -type f | wc -l) files, no solutions/ or variants"
