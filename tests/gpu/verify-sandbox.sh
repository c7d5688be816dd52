#!/usr/bin/env bash
# On a GPU machine, in one call of under ten minutes: does the sandbox keep the GPU usable? Every lesson's
# solution graded with BACKEND=gpu (all steps must pass, the timed ones included), every skeleton (step 1
# only may pass), then the hostile corpus (tests/hostile.bats) on the GPU backend.
# verify-sandbox.sh OUTDIR; writes OUTDIR/sandbox.log.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: verify-sandbox.sh OUTDIR}
mkdir -p "$out"
cd "$root" || exit 1
export WB_ROOT=$root
export PATH=$root/.tools/bats/bin:$root/.tools/bin:$PATH BATS_LIB_PATH=$root/.tools/bats/lib/bats WB_NO_INSTALL=1
{
  bash -c '. grader/lib/sandbox.sh; sandbox_available && echo "sandbox: yes (as nobody: $WB_SANDBOX_AS_NOBODY)" || echo "sandbox: no ($WB_SANDBOX_WHY)"'
  for tool in bwrap setpriv prlimit; do printf '%s: %s\n' "$tool" "$(command -v "$tool" || echo missing)"; done
  bash -c '. grader/lib/sandbox.sh; WB_MEMORY_MB=64 WB_MAX_PROCS=8 sandbox_cgroup_open g && echo "cgroup: $g" && sandbox_cgroup_close "$g" || echo "cgroup: none"'
  grader/check.sh --submission solutions --backend gpu | tail -n 6
  grader/check.sh --backend gpu | grep -E 'PASS|steps passed'
  BACKEND=gpu bats --tap tests/hostile.bats
} >"$out/sandbox.log" 2>&1
cat "$out/sandbox.log"
