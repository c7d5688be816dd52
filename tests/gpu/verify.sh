#!/usr/bin/env bash
# Verifies the whole workbook on a real GPU. The device tool allows 10 minutes a command, and the full
# suite alone took 9 min 49 s on an H200, so the work comes in parts, one call each:
#   verify.sh OUTDIR lessons   doctor, the measurements (tests/gpu/measure-*.cu), every lesson's solution
#                              and skeleton, and the messages of two lesson 01 variants   (~2.5 min)
#   verify.sh OUTDIR suite     make test BACKEND=gpu                                       (~10 min)
#   verify.sh OUTDIR compare   the CPU backend's conformance programs built with the real nvcc (~1 min)
# Needs .tools/ from pack-tools.sh (carried along); writes its logs to OUTDIR.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: verify.sh OUTDIR lessons|suite|compare}
part=${2:?usage: verify.sh OUTDIR lessons|suite|compare}
mkdir -p "$out"
cd "$root" || exit 1
export PATH=$root/.tools/bats/bin:$root/.tools/bin:$PATH BATS_LIB_PATH=$root/.tools/bats/lib/bats WB_NO_INSTALL=1
# shellcheck source=grader/lib/lessons.sh
. grader/lib/lessons.sh

lessons() {
  make -s doctor >"$out/doctor.log" 2>&1
  # The facts the lessons rely on beyond facts/gpu-facts.md, measured by tests/gpu/measure-*.cu.
  mkdir -p /tmp/measure
  for src in tests/gpu/measure-*.cu; do
    name=$(basename "$src" .cu)
    echo "== $name" >>"$out/measure.log"
    nvcc -arch=native -I kernels -o "/tmp/measure/$name" "$src" >>"$out/measure.log" 2>&1 || continue
    if [ "$name" = measure-errors ]; then
      for c in delay launch oob assert; do timeout 60 "/tmp/measure/$name" "$c"; echo "rc=$?"; done
      echo "-- assert line on stdout:"; timeout 60 "/tmp/measure/$name" assert 2>/dev/null | grep -i assertion
    else
      timeout 120 "/tmp/measure/$name"; echo "rc=$?"
    fi >>"$out/measure.log" 2>&1
  done
  for id in $(lesson_ids); do
    n=$((10#${id%%-*}))
    { make -s check LESSON="$n" SUBMISSION=solutions BACKEND=gpu; echo "exit status: $?"
      make -s check LESSON="$n" BACKEND=gpu; echo "exit status: $?"; } >>"$out/lessons.log" 2>&1
  done
  # What a student sees for two typical mistakes (the messages, not only the verdicts).
  for variant in forgot-to-free no-cleanup-on-error-path; do
    rm -rf /tmp/verify-sub && mkdir -p /tmp/verify-sub && cp -R solutions/01-allocation /tmp/verify-sub/
    patch -s -p1 -d /tmp/verify-sub/01-allocation <"tests/variants/01-allocation/$variant.patch"
    { echo "== variant $variant"; grader/check.sh 1 --submission /tmp/verify-sub --backend gpu \
      --results /tmp/verify-results --work /tmp/verify-work; } >>"$out/lessons.log" 2>&1
  done
}

case $part in
  lessons) lessons ;;
  suite) (time BACKEND=gpu tests/run.sh) >"$out/test.log" 2>&1 ;;
  compare)
    cpu/tests/gpu-compare.sh "$out/cpu-compare" >"$out/cpu-compare.log" 2>&1
    tar -C "$out" -czf "$out/cpu-compare.tgz" cpu-compare && rm -rf "$out/cpu-compare" ;;
  *) echo "usage: verify.sh OUTDIR lessons|suite|compare" >&2; exit 2 ;;
esac
tail -n 3 "$out"/*.log
