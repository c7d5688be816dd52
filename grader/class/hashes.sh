#!/usr/bin/env bash
# The hashes that say whether a student's results can be reused (sha256, hex):
#   hashes.sh grader BACKEND LESSON_ID...   what grades: grader/ (but grader/class/, which only writes
#                                            the outputs, grader/course/ and grader/bench/, which grade
#                                            nothing themselves), kernels/ and cpu/'s sources (build outputs
#                                            aside), the lesson ids, the backend and what the policy on
#                                            lesson code lets through ($WB_ALLOW)
#   hashes.sh submission DIR LESSON_ID...    what is graded: each lesson's own files in DIR/ID/ (the ones
#                                            check.sh takes), by name and content; a missing one as such
set -euo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=grader/lib/lessons.sh
. "$WB_ROOT/grader/lib/lessons.sh"
what=$1 dir=$2
shift 2
case $what in
  grader)
    {
      printf 'backend %s lessons %s allow %s\n' "$dir" "$*" "${WB_ALLOW:-}"
      cd "$WB_ROOT" && find grader kernels cpu \( -path grader/class -o -path grader/course -o -path grader/bench \) -prune -o \( -name build -o -name '*.o' -o -name '*.a' \) -prune -o -type f -print0 |
        LC_ALL=C sort -z | xargs -0 sha256sum
    } | sha256sum | cut -c 1-64 ;;
  submission)
    for id in "$@"; do
      for f in $(lesson_sources "$id"); do
        if [ -f "$dir/$id/$f" ] && [ ! -L "$dir/$id/$f" ]; then
          printf '%s/%s %s\n' "$id" "$f" "$(sha256sum <"$dir/$id/$f" | cut -c 1-64)"
        else
          printf '%s/%s missing\n' "$id" "$f"
        fi
      done
    done | sha256sum | cut -c 1-64 ;;
  *) echo "usage: hashes.sh grader|submission ..." >&2; exit 2 ;;
esac
