#!/usr/bin/env bash
# A class's course gradebook, from every run of it (make grade writes them into build/class/CLASS/): for
# each student and lesson, the latest run that graded it (course.awk). Writes, beside the runs, course.tsv,
# gradebook.csv (student, total, maximum, a column per lesson and per step: ready for a spreadsheet, an
# LMS or Gradescope's CSV import) and course.html. merge.sh runs it after each run; `make gradebook` too.
#   course.sh RUNS_DIR|CLASS_DIR [TITLE]   (a class folder: its runs, build/class/CLASS/)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WB_ROOT=${WB_ROOT:-$(cd "$here/../.." && pwd)}
WB_BUILD=${WB_BUILD:-$WB_ROOT/build}
[ -d "${1:-}" ] || { echo "usage: make gradebook CLASS=DIR   (the class folder make grade graded, or a folder of its runs)" >&2; exit 2; }
dir=$(cd "$1" && pwd)
if [ -z "$(find "$dir" -mindepth 2 -maxdepth 2 -name class.tsv -print -quit)" ]; then
  # shellcheck source=grader/class/names.sh
  . "$here/names.sh"
  dir=$(class_runs "$dir")
fi
# The runs, oldest first (by when each one's class.tsv was written): later runs replace earlier results.
runs=() files=()
while IFS= read -r f; do
  files+=("$f") runs+=("$(basename "$(dirname "$f")")")
done < <(find "$dir" -mindepth 2 -maxdepth 2 -name class.tsv -printf '%T@ %p\n' | sort -n | cut -d' ' -f2-)
[ ${#files[@]} -gt 0 ] || { echo "error: no graded run of this class in $dir: make grade CLASS=$1 first" >&2; exit 2; }
for r in "${runs[@]}"; do
  [[ $r =~ ^[A-Za-z0-9._-]+$ ]] || { echo "error: a run's folder name is not plain: $r (rename it)" >&2; exit 2; }
done
a=(env LC_ALL=C awk -f "$here/escape.awk")
"${a[@]}" -f "$here/course.awk" -v runs="${runs[*]}" "${files[@]}" >"$dir/course.tsv.new"
mv "$dir/course.tsv.new" "$dir/course.tsv"
"${a[@]}" -v course=1 -f "$here/gradebook.awk" "$dir/course.tsv" >"$dir/gradebook.csv"
WB_CLASS_TITLE=${2:-"Course gradebook: $(basename "$dir"), ${#runs[@]} $([ ${#runs[@]} = 1 ] && echo run || echo runs), $(date '+%Y-%m-%d %H:%M')"} \
  "${a[@]}" -f "$here/course-html.awk" "$dir/course.tsv" >"$dir/course.html"
echo "course gradebook: ${dir#"$WB_ROOT"/}/gradebook.csv, course.html (${#runs[@]} $([ ${#runs[@]} = 1 ] && echo run || echo runs))"
