#!/usr/bin/env bash
# Makes one hostile entry of a class, an attack on the grading itself rather than on a lesson
# (tests/hostile-class.bats, tests/unpack.bats). Built at test time: nothing live is committed.
#   make-entry.sh KIND PATH [MARK]
# KIND:
#   lazy-fetch     a bare repository that says it is a partial clone of a remote whose commands (core.sshCommand,
#                  remote.origin.uploadpack, core.fsmonitor, a hook) each create MARK; one blob of HEAD's tree is
#                  missing, so git asked for it fetches it by running those commands. PATH may lack .git: a plain
#                  folder that declares itself a bare repository.
#   owner-space    a .tar.gz whose owner name holds a space (GNU tar's verbose listing then shifts its size
#                  column) and a file of 60 MiB of zeros, past the 50 MiB limit: 60 KiB compressed
#   tree-bomb      a bare repository of 10 KiB whose HEAD lists 10^10 files (ten trees, each ten times the one
#                  below)
#   many-entries   a .zip of 3000 empty files
#   zip-link       a .zip whose alloc.cu is a symbolic link to /etc/passwd
set -euo pipefail
kind=$1 path=$2 mark=${3:-/nonexistent/mark}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g=(git -c user.name=t -c user.email=t@t -c init.defaultBranch=main -c protocol.file.allow=always)
lesson() { mkdir -p "$1/01-allocation" && printf '%s\n' "${2:-int main(void) { return 0; }}" >"$1/01-allocation/alloc.cu"; }

case $kind in
  lazy-fetch)
    lesson "$work/src" && (cd "$work/src" && "${g[@]}" init -q && "${g[@]}" add -A && "${g[@]}" commit -qm work)
    "${g[@]}" clone -q --bare "$work/src" "$path"
    blob=$(git --git-dir="$path" rev-parse HEAD:01-allocation/alloc.cu)
    git --git-dir="$path" repack -q -a -d
    # The blob leaves the pack: a new pack of everything else.
    git --git-dir="$path" rev-list --objects --all | grep -v "^$blob" | cut -d ' ' -f 1 |
      git --git-dir="$path" pack-objects -q "$path/objects/pack/rest" >/dev/null
    for p in "$path"/objects/pack/pack-*; do rm -f "$p"; done
    for p in "$path"/objects/pack/rest-*.pack; do touch "${p%.pack}.promisor"; done
    payload="touch '$mark'; exit 1"
    git --git-dir="$path" config extensions.partialClone origin
    git --git-dir="$path" config core.repositoryformatversion 1
    git --git-dir="$path" config remote.origin.url "ssh://grader.invalid/repo"
    git --git-dir="$path" config remote.origin.promisor true
    git --git-dir="$path" config core.sshCommand "$payload #"
    git --git-dir="$path" config remote.origin.uploadpack "$payload #"
    git --git-dir="$path" config core.fsmonitor "$payload #"
    mkdir -p "$path/hooks" && printf '#!/bin/sh\n%s\n' "$payload" >"$path/hooks/post-checkout" && chmod +x "$path/hooks/post-checkout"
    ;;
  owner-space)
    /usr/bin/python3 - "$path" <<'PY'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w:gz") as t:
    for name, data in (("01-allocation/alloc.cu", b"int main(void) { return 0; }\n"),
                       ("01-allocation/zeros", bytes(60 << 20))):
        i = tarfile.TarInfo(name)
        i.size, i.uname, i.gname = len(data), "a b", "c d"
        t.addfile(i, io.BytesIO(data))
PY
    ;;
  tree-bomb)
    git init -q --bare "$path"
    empty=$(git --git-dir="$path" hash-object -w --stdin </dev/null)
    t=$(for i in 0 1 2 3 4 5 6 7 8 9; do printf '100644 blob %s\tf%s\n' "$empty" "$i"; done | git --git-dir="$path" mktree)
    for _ in 1 2 3 4 5 6 7 8 9; do
      t=$(for i in 0 1 2 3 4 5 6 7 8 9; do printf '040000 tree %s\td%s\n' "$t" "$i"; done | git --git-dir="$path" mktree)
    done
    t=$(printf '040000 tree %s\t01-allocation\n' "$t" | git --git-dir="$path" mktree)
    c=$(git --git-dir="$path" -c user.name=t -c user.email=t@t commit-tree -m bomb "$t")
    git --git-dir="$path" update-ref refs/heads/main "$c"
    git --git-dir="$path" symbolic-ref HEAD refs/heads/main
    ;;
  many-entries)
    mkdir -p "$work/z/01-allocation" && (cd "$work/z/01-allocation" && touch f{0001..3000})
    (cd "$work/z" && zip -qr "$path" 01-allocation)
    ;;
  zip-link)
    mkdir -p "$work/z/01-allocation" && ln -s /etc/passwd "$work/z/01-allocation/alloc.cu"
    (cd "$work/z" && zip -qry "$path" 01-allocation)
    ;;
  *) echo "usage: make-entry.sh lazy-fetch|owner-space|tree-bomb|many-entries|zip-link PATH [MARK]" >&2; exit 2 ;;
esac
