#!/usr/bin/env bash
# Unpacks one student's entry of a class into DEST, safely, and prints the folder that holds the
# NN-slug/ folders (DEST itself, or the one folder an archive wraps them in), with a slash after it.
#   unpack.sh ENTRY DEST [ID/FILE...]
# ENTRY: a folder laid out like exercises/, a .tar, .tar.gz/.tgz or .zip, a git repository's work tree (a
# folder with .git: its files as they are, .git left out) or a bare repository (its HEAD's tree). With
# ID/FILE... (a course platform's upload, grader/course/upload.sh), a folder that is not lesson-shaped is
# read for those files by name. Refused, with one line on stderr and status 1: absolute paths, ".."
# components, links, devices and other special files, more than WB_CLASS_MAX_FILES (2000) files and
# folders or WB_CLASS_MAX_MB (50) MiB unpacked, more than WB_CLASS_UNPACK_SECONDS (60) s, an archive that
# cannot be read, and an entry with nothing lesson-shaped inside.
# The entry is hostile input: unpack.py reads it inside the sandbox (grader/lib/sandbox.sh: no network, its
# own processes, only the entry, DEST and /usr in view), with Python's tarfile and zipfile and git reading
# objects only, counting files and bytes as it writes them, under a time limit and a file-size limit.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WB_ROOT=${WB_ROOT:-$(cd "$here/../.." && pwd)}
# shellcheck source=grader/lib/sandbox.sh
. "$WB_ROOT/grader/lib/sandbox.sh"
entry=$1 dest=$2
shift 2
max_files=${WB_CLASS_MAX_FILES:-2000} max_bytes=$((${WB_CLASS_MAX_MB:-50} << 20))
seconds=${WB_CLASS_UNPACK_SECONDS:-60}
refuse() { printf '%s\n' "$*" >&2; exit 1; }
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)

[ ! -L "$entry" ] || refuse "the entry is a symbolic link: put the folder or archive itself in the class"
entry=$(cd "$(dirname -- "$entry")" && pwd)/$(basename -- "$entry")
case $entry in
  *.tar | *.tar.gz | *.tgz) kind=tar ;;
  *.zip) kind=zip ;;
  *)
    # A bare repository as git knows one: HEAD, objects/ and refs/ (git itself is not asked: it would read
    # the folder's configuration).
    if [ -d "$entry" ] && [ -f "$entry/HEAD" ] && [ -d "$entry/objects" ] && [ -d "$entry/refs" ]; then kind=git
    elif [ -d "$entry" ] && [ $# -gt 0 ]; then kind=upload
    elif [ -d "$entry" ]; then kind=folder
    else kind=""
    fi ;;
esac
if [ -z "$kind" ] || { [ "$kind" != git ] && [ "$kind" != upload ] && [ "$kind" != folder ] && [ ! -f "$entry" ]; }; then
  refuse "not a folder, .tar, .tar.gz, .tgz, .zip or git repository"
fi

# The reader, in the sandbox where there is one. As root, the sandbox's user namespace maps its uid to the
# grader's (WB_SANDBOX_AS_NOBODY=0): the entry may be a folder nobody cannot read (an instructor's 700
# home), and what is written in DEST is the grader's; it still has no capability, no network and sees
# nothing but the entry, DEST, unpack.py and /usr.
# Debian's python3 first. (Not `command -v A B | head -n 1`: under pipefail head's early exit can kill
# the writer with SIGPIPE, about once in 300 under load, and the whole command with it.)
if [ -x /usr/bin/python3 ]; then py=/usr/bin/python3; else py=$(command -v python3 || true); fi
[ -n "$py" ] || refuse "python3 is not installed: the grader reads submissions with it (apt-get install -y python3)"
reader=("$py" -I -S "$here/unpack.py" "$kind" "$entry" "$dest" "$max_files" "$max_bytes" "$@")
if sandbox_available; then
  WB_SANDBOX_AS_NOBODY=0 sandbox_command reader --ro "$entry" --rw "$dest" --ro "$here/unpack.py" -- "${reader[@]}"
fi
err=$(mktemp)
trap 'rm -f "$err"' EXIT
status=0
timeout -k 5 "$seconds" prlimit --fsize="$((max_bytes + 1))" --core=0 -- "${reader[@]}" 2>"$err" || status=$?
case $status in
  0) ;;
  124 | 137) find "$dest" -mindepth 1 -delete; refuse "took too long to unpack: more than $seconds s" ;;
  153) find "$dest" -mindepth 1 -delete; refuse "too big: more than $((max_bytes >> 20)) MiB unpacked" ;;
  *) find "$dest" -mindepth 1 -delete
     why=$(grep -v '^\[' "$err" | tail -n 1 | tr -d '\r' | cut -c 1-300)
     # (A reader stopped without a word, by a signal say: its status is the only clue.)
     refuse "${why:-the reader stopped with status $status, saying nothing}" ;;
esac

# What is there now must be plain files and folders, within the limits.
bad=$(find "$dest" ! -type f ! -type d -print -quit)
[ -z "$bad" ] || { find "$dest" -mindepth 1 -delete; refuse "unsafe entry (a link, device or other special file): ${bad#"$dest"/}"; }
[ "$(find "$dest" -mindepth 1 -printf x | wc -c)" -le "$max_files" ] || { find "$dest" -mindepth 1 -delete; refuse "too many files and folders: more than $max_files"; }
chmod -R u+rwX,go+rX "$dest"

# The NN-slug/ folders: here, or in the one folder that wraps them (macOS's __MACOSX and .DS_Store aside).
root=$dest
for _ in 1 2; do
  if find "$root" -mindepth 1 -maxdepth 1 -type d -name '[0-9][0-9]-*' -print -quit | grep -q .; then
    printf '%s/\n' "$root" # the slash keeps a name that ends in a newline whole through $(...)
    exit 0
  fi
  mapfile -t top < <(find "$root" -mindepth 1 -maxdepth 1 ! -name __MACOSX ! -name .DS_Store)
  if [ ${#top[@]} -ne 1 ] || [ ! -d "${top[0]}" ]; then break; fi
  root=${top[0]}
done
refuse "nothing lesson-shaped inside: no NN-slug/ folder (like 01-allocation/) at the top or in its one folder"
