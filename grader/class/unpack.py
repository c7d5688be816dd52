"""Reads one student's entry of a class into DEST, counting what it writes. unpack.sh runs it, inside
the sandbox where there is one; everything it reads is hostile input.

    unpack.py KIND SOURCE DEST MAX_ENTRIES MAX_BYTES [ID/FILE...]

KIND: tar (any compression Python reads), zip, folder (a repository's work tree: .git folders are left
out), git (a bare repository: HEAD's tree), or upload (a folder as a course platform hands it over:
lesson-shaped, it is read as a folder; otherwise each ID/FILE named is looked for by its file name, the
shallowest first, and written as DEST/ID/FILE).
Only plain files and folders are written, each with the grader's modes, never through a link; names with
an absolute path or a ".." are refused. MAX_ENTRIES counts the files and folders written, MAX_BYTES the
bytes: both are counted as they are written, never read from a listing. Refused: one line on stderr,
status 1, and DEST left empty.
Git: the repository is read through a new, empty repository of the grader's whose objects are the
student's (GIT_OBJECT_DIRECTORY), so that nothing of the student's configuration, hooks, attributes or
promisor settings takes effect: no command it names runs, nothing is fetched, no transport is allowed.
"""
import errno
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import zipfile

CHUNK = 1 << 16
SPECIAL = "unsafe entry (a link, device or other special file): "


class Refused(Exception):
    pass


class Writer:
    """Writes files and folders under DEST, counting them against the limits."""

    def __init__(self, dest, max_entries, max_bytes):
        self.dest, self.max_entries, self.max_bytes = dest, max_entries, max_bytes
        self.entries = self.bytes = 0
        self.made = set()

    def count(self):
        self.entries += 1
        if self.entries > self.max_entries:
            raise Refused("too many files and folders: more than %d" % self.max_entries)

    def folder(self, parts):
        for i in range(1, len(parts) + 1):
            sub = tuple(parts[:i])
            if sub in self.made:
                continue
            path = os.path.join(self.dest, *sub)
            if os.path.lexists(path) and not os.path.isdir(path):
                raise Refused("two entries named %s: a file and a folder" % "/".join(sub))
            self.count()
            os.makedirs(path, mode=0o755, exist_ok=True)
            self.made.add(sub)

    def file(self, parts, read):
        """Writes the file PARTS from READ(n), a function that returns at most n bytes, b"" at the end."""
        self.folder(parts[:-1])
        path = os.path.join(self.dest, *parts)
        if os.path.isdir(path):
            raise Refused("two entries named %s: a file and a folder" % "/".join(parts))
        if not os.path.lexists(path):
            self.count()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as out:
            while True:
                # One byte more than the limit allows is enough to know it is past it.
                block = read(min(CHUNK, self.max_bytes - self.bytes + 1))
                if not block:
                    break
                self.bytes += len(block)
                if self.bytes > self.max_bytes:
                    raise Refused("too big: more than %d MiB unpacked" % (self.max_bytes >> 20))
                out.write(block)


def parts_of(name, zip_name=False):
    """The components of an entry's name; refuses absolute paths, ".." and (zip) backslashes."""
    if name.startswith("/"):
        raise Refused("unsafe entry (an absolute path): " + name)
    if zip_name and "\\" in name:
        raise Refused("unsafe entry (a backslash, which unzip may read as a separator): " + name)
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise Refused("unsafe entry (a .. component): " + name)
    return parts


def read_tar(source, w):
    try:
        archive = tarfile.open(source, "r:*")
    except (tarfile.TarError, OSError, EOFError) as e:
        raise Refused("not a readable tar archive: %s" % e)
    with archive:
        while True:
            try:
                m = archive.next()
            except (tarfile.TarError, OSError, EOFError) as e:
                raise Refused("not a readable tar archive: %s" % e)
            if m is None:
                return
            parts = parts_of(m.name)
            if m.isdir():
                w.folder(parts)
            elif m.isreg() and parts:
                w.file(parts, archive.extractfile(m).read)
            else:
                raise Refused(SPECIAL + m.name)


