"""seal.py: the seal that lets make grade believe an earlier result, and nothing else (grade-one.sh).

A result is sealed with an HMAC-SHA256, keyed with a secret that only the instructor's account can read
($WB_BUILD/keys/results.key, outside every class and upload folder; student programs run in a sandbox that
does not show it), over the submission's hash, the grader's hash and the result itself: its state, its
entry's name, report.txt and every file of results/ by name and content. A hash alone can be computed by
anyone who has the student release; the seal cannot be made without the key.

  seal.py key KEY                          makes KEY on first use: 32 bytes of /dev/urandom, the file 600
                                           in a folder made 700; refuses a KEY others could read
  seal.py sign KEY DIR SUB GRADER          writes DIR/seal, for the result in DIR
  seal.py take KEY FROM TO SUB GRADER      copies FROM's result (state, entry, report.txt, seal, results/)
                                           into the new folder TO, refusing links and anything but plain
                                           files and folders, then checks the seal of the copy: exit 0
                                           when it verifies; else TO is removed, exit 1 and why on stderr

Run by Debian's python3, isolated (/usr/bin/python3 -I): the environment and the current folder change
nothing. The key is read from its file, never passed on a command line.
"""
import hashlib
import hmac
import os
import shutil
import stat
import sys

RESULT = ("state", "entry", "report.txt")  # the files of a result, beside results/ and the seal
STATES = (b"graded\n", b"reused\n")  # the states of a result that can be reused
LIMIT = 64 << 20  # bytes a result may hold: more is not a result grade-one.sh wrote


class Refused(Exception):
    """A result that is not believed; its message says why."""


