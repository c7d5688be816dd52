#!/usr/bin/env bash
# Stages the student release into DEST from the committed tree, never from the working tree: an instructor's
# solved exercises and notes stay out of what make dist, make gradescope and make book ship or render.
#   copy-release.sh [--solutions] [--content] DEST
#
# In a git checkout whose HEAD holds the workbook: HEAD's files (git archive). Elsewhere (the student release
# itself, or a commit-less git init of it): this folder's files but build/ and .git/. Either way, left out:
# solutions/ (kept with --solutions, for the instructor's book), tests/variants/, tests/rewrites/; and when the
# staged tree holds a pristine copy (grader/lib/pristine.sh; make dist ships one), its exercises, chapters and
# book sources replace the staged ones: in a student's course repository the commit holds their own work, and
# the book's listings and make reset want the exercises as released. DEST gets a fresh pristine copy.
#
# --content (book/build.sh): the warning names only what a book renders from the staged tree, the pristine
# copy's paths (and solutions/ with --solutions); the book's build itself runs from the working tree.
#
# Prints the source on stdout ("commit 1a2b3c4", or "this folder (not a git checkout)", and where the
# pristine copy was used ", exercises and chapters from its pristine.tar.gz"); warns on stderr when
# the working tree has modified or untracked files that are not shipped, naming a few.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WB_ROOT=$(cd "$here/../.." && pwd)
# shellcheck source=grader/lib/pristine.sh
. "$WB_ROOT/grader/lib/pristine.sh"
solutions=0 content=0
while [ $# -gt 1 ]; do
  case $1 in
    --solutions) solutions=1 ;;
    --content) content=1 ;;
    *) break ;;
  esac
  shift
done
[ $# -eq 1 ] || { echo "usage: copy-release.sh [--solutions] [--content] DEST" >&2; exit 2; }
mkdir -p "$1"
dest=$(cd "$1" && pwd)
cd "$WB_ROOT"

# shipped PATH: whether the release holds PATH (relative to the workbook).
shipped() {
  case $1 in
    solutions/*) [ "$solutions" = 1 ] ;;
    tests/variants/* | tests/rewrites/* | build/* | .git/*) return 1 ;;
    *) return 0 ;;
  esac
}

# watched PATH: whether a change to PATH is worth a warning (with --content, only what a book renders).
watched() {
  local p
  [ "$content" = 1 ] || return 0
  for p in "${PRISTINE_PATHS[@]}" solutions; do
    case $1 in "$p"/*) return 0 ;; esac
  done
  return 1
}

# warn_unshipped WHAT < "STATE<TAB>PATH" lines: one warning naming the first few.
warn_unshipped() {
  local what=$1 n=0 state path shown=""
  while IFS=$'\t' read -r state path; do
    n=$((n + 1))
    [ "$n" -gt 5 ] || shown+=$(printf '\n  %-10s %s' "$state" "$path")
  done
  [ "$n" -gt 0 ] || return 0
  [ "$n" -le 5 ] || shown+=$'\n'"  ... and $((n - 5)) more"
  printf 'warning: %s, without these changes (%d):%s\n' "$what" "$n" "$shown" >&2
}

# The working tree's changes against HEAD that a release would have shipped, as "STATE<TAB>PATH" lines.
git_changes() {
  local prefix entry code path
  prefix=$(git rev-parse --show-prefix)
  git status --porcelain=v1 -z --untracked-files=all -- . | while IFS= read -r -d '' entry; do
    code=${entry:0:2} path=${entry:3}
    # A rename or copy is followed by its source's path: skip it.
    case $code in R* | C*) IFS= read -r -d '' _ || true ;; esac
    path=${path#"$prefix"}
    if ! shipped "$path" || ! watched "$path"; then continue; fi
    case $code in
      '??') printf 'untracked\t%s\n' "$path" ;;
      *D*) printf 'deleted\t%s\n' "$path" ;;
      *) printf 'modified\t%s\n' "$path" ;;
    esac
  done
}

# The files of this folder under the pristine copy's paths that differ from DEST's (the release's) copies.
folder_changes() {
  local path f
  for path in "${PRISTINE_PATHS[@]}"; do
    [ -e "$path" ] || continue
    find "$path" -type f -print0 | LC_ALL=C sort -z | while IFS= read -r -d '' f; do
      if [ ! -f "$dest/$f" ]; then printf 'untracked\t%s\n' "$f"
      elif ! cmp -s "$f" "$dest/$f"; then printf 'modified\t%s\n' "$f"
      fi
    done
  done
}

excludes=(':(exclude)tests/variants' ':(exclude)tests/rewrites')
[ "$solutions" = 1 ] || excludes+=(':(exclude)solutions')
if git rev-parse --verify -q 'HEAD^{commit}' >/dev/null 2>&1 && git cat-file -e HEAD:./grader/check.sh 2>/dev/null; then
  from="commit $(git rev-parse --short HEAD)"
  git -c tar.umask=0022 archive --format=tar HEAD -- . "${excludes[@]}" | tar -C "$dest" -xf -
  git_changes | warn_unshipped "the working tree differs from $from; only the commit is used"
else
  from="this folder (not a git checkout)"
  find . \( -path ./build -o -path ./.git \) -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z |
    while IFS= read -r -d '' f; do
      ! shipped "$f" || printf '%s\0' "$f"
    done | tar --null -T - -cf - | tar -C "$dest" -xf -
fi
if [ -f "$dest/$PRISTINE_TAR" ]; then
  pristine_restore "$dest/$PRISTINE_TAR" "$dest"
  folder_changes | warn_unshipped "this folder's exercises or chapters differ from its $PRISTINE_TAR; only the release's pristine copy is used"
  from+=", exercises and chapters from its $PRISTINE_TAR"
elif [ "${from#commit}" = "$from" ]; then
  echo "warning: this folder is not a git checkout and has no $PRISTINE_TAR: its files are shipped as they are, edits and notes included" >&2
fi
pristine_write "$dest"
printf '%s\n' "$from"