def read_zip(source, w):
    try:
        archive = zipfile.ZipFile(source)
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as e:
        raise Refused("not a readable zip archive: %s" % e)
    with archive:
        for info in infos:
            parts = parts_of(info.filename, zip_name=True)
            mode = info.external_attr >> 16 if info.create_system == 3 else 0
            kind = stat.S_IFMT(mode)
            if info.is_dir() and kind in (0, stat.S_IFDIR):
                w.folder(parts)
            elif not info.is_dir() and kind in (0, stat.S_IFREG) and parts:
                try:
                    with archive.open(info) as f:
                        w.file(parts, f.read)
                except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError, EOFError) as e:
                    raise Refused("not a readable zip archive: %s: %s" % (info.filename, e))
            else:
                raise Refused(SPECIAL + info.filename)


def open_plain(path):
    """A plain file's descriptor, never through a link, never blocking on a FIFO put there since."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise Refused(SPECIAL + path)
    return fd


def walk(top, rel=()):
    """Every entry under TOP, depth first, as (parts, DirEntry); .git folders are left out."""
    with os.scandir(os.path.join(top, *rel)) as it:
        entries = sorted(it, key=lambda e: e.name)
    for e in entries:
        parts = rel + (e.name,)
        if e.name == ".git":
            continue
        yield parts, e
        if e.is_dir(follow_symlinks=False):
            yield from walk(top, parts)


def copy_file(path, parts, w):
    fd = open_plain(path)
    with os.fdopen(fd, "rb") as f:
        w.file(list(parts), f.read)


def read_folder(source, w):
    for parts, e in walk(source):
        if e.is_dir(follow_symlinks=False):
            w.folder(list(parts))
        elif e.is_file(follow_symlinks=False):
            copy_file(e.path, parts, w)
        else:
            raise Refused(SPECIAL + "/".join(parts))


def lesson_shaped(source):
    """A folder holding NN-slug/ folders, at its top or one folder down (nothing deeper is read)."""
    shaped = re.compile(r"[0-9][0-9]-")
    with os.scandir(source) as top:
        folders = [e for e in top if e.is_dir(follow_symlinks=False) and e.name != ".git"]
    for e in folders:
        if shaped.match(e.name):
            return True
    for e in folders:
        with os.scandir(e.path) as inner:
            if any(shaped.match(i.name) and i.is_dir(follow_symlinks=False) for i in inner):
                return True
    return False


def read_upload(source, w, wanted):
    if lesson_shaped(source):
        read_folder(source, w)
        return
    # Loose files: each wanted file name, the shallowest (then the first by path) of those found.
    by_name = {}
    for want in wanted:
        by_name.setdefault(want.split("/", 1)[1], []).append(want)
    found = {}
    seen = 0
    for parts, e in walk(source):
        seen += 1
        if seen > w.max_entries:
            raise Refused("too many files and folders: more than %d" % w.max_entries)
        if e.name in by_name and e.is_file(follow_symlinks=False):
            best = found.get(e.name)
            if best is None or (len(parts), parts) < (len(best[0]), best[0]):
                found[e.name] = (parts, e.path)
    for name, (parts, path) in sorted(found.items()):
        for want in by_name[name]:
            copy_file(path, want.split("/"), w)


def plain_file(path, limit):
    """The bytes of a small plain file of the repository, or None where there is none."""
    try:
        fd = open_plain(path)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise Refused("a bare repository whose %s is larger than %d bytes" % (os.path.basename(path), limit))
    return data


def read_git(source, w):
    for p in ("objects", "objects/info", "objects/info/alternates", "commondir"):
        if os.path.islink(os.path.join(source, p)):
            raise Refused("a bare repository whose %s is a link: git would read another repository's objects" % p)
    for p in ("objects/info/alternates", "objects/info/http-alternates", "commondir"):
        if os.path.lexists(os.path.join(source, p)):
            raise Refused("a bare repository with %s: git would read another repository's objects" % p)
    # The grader's own repository: HEAD and the one branch it names, the student's objects.
    repo = tempfile.mkdtemp(prefix="repo.")
    env = {"PATH": "/usr/bin:/bin", "HOME": repo, "LC_ALL": "C", "GIT_DIR": repo,
           "GIT_OBJECT_DIRECTORY": os.path.join(source, "objects"), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_NO_REPLACE_OBJECTS": "1", "GIT_NO_LAZY_FETCH": "1",
           "GIT_TERMINAL_PROMPT": "0", "GIT_ALLOW_PROTOCOL": "", "GIT_ATTR_NOSYSTEM": "1"}
    git = ["git", "-c", "protocol.allow=never", "-c", "core.fsmonitor=false", "-c", "safe.directory=*"]
    subprocess.run(git + ["init", "--quiet", "--bare", "--template=", repo], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    head = plain_file(os.path.join(source, "HEAD"), 4096)
    if head is None:
        raise Refused("a bare repository without a readable HEAD")
    ref = re.fullmatch(rb"ref: (refs/[A-Za-z0-9._/-]+)\n?", head)
    if ref and b".." not in ref.group(1) and b"//" not in ref.group(1):
        name = ref.group(1).decode()
        for f in (name, "packed-refs"):
            data = plain_file(os.path.join(source, f), 1 << 20)
            if data is not None:
                os.makedirs(os.path.dirname(os.path.join(repo, f)), exist_ok=True)
                with open(os.path.join(repo, f), "wb") as out:
                    out.write(data)
    elif not re.fullmatch(rb"[0-9a-f]{40}\n?", head):
        raise Refused("a bare repository whose HEAD is neither a branch nor a commit")
    with open(os.path.join(repo, "HEAD"), "wb") as out:
        out.write(head)

    # HEAD's tree, entry by entry, stopped as soon as there are more than the limit allows.
    files = []
    lister = subprocess.Popen(git + ["ls-tree", "-r", "-l", "-z", "--full-tree", "HEAD"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    pending = b""
    try:
        while True:
            block = lister.stdout.read(CHUNK)
            pending += block
            *records, pending = pending.split(b"\0")
            for r in records:
                meta, _, path = r.partition(b"\t")
                mode, kind, sha, size = meta.split()
                name = path.decode("utf-8", "surrogateescape")
                if mode not in (b"100644", b"100755") or kind != b"blob":
                    raise Refused(SPECIAL + name)
                if not size.isdigit():
                    raise Refused("a bare repository with a missing object: %s (%s)" % (sha.decode(), name))
                files.append((parts_of(name), sha.decode(), int(size)))
                if len(files) > w.max_entries:
                    raise Refused("too many files and folders: more than %d" % w.max_entries)
            if not block:
                break
    finally:
        lister.kill()
        lister.wait()
        err = lister.stderr.read().decode("utf-8", "replace").strip().splitlines()
    if lister.returncode not in (0, -9) or (not files and err):
        raise Refused("a bare repository without a readable HEAD: %s" % (err[0] if err else "git ls-tree failed"))
    if sum(f[2] for f in files) > w.max_bytes:
        raise Refused("too big: more than %d MiB unpacked" % (w.max_bytes >> 20))
    # Each blob through one git cat-file, its size as git reads it, its bytes counted as written.
    reader = subprocess.Popen(git + ["cat-file", "--batch"], env=env, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        for parts, sha, _ in files:
            reader.stdin.write(sha.encode() + b"\n")
            reader.stdin.flush()
            header = reader.stdout.readline().split()
            if len(header) != 3 or header[1] != b"blob":
                raise Refused("a bare repository with a missing object: %s (%s)" % (sha, "/".join(parts)))
            left = [int(header[2])]

            def read(n, left=left):
                n = min(n, left[0])
                data = reader.stdout.read(n) if n > 0 else b""
                left[0] -= len(data)
                return data
            w.file(parts, read)
            reader.stdout.read(1)  # the newline after each object
    finally:
        reader.kill()
        reader.wait()
    shutil.rmtree(repo, ignore_errors=True)


def main():
    kind, source, dest, max_entries, max_bytes, *wanted = sys.argv[1:]
    w = Writer(dest, int(max_entries), int(max_bytes))
    readers = {"tar": read_tar, "zip": read_zip, "folder": read_folder, "git": read_git}
    try:
        if kind == "upload":
            read_upload(source, w, wanted)
        else:
            readers[kind](source, w)
    except Refused as e:
        print(str(e).replace("\n", " "), file=sys.stderr)
        return 1
    except OSError as e:
        if e.errno == errno.EFBIG:  # the file-size limit unpack.sh sets, past MAX_BYTES
            print("too big: more than %d MiB unpacked" % (w.max_bytes >> 20), file=sys.stderr)
        else:
            print("could not be unpacked: %s" % e, file=sys.stderr)
        return 1
    except (subprocess.SubprocessError, UnicodeError, ValueError) as e:
        print("could not be unpacked: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    status = main()
    if status:
        # Nothing half-written is left: DEST is emptied (the folder itself stays, the caller's).
        dest = sys.argv[3]
        for name in os.listdir(dest):
            p = os.path.join(dest, name)
            shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.remove(p)
    sys.exit(status)
