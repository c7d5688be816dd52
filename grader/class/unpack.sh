#!/usr/bin/env bash
# Unpacks one student's entry of a class into DEST, safely, and prints the folder that holds the
# NN-slug/ folders (DEST itself, or the one folder an archive wraps them in), with a slash after it.
#   unpack.sh ENTRY DEST
# ENTRY: a folder laid out like exercises/, a .tar, .tar.gz/.tgz or .zip, a git repository's work tree (a
# folder with .git: its files as they are, .git left out) or a bare repository (its HEAD's tree). Refused,
# with one line on stderr and status 1: absolute paths, ".." components, links, devices and other
# special files, more than WB_CLASS_MAX_FILES (2000) files and folders or WB_CLASS_MAX_MB (50) MiB unpacked, an
# archive its tool cannot read, and an entry with nothing lesson-shaped inside. Archives are listed
# before anything is written; what was unpacked is checked again after.
set -euo pipefail
entry=$1 dest=$2
max_files=${WB_CLASS_MAX_FILES:-2000} max_bytes=$((${WB_CLASS_MAX_MB:-50} << 20))
refuse() { printf '%s\n' "$*" >&2; exit 1; }
mkdir -p "$dest"

# check_listing [zip]: stdin is "TYPE SIZE NAME" lines (TYPE - for a file, d for a folder, another letter for
# anything else); refuses what is unsafe and what is too big.
check_listing() {
  LC_ALL=C awk -v max_files="$max_files" -v max_bytes="$max_bytes" -v zip="${1:-}" '
    { type = $1; size = $2; name = $0; sub(/^[^ ]+ [^ ]+ /, "", name)
      if (type != "-" && type != "d") { print "unsafe entry (a link, device or other special file): " name; exit 1 }
      if (name ~ /^\//) { print "unsafe entry (an absolute path): " name; exit 1 }
      if (zip && name ~ /\\/) { print "unsafe entry (a backslash, which unzip may read as a separator): " name; exit 1 }
      if (("/" name "/") ~ /\/\.\.\//) { print "unsafe entry (a .. component): " name; exit 1 }
      files++; if (type == "-") bytes += size
      if (files > max_files) { print "too many files and folders: more than " max_files; exit 1 }
      if (bytes > max_bytes) { print "too big: more than " max_bytes / 1048576 " MiB unpacked"; exit 1 } }'
}
# first_line FILE: the first line a tool wrote, for a reason.
first_line() { grep -v "^\[" "$1" | head -n 1 | tr -d "\r" | sed "s/^ *//" | cut -c 1-200; }

err=$(mktemp)
trap 'rm -f "$err"' EXIT
[ ! -L "$entry" ] || refuse "the entry is a symbolic link: put the folder or archive itself in the class"
case $entry in
  *.tar | *.tar.gz | *.tgz)
    # Types and sizes from the verbose listing, names from the plain one (GNU tar escapes a newline as \n).
    if ! { tar -tvf "$entry" >"$err.v" 2>"$err" && tar -tf "$entry" >"$err.n" 2>>"$err"; }; then
      rm -f "$err.v" "$err.n"
      refuse "not a readable tar archive: $(first_line "$err")"
    fi
    why=$(paste -d ' ' <(awk '{ t = substr($1, 1, 1); s = ($3 ~ /^[0-9]+$/) ? $3 : 0; print t, s }' "$err.v") "$err.n" |
      check_listing) || { rm -f "$err.v" "$err.n"; refuse "$why"; }
    rm -f "$err.v" "$err.n"
    tar -xf "$entry" -C "$dest" --no-same-owner --no-same-permissions 2>"$err" ||
      refuse "the tar archive could not be unpacked: $(first_line "$err")"
    ;;
  *.zip)
    if ! { unzip -Z1 "$entry" >"$err.n" 2>"$err" && unzip -Z -s "$entry" >"$err.v" 2>>"$err" && unzip -tqq "$entry" >>"$err" 2>&1; }; then
      rm -f "$err.v" "$err.n"
      refuse "not a readable zip archive: $(first_line "$err")"
    fi
    # zipinfo's short listing: one line per entry, a header and a totals line around them.
    why=$(paste -d ' ' <(awk 'NR > 2 && $0 !~ /^[0-9]+ files?, / { t = substr($1, 1, 1); print t, $4 }' "$err.v") "$err.n" |
      check_listing zip) || { rm -f "$err.v" "$err.n"; refuse "$why"; }
    rm -f "$err.v" "$err.n"
    unzip -qq -n "$entry" -d "$dest" >"$err" 2>&1 || refuse "the zip archive could not be unpacked: $(first_line "$err")"
    ;;
  *)
    if [ -d "$entry" ] && [ "$(git -c safe.directory='*' --git-dir="$entry" rev-parse --is-bare-repository 2>/dev/null)" = true ]; then
      # A bare repository: HEAD's tree, read blob by blob (git archive would run the repository's own
      # filters, which its config may point at any command). Its objects must be its own: alternates, a
      # commondir or a linked objects folder would make git read another repository on the grader's disk
      # (another student's, the solutions'), and so would the environment's object directories.
      for p in objects objects/info objects/info/alternates commondir; do
        [ ! -L "$entry/$p" ] || refuse "a bare repository whose $p is a link: git would read another repository's objects"
      done
      [ ! -e "$entry/objects/info/alternates" ] ||
        refuse "a bare repository with objects/info/alternates: git would read another repository's objects"
      [ ! -e "$entry/commondir" ] || refuse "a bare repository with a commondir file: git would read another repository's objects"
      g=(env -u GIT_ALTERNATE_OBJECT_DIRECTORIES -u GIT_OBJECT_DIRECTORY -u GIT_COMMON_DIR -u GIT_DIR
        git -c safe.directory='*' --git-dir="$entry")
      "${g[@]}" ls-tree -r -l -z HEAD >"$err.t" 2>"$err" || { rm -f "$err.t"; refuse "a bare repository without a readable HEAD: $(first_line "$err")"; }
      why=$(tr '\0' '\n' <"$err.t" | awk '{ name = $0; sub(/^[^\t]*\t/, "", name)
          t = ($1 == "100644" || $1 == "100755") ? "-" : "l"; print t, $4, name }' | check_listing) ||
        { rm -f "$err.t"; refuse "$why"; }
      while IFS= read -r -d '' line; do
        path=${line#*$'\t'} meta=${line%%$'\t'*}
        read -r _ _ sha _ <<<"$meta"
        mkdir -p "$dest/$(dirname -- "$path")"
        "${g[@]}" cat-file blob "$sha" >"$dest/$path"
      done <"$err.t"
      rm -f "$err.t"
    elif [ -d "$entry" ]; then
      # A folder, or a repository's work tree (.git left out): links and special files are refused.
      # (find runs inside it: the entry's own name may hold glob characters, which -path would read.)
      bad=$(cd "$entry" && find . -path ./.git -prune -o ! -type f ! -type d -print -quit)
      [ -z "$bad" ] || refuse "unsafe entry (a link, device or other special file): ${bad#./}"
      n=$(cd "$entry" && find . -mindepth 1 -path ./.git -prune -o -printf x | wc -c)
      [ "$n" -le "$max_files" ] || refuse "too many files and folders: more than $max_files"
      bytes=$(cd "$entry" && find . -path ./.git -prune -o -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
      [ "$bytes" -le "$max_bytes" ] || refuse "too big: more than $((max_bytes >> 20)) MiB"
      { tar -C "$entry" --exclude=./.git -cf - . | tar -C "$dest" -xf - --no-same-owner; } 2>"$err" ||
        refuse "the folder could not be copied: $(first_line "$err")"
    else
      refuse "not a folder, .tar, .tar.gz, .tgz, .zip or git repository"
    fi
    ;;
esac

# What is there now must be what the listing promised: plain files and folders, within the limits.
bad=$(find "$dest" ! -type f ! -type d -print -quit)
[ -z "$bad" ] || { rm -rf "$dest"; refuse "unsafe entry (a link, device or other special file): ${bad#"$dest"/}"; }
[ "$(find "$dest" -mindepth 1 -printf x | wc -c)" -le "$max_files" ] || { rm -rf "$dest"; refuse "too many files and folders: more than $max_files"; }
chmod -R u+rwX,go+rX "$dest"

# The NN-slug/ folders: here, or in the one folder that wraps them (macOS's __MACOSX and .DS_Store aside).
root=$dest
for _ in 1 2; do
  if find "$root" -mindepth 1 -maxdepth 1 -type d -name '[0-9][0-9]-*' | grep -q .; then
    printf '%s/\n' "$root" # the slash keeps a name that ends in a newline whole through $(...)
    exit 0
  fi
  mapfile -t top < <(find "$root" -mindepth 1 -maxdepth 1 ! -name __MACOSX ! -name .DS_Store)
  if [ ${#top[@]} -ne 1 ] || [ ! -d "${top[0]}" ]; then break; fi
  root=${top[0]}
done
refuse "nothing lesson-shaped inside: no NN-slug/ folder (like 01-allocation/) at the top or in its one folder"