def read_key(path):
    """The key's bytes; a key that is a link, not a plain file, not the grader's own, or readable by
    others is refused (anyone who reads it can seal a forged result)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as e:
        raise Refused(f"cannot read the key {path}: {e.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused(f"the key {path} is not a plain file")
        if st.st_uid != os.geteuid() or st.st_mode & 0o077:
            raise Refused(f"the key {path} is not yours alone (chmod 600 it, or remove it: a new one is "
                          "made, and earlier results are graded again)")
        key = os.read(fd, 4096)
    finally:
        os.close(fd)
    if len(key) < 32:
        raise Refused(f"the key {path} holds {len(key)} bytes, not 32")
    return key


def make_key(path):
    """KEY on first use: its folder made 700 where it is missing, the key 600, linked into place at once
    (two runs that start together end with the same key)."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.lexists(path):
        os.makedirs(os.path.dirname(folder), exist_ok=True)
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
        tmp = os.path.join(folder, f".results.key.{os.getpid()}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            with open("/dev/urandom", "rb") as rnd:
                data = rnd.read(32)
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
    read_key(path)


def open_in(dir_fd, name, flags):
    return os.open(name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)


def copy_file(src_dir, name, dst, budget):
    """Copies the plain file NAME of the folder SRC_DIR (a descriptor) to DST; returns the bytes left."""
    st = os.stat(name, dir_fd=src_dir, follow_symlinks=False)
    if not stat.S_ISREG(st.st_mode):
        raise Refused(f"{name!r} is not a plain file")
    fd = open_in(src_dir, name, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Refused(f"{name!r} is not a plain file")
        out = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        try:
            while True:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                budget -= len(chunk)
                if budget < 0:
                    raise Refused("more than a result holds")
                os.write(out, chunk)
        finally:
            os.close(out)
    finally:
        os.close(fd)
    return budget


def copy_tree(src_dir, name, dst, budget):
    """Copies the folder NAME of SRC_DIR (a descriptor) to DST: plain files and folders only."""
    st = os.stat(name, dir_fd=src_dir, follow_symlinks=False)
    if not stat.S_ISDIR(st.st_mode):
        raise Refused(f"{name!r} is not a folder")
    fd = open_in(src_dir, name, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.mkdir(dst, 0o755)
        for entry in sorted(os.listdir(fd)):
            st = os.stat(entry, dir_fd=fd, follow_symlinks=False)
            target = os.path.join(dst, entry)
            if stat.S_ISDIR(st.st_mode):
                budget = copy_tree(fd, entry, target, budget)
            elif stat.S_ISREG(st.st_mode):
                budget = copy_file(fd, entry, target, budget)
            else:
                raise Refused(f"{name}/{entry!r} is a link or a special file")
    finally:
        os.close(fd)
    return budget


def read_plain(path):
    """The bytes of the plain file PATH."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Refused(f"{os.fsdecode(path)} is not a plain file")
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)


def fields(field, path, label):
    """The folder PATH's files by name and content, and its folders by name, in byte order; anything
    else (a link, a special file) is refused."""
    if not stat.S_ISDIR(os.lstat(path).st_mode):
        raise Refused(f"{label.decode(errors='replace')} is not a folder")
    field(b"folder", label)
    for name in sorted(os.listdir(path)):
        inner = os.path.join(path, name)
        mode = os.lstat(inner).st_mode
        if stat.S_ISDIR(mode):
            fields(field, inner, label + name + b"/")
        elif stat.S_ISREG(mode):
            field(b"file", label + name)
            field(b"content", read_plain(inner))
        else:
            raise Refused(f"{(label + name).decode(errors='replace')} is a link or a special file")


def seal(key, folder, sub, grader):
    """The seal of the result in FOLDER, hex: every field as its label and its content, each preceded by
    its length, so that no two different results give the same bytes."""
    mac = hmac.new(key, digestmod=hashlib.sha256)

    def field(label, data):
        for part in (label, data):
            mac.update(len(part).to_bytes(8, "big"))
            mac.update(part)

    field(b"seal", b"cuda memory workbook: a class result, version 1")
    field(b"submission", sub.encode())
    field(b"grader", grader.encode())
    for name in RESULT:
        field(name.encode(), read_plain(os.path.join(folder, name)))
    fields(field, os.path.join(os.fsencode(folder), b"results"), b"results/")
    return mac.hexdigest()


def take(key, src, dst, sub, grader):
    """Copies SRC's result into the new, empty folder DST, then believes it only if the copy's seal
    verifies."""
    try:
        src_fd = os.open(src, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as e:
        raise Refused(f"cannot open it: {e.strerror}") from None
    try:
        budget = LIMIT
        for name in RESULT + ("seal",):
            try:
                budget = copy_file(src_fd, name, os.path.join(dst, name), budget)
            except FileNotFoundError:
                raise Refused(f"it has no {name}") from None
        copy_tree(src_fd, "results", os.path.join(dst, "results"), budget)
    finally:
        os.close(src_fd)
    if read_plain(os.path.join(dst, "state")) not in STATES:
        raise Refused("its state is not graded or reused")
    want = read_plain(os.path.join(dst, "seal")).strip()
    if not hmac.compare_digest(want, seal(key, dst, sub, grader).encode()):
        raise Refused("its seal does not verify")


def main(argv):
    try:
        if len(argv) == 2 and argv[0] == "key":
            make_key(argv[1])
        elif len(argv) == 5 and argv[0] == "sign":
            key, folder, sub, grader = argv[1:]
            value = seal(read_key(key), folder, sub, grader)
            tmp = os.path.join(folder, ".seal.tmp")
            with open(tmp, "w", encoding="ascii") as out:
                out.write(value + "\n")
            os.replace(tmp, os.path.join(folder, "seal"))
        elif len(argv) == 6 and argv[0] == "take":
            key, src, dst, sub, grader = argv[1:]
            os.mkdir(dst, 0o755)  # new: a folder already there is an error, and is left as it is
            try:
                take(read_key(key), src, dst, sub, grader)
            except (Refused, OSError):
                shutil.rmtree(dst, ignore_errors=True)  # what take made, and nothing else
                raise
        else:
            print(__doc__.split("\n\n")[2], file=sys.stderr)
            return 2
    except Refused as e:
        print(e, file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{e.filename or ''}: {e.strerror}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
