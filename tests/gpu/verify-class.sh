#!/usr/bin/env bash
# On a GPU machine: make grade with BACKEND=gpu on a small class that attacks the grading itself (tests/
# hostile/class/make-entry.sh) beside two honest students, so that the class-level verdicts can be compared
# with the CPU backend's (tests/hostile-class.bats). Prints run.log, the totals and whether any payload ran.
#   verify-class.sh OUTDIR
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: verify-class.sh OUTDIR}
mkdir -p "$out"
if [ -d "$root/.tools" ]; then
  export PATH=$root/.tools/bats/bin:$root/.tools/bin:$PATH BATS_LIB_PATH=$root/.tools/bats/lib/bats
fi
export WB_NO_INSTALL=1
work=$(mktemp -d)
c=$work/class mark=$work/MARK
mkdir -p "$c/alice" "$c/bob"
cp -R "$root/solutions/01-allocation" "$c/alice/"
cp -R "$root/exercises/01-allocation" "$c/bob/"
for e in lazy-fetch:lazy.git lazy-fetch:plain owner-space:bomb.tgz tree-bomb:tree.git many-entries:many.zip; do
  "$root/tests/hostile/class/make-entry.sh" "${e%%:*}" "$c/${e#*:}" "$mark" 2>/dev/null || echo "(could not make ${e#*:})"
done
start=$SECONDS
make -s -C "$root" grade CLASS="$c" LESSON=1 BACKEND=gpu OUT="$work/run" >"$out/class.out" 2>"$out/class.err"
echo "make grade: status $?, $((SECONDS - start)) s"
cut -f 2- "$work/run/run.log"
cat "$out/class.out"
if [ -e "$mark" ]; then echo "A PAYLOAD RAN: $mark exists"; else echo "no payload ran"; fi
cp "$work/run/run.log" "$work/run/gradebook.csv" "$out/" 2>/dev/null
rm -rf "$work"
