# Lesson lookup, sourced by the grader's scripts. The lesson list is the set of chapters
# lessons/NN-slug.md: a lesson exists when its chapter does, and its title is the chapter's heading.

# shellcheck shell=bash
WB_ROOT=${WB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}

# Prints every lesson id (NN-slug), in order.
lesson_ids() {
  local f
  for f in "$WB_ROOT"/lessons/[0-9][0-9]-*.md; do
    [ -e "$f" ] || continue
    f=${f##*/}
    printf '%s\n' "${f%.md}"
  done
}

# Prints the id of lesson N ("1", "01" and "01-allocation" all work); fails with the valid list.
lesson_resolve() {
  local want=$1 id num
  if [[ $want =~ ^[0-9]+$ ]]; then
    num=$(printf '%02d' "$((10#$want))")
  else
    num=${want%%-*}
  fi
  for id in $(lesson_ids); do
    if [ "${id%%-*}" = "$num" ] && { [[ $want =~ ^[0-9]+$ ]] || [ "$id" = "$want" ]; }; then
      printf '%s\n' "$id"
      return 0
    fi
  done
  {
    printf 'error: there is no lesson "%s". The lessons are:\n' "$want"
    lesson_table
  } >&2
  return 1
}

# The chapter's title: its first "# " heading without the "{#anchor}".
lesson_title() {
  local line
  line=$(grep -m1 '^# ' "$WB_ROOT/lessons/$1.md")
  line=${line#\# }
  printf '%s\n' "${line%% \{*}"
}

# One line per lesson: "  LESSON=1   01-allocation   Device allocation".
lesson_table() {
  local id
  for id in $(lesson_ids); do
    printf '  LESSON=%-3s %-22s %s\n' "$((10#${id%%-*}))" "$id" "$(lesson_title "$id")"
  done
}

# The files a student edits in lesson ID: the sources of its skeleton, exercises/ID/ (not its Makefile).
lesson_sources() {
  local f
  for f in "$WB_ROOT/exercises/$1"/*.cu "$WB_ROOT/exercises/$1"/*.cuh "$WB_ROOT/exercises/$1"/*.[ch]; do
    [ -f "$f" ] && printf '%s\n' "${f##*/}"
  done
}

# The files a student edits in lessons ID..., as ID/FILE, one per line.
lesson_source_paths() {
  local id f
  for id in "$@"; do
    for f in $(lesson_sources "$id"); do printf '%s/%s\n' "$id" "$f"; done
  done
}
