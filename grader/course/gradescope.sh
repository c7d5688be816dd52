#!/usr/bin/env bash
# Builds build/gradescope/autograder.zip: Gradescope's setup.sh and run_autograder (grader/course/gradescope/),
# the workbook as students get it (copy-release.sh: the committed files, no solutions/, variants or rewrites)
# in workbook/, this machine's Bats in tools/bats, and the lesson graded in lesson (empty: every lesson).
#   gradescope.sh [LESSON]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WB_ROOT=$(cd "$here/../.." && pwd)
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"
lesson=""
[ -z "${1:-}" ] || lesson=$(lesson_resolve "$1") || exit 2
for t in /usr/bin/bats /usr/lib/bats-core /usr/libexec/bats-core /usr/lib/bats/bats-support /usr/lib/bats/bats-assert /usr/lib/bats/bats-file; do
  [ -e "$t" ] || { echo "error: $t is missing: the zip ships this machine's Bats (apt-get install -y bats bats-support bats-assert bats-file)" >&2; exit 2; }
done
command -v zip >/dev/null 2>&1 || { echo "error: zip is not installed (apt-get install -y zip)" >&2; exit 2; }
dest=${WB_BUILD:-$WB_ROOT/build}/gradescope
stage=$dest/autograder
rm -rf "$stage" "$dest/autograder.zip"
mkdir -p "$stage/tools/bats/bin" "$stage/tools/bats/lib/bats" "$stage/tools/bats/libexec"
from=$("$here/copy-release.sh" "$stage/workbook")
cp "$here/gradescope/setup.sh" "$here/gradescope/run_autograder" "$stage/"
printf '%s\n' "$lesson" >"$stage/lesson"
cp /usr/bin/bats "$stage/tools/bats/bin/"
cp -R /usr/lib/bats-core "$stage/tools/bats/lib/"
cp -R /usr/libexec/bats-core "$stage/tools/bats/libexec/"
cp -R /usr/lib/bats/bats-support /usr/lib/bats/bats-assert /usr/lib/bats/bats-file "$stage/tools/bats/lib/bats/"
(cd "$stage" && zip -qr -X ../autograder.zip .)
rm -rf "$stage"
echo "built ${dest#"$WB_ROOT"/}/autograder.zip (${lesson:-every lesson}) from $from: upload it as a Gradescope autograder (Ubuntu 22.04 base image)"
