"""What lesson code may contain, checked before the link on the student's own sources and on the objects compiled
from them (grader/README.md, "The policy"). build.sh runs it in the sandbox; everything it reads is the student's.

    policy.py --allowed FILE --traced FILE --root WB_ROOT [--allow LIST] SOURCE... -- OBJECT...

SOURCE: the student's files as the grader copied them; OBJECT: what the compiler made of them; LIST: the names and
constructs an instructor lets through (comma-separated; `all`: everything). Prints one line per construct refused,
`policy: WHAT at FILE:LINE: WHY; an instructor can allow it: ALLOW=NAME`, and exits 1; exits 0 when the code
passes; 2 on a usage error.

The sources are read as text the way the C preprocessor would tokenize them (line splices, comments, string
literals), never through the preprocessor, so that no #if hides a token from it: a #line directive or line marker,
inline assembly, token pasting, a section attribute, #pragma redefine_extname and the names the compilers generate
are refused where the student wrote them. The objects are read as ELF by this file (no tool's text output carries
a name chosen by the student): the names they import and define, their sections, their constructors; objdump's
disassembly only for system call instructions, addr2line only for the line a finding comes from.
"""
import bisect
import fnmatch
import os
import re
import struct
import subprocess
import sys

MAX_LINES = 12  # refusals printed; the rest are counted


def printable(text):
    """A name as the report may show it: control characters and non-ASCII bytes escaped, at most 120 chars."""
    out = "".join(c if " " <= c <= "~" else "\\x%02x" % (ord(c) & 0xFF) for c in text)
    return out if len(out) <= 120 else out[:117] + "..."


class Patterns:
    """Names and patterns (`*`: any run of characters), each with a value: a reason, or True."""

    def __init__(self):
        self.exact, self.globs = {}, []

    def add(self, pattern, value):
        if "*" in pattern:
            rx = re.compile("(?s:%s)\\Z" % ".*".join(re.escape(part) for part in pattern.split("*")))
            self.globs.append((rx, value))
        else:
            self.exact.setdefault(pattern, value)

    def find(self, name):
        if name in self.exact:
            return self.exact[name]
        for rx, value in self.globs:
            if rx.match(name):
                return value
        return None


class Policy:
    """The allowed file: allowed names, refused names with reasons, names the source may not spell; the calls
    the trace records; what the instructor lets through."""

    def __init__(self, path, traced_path, allow):
        self.allowed, self.refused, self.unspellable = Patterns(), Patterns(), Patterns()
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                if line[0] in "!@":
                    name, _, reason = line[1:].partition(" ")
                    (self.refused if line[0] == "!" else self.unspellable).add(
                        name, reason.strip() or "refused by grader/policy/allowed")
                else:
                    self.allowed.add(line, True)
        with open(traced_path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    self.allowed.add(line.strip(), True)
                    if line.strip().endswith("_v2"):  # cuBLAS's names as programs write them
                        self.allowed.add(line.strip()[:-3], True)
        self.allow = Patterns()
        for name in (allow or "").split(","):
            if name:
                self.allow.add(name, True)
        self.everything = self.allow.find("all") is not None

    def let_through(self, *names):
        """True when the instructor's ALLOW names one of the names."""
        return self.everything or any(n and self.allow.find(n) for n in names)

    def import_verdict(self, name):
        """None when NAME may be imported, else the reason it may not."""
        reason = self.refused.find(name)
        if reason:
            return reason
        if self.allowed.find(name):
            return None
        return "not among the functions the lessons use (grader/policy/allowed)"


# --- the sources -----------------------------------------------------------------------------------------------

TOKEN = re.compile(r"""
    (?P<nl>\n)
  | (?P<ws>[ \t\f\v\0]+)
  | (?P<lc>//[^\n]*)
  | (?P<bc>/\*.*?(?:\*/|\Z))
  | (?P<raw>(?:u8|u|U|L)?R"(?P<delim>[^ ()\\\t\v\f\n"]{0,16})\()
  | (?P<str>(?:u8|u|U|L)?"(?:[^"\\\n]|\\.)*"?)
  | (?P<num>\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*)
  | (?P<chr>(?:u8|u|U|L)?'(?:[^'\\\n]|\\.)*'?)
  | (?P<id>(?:[A-Za-z_$\x80-\xff]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})
            (?:[A-Za-z0-9_$\x80-\xff]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*)
  | (?P<paste>\#\#|%:%:)
  | (?P<hash>\#|%:)
  | (?P<punct>.)
""", re.X | re.S)
SPLICE = re.compile(r"\\[ \t\f\v]*\r?\n")
ASM = {"asm", "__asm", "__asm__"}
ATTRIBUTE = {"__attribute__", "__attribute"}
SECTION = {"section", "__section__"}
INCLUDE = {"include", "include_next", "import"}


class Source:
    """One of the student's files, as the preprocessor's first phases see it."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            original = f.read().decode("latin-1")
        # As GCC reads a file: a UTF-8 byte order mark at its start is skipped, CR LF and a lone CR end a line
        # (so does LF), a NUL is white space.
        if original.startswith("\xef\xbb\xbf"):
            original = original[3:]
        original = original.replace("\r\n", "\n").replace("\r", "\n")
        # Phase 2: a backslash before a newline (GCC allows spaces between) joins the lines. Each piece of the
        # joined text remembers where it started in the original, for line numbers.
        self.newlines = [m.start() for m in re.finditer("\n", original)]
        self.pieces, parts, pos, joined = [], [], 0, 0
        for m in SPLICE.finditer(original):
            self.pieces.append((joined, pos))
            parts.append(original[pos:m.start()])
            joined += m.start() - pos
            pos = m.end()
        self.pieces.append((joined, pos))
        parts.append(original[pos:])
        self.text = "".join(parts)
        self.starts = [p[0] for p in self.pieces]

    def line(self, offset):
        """The original line of an offset into the joined text."""
        k = bisect.bisect_right(self.starts, offset) - 1
        start, orig = self.pieces[k]
        return bisect.bisect_left(self.newlines, orig + offset - start) + 1

    def tokens(self):
        """(kind, text, offset) for every token; comments and white space left out, newlines kept."""
        text, pos, n = self.text, 0, len(self.text)
        while pos < n:
            m = TOKEN.match(text, pos)
            kind = m.lastgroup
            if kind == "raw" or kind == "delim":
                end = text.find(")" + m.group("delim") + '"', m.end())
                end = n if end < 0 else end + len(m.group("delim")) + 2
                yield "str", text[pos:end], pos
                pos = end
                continue
            if kind not in ("ws", "lc", "bc"):
                yield kind, m.group(kind), pos
            elif "\n" in m.group(kind):
                # A comment that spans lines: what follows it may start a directive (read as such, to be safe).
                yield "nl", "\n", pos
            pos = m.end()


def check_source(src, policy, say):
    """Refuses what the student wrote in SRC that no object shows reliably."""
    toks = list(src.tokens())
    bol, attr_depth, brackets, i = True, 0, 0, 0
    where = lambda off: "%s:%d" % (os.path.basename(src.path), src.line(off))
    while i < len(toks):
        kind, text, off = toks[i]
        if kind == "nl":
            bol = True
            i += 1
            continue
        if kind == "hash" and bol:
            j = i + 1
            name = toks[j] if j < len(toks) and toks[j][0] != "nl" else None
            if name and (name[0] == "num" or name[1] == "line"):
                say("line", "#line", where(off), "a line directive or marker changes the file and line that the "
                    "trace reports")
            elif name and name[0] == "id" and name[1] in INCLUDE:
                rest = re.sub(r"^(\s|/\*.*?\*/)*", "", src.text[name[2] + len(name[1]):].split("\n", 1)[0])
                header = re.match(r'"([^"]*)"|<([^>]*)>', rest)
                target = header and (header.group(1) if header.group(1) is not None else header.group(2))
                if target is None:
                    say("include", "#include", where(off), "a computed name: only the lesson's files and "
                        "library headers, by name")
                elif target.startswith("/") or ".." in target.split("/") or "\\" in target or \
                        any(c < " " for c in target):
                    say("include", "#include of %s" % printable(target), where(off),
                        "only the lesson's files and library headers, by name")
                while i < len(toks) and toks[i][0] != "nl":  # the header's name is not code
                    i += 1
                continue
            bol = False
            i += 1
            continue
        bol = False
        if kind == "paste" and not (i > 0 and toks[i - 1][1] == ","):
            # (GNU's `, ## __VA_ARGS__` pastes a comma, which makes no name: it drops the comma before no arguments)
            say("paste", "## (token pasting)", where(off), "it makes names that the source does not spell")
        elif kind == "id":
            if text in ASM:
                say("asm", text, where(off), "inline assembly")
            elif text in ATTRIBUTE:
                attr_depth = -1  # the next ( opens it
            elif text in SECTION and (attr_depth > 0 or brackets > 0):
                say("section", "a section attribute", where(off),
                    "code or data placed where the compiler would not put it")
            elif text == "redefine_extname" or (text == "_Pragma" and "redefine_extname" in next(
                    (t[1] for t in toks[i + 1:i + 4] if t[0] == "str"), "")):
                say("redefine_extname", "#pragma redefine_extname", where(off),
                    "it calls a function under another name")
            else:
                reason = policy.unspellable.find(text)
                if reason:
                    say(text, printable(text), where(off), reason)
        elif kind == "punct":
            if text == "(" and attr_depth != 0:
                attr_depth = 1 if attr_depth < 0 else attr_depth + 1
            elif text == ")" and attr_depth > 0:
                attr_depth -= 1
            elif text == "[" and i + 1 < len(toks) and toks[i + 1][1] == "[":
                brackets += 1
                i += 1
            elif text == "]" and brackets > 0 and i + 1 < len(toks) and toks[i + 1][1] == "]":
                brackets -= 1
                i += 1
            elif attr_depth < 0:
                attr_depth = 0
        i += 1


# --- the objects -----------------------------------------------------------------------------------------------

SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR, SHF_GROUP = 0x1, 0x2, 0x4, 0x200
SHT_SYMTAB, SHT_RELA, SHT_REL, SHT_NOBITS, SHT_SYMTAB_SHNDX, SHT_DYNSYM = 2, 4, 9, 8, 18, 11
STT_OBJECT, STT_FUNC, STT_SECTION, STT_TLS, STT_GNU_IFUNC = 1, 2, 3, 6, 10
STB_LOCAL = 0
SHN_UNDEF, SHN_XINDEX, SHN_COMMON = 0, 0xFFFF, 0xFFF2
EM_X86_64, EM_AARCH64 = 62, 183


class BadObject(Exception):
    pass


class Elf:
    """A 64-bit ELF file: its sections, symbols and relocations, names kept as text (latin-1: every byte kept)."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = data = f.read()
        if data[:4] != b"\x7fELF" or len(data) < 64:
            raise BadObject("not an ELF file")
        if data[4] != 2:
            raise BadObject("not a 64-bit object")
        self.e = e = "<" if data[5] == 1 else ">"
        try:
            (self.type, self.machine, _, _, _, shoff, _, _, _, _, shentsize, shnum, shstrndx) = \
                struct.unpack_from(e + "HHIQQQIHHHHHH", data, 16)
            if shoff and shnum == 0:
                shnum = struct.unpack_from(e + "Q", data, shoff + 32)[0]
            if shstrndx == SHN_XINDEX:
                shstrndx = struct.unpack_from(e + "I", data, shoff + 40)[0]
            self.sections = []
            for k in range(shnum):
                (name, typ, flags, _, offset, size, link, info, _, entsize) = \
                    struct.unpack_from(e + "IIQQQQIIQQ", data, shoff + k * shentsize)
                self.sections.append({"name": name, "type": typ, "flags": flags, "offset": offset, "size": size,
                                      "link": link, "info": info, "entsize": entsize, "index": k})
            strtab = self.sections[shstrndx]
            for s in self.sections:
                s["name"] = self.string(strtab, s["name"])
        except (struct.error, IndexError) as err:
            raise BadObject("its headers cannot be read (%s)" % err)

    def bytes_of(self, s):
        if s["type"] == SHT_NOBITS:
            return b""
        if s["offset"] + s["size"] > len(self.data):
            raise BadObject("section %s runs past the end of the file" % printable(s["name"]))
        return self.data[s["offset"]:s["offset"] + s["size"]]

    def string(self, strtab, offset):
        start = strtab["offset"] + offset
        end = self.data.find(b"\0", start, strtab["offset"] + strtab["size"])
        if start > len(self.data) or end < 0:
            raise BadObject("a name lies outside its string table")
        return self.data[start:end].decode("latin-1")

    def symbols(self, kind=SHT_SYMTAB):
        """Dicts of name, value, size, type, bind, shndx, index."""
        tabs = [s for s in self.sections if s["type"] == kind]
        if not tabs:
            return []
        tab = tabs[0]
        strtab = self.sections[tab["link"]]
        xindex = next((s for s in self.sections if s["type"] == SHT_SYMTAB_SHNDX and s["link"] == tab["index"]),
                      None)
        raw = self.bytes_of(tab)
        out = []
        try:
            for k in range(len(raw) // 24):
                name, info, _, shndx, value, size = struct.unpack_from(self.e + "IBBHQQ", raw, k * 24)
                if shndx == SHN_XINDEX and xindex:
                    shndx = struct.unpack_from(self.e + "I", self.bytes_of(xindex), k * 4)[0]
                out.append({"name": self.string(strtab, name), "value": value, "size": size, "type": info & 0xF,
                            "bind": info >> 4, "shndx": shndx, "index": k})
        except struct.error as err:
            raise BadObject("its symbol table cannot be read (%s)" % err)
        return out

    def relocations(self):
        """(section index the relocation applies to, offset, symbol index, addend)."""
        out = []
        for s in self.sections:
            if s["type"] not in (SHT_RELA, SHT_REL):
                continue
            size = 24 if s["type"] == SHT_RELA else 16
            raw = self.bytes_of(s)
            raw = raw[:len(raw) - len(raw) % size]
            if s["type"] == SHT_RELA:
                out += [(s["info"], o, i >> 32, a) for o, i, a in struct.iter_unpack(self.e + "QQq", raw)]
            else:
                out += [(s["info"], o, i >> 32, 0) for o, i in struct.iter_unpack(self.e + "QQ", raw)]
        return out


def demangle(names):
    """{mangled: demangled} for the C++ names among NAMES (c++filt, one name a line: only names made of the
    characters a mangled name has reach it, so none can hold a line break)."""
    mangled = sorted({n for n in names if re.fullmatch(r"_Z[A-Za-z0-9_.$]+", n)})
    if not mangled:
        return {}
    try:
        out = subprocess.run(["c++filt"], input="\n".join(mangled) + "\n", capture_output=True, text=True,
                             check=True).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        return {}
    return {m: d for m, d in zip(mangled, out) if d}


def plain_name(demangled):
    """A demangled function's name without its parameters, qualifiers and (for a template) return type:
    `int cudawb::f<int>(int) const` gives `cudawb::f<int>`; `operator new(unsigned long)` `operator new`."""
    depth, cut = 0, len(demangled)
    for k, c in enumerate(demangled):
        if c == "<":
            depth += 1
        elif c == ">" and depth > 0:
            depth -= 1
        elif c == "(" and depth == 0 and not demangled[:k].endswith("operator"):
            cut = k
            break
    name = demangled[:cut]
    if name.startswith(("operator ", "vtable for ", "typeinfo for ", "typeinfo name for ", "guard variable for ",
                        "VTT for ", "construction vtable for ")):
        return name
    depth, space = 0, -1
    for k, c in enumerate(name):  # a template function's return type comes first, before a space at depth 0
        if c == "<":
            depth += 1
        elif c == ">" and depth > 0:
            depth -= 1
        elif c == " " and depth == 0 and "operator" not in name[k - 8:k + 1]:
            space = k
    return name[space + 1:] if space >= 0 and "operator" not in name else name


def library_names():
    """The names the C and C++ libraries export (their dynamic symbols): a definition with one of these names in
    the student's object would replace the library's function for the whole program, the trace included."""
    names = set()
    dirs = ["/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
            "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"]
    for lib in ("libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1"):
        for d in dirs:
            path = os.path.join(d, lib)
            if os.path.isfile(path):
                try:
                    names.update(s["name"] for s in Elf(path).symbols(SHT_DYNSYM)
                                 if s["shndx"] != SHN_UNDEF and s["name"])
                except BadObject:
                    pass
                break
    return names


def uleb(data, pos):
    value = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, pos


def line_table_names(elf):
    """The directory and file names of the object's DWARF line tables (versions 2 to 5), as bytes: the file and
    line of every call site the trace reports come from them. A name kept in a string section (DW_FORM_line_strp,
    strp: an offset that a relocation fills in, in an object) is that section's, which the caller reads whole."""
    secs = {s["name"]: s for s in elf.sections}
    names = [elf.bytes_of(secs[k]) for k in (".debug_line_str", ".debug_str") if k in secs]
    if ".debug_line" not in secs:
        return names
    data, e, pos = elf.bytes_of(secs[".debug_line"]), elf.e, 0

    def cstring(buf, at):
        end = buf.index(b"\0", at)
        return buf[at:end], end + 1

    while pos + 4 <= len(data):
        length = struct.unpack_from(e + "I", data, pos)[0]
        offset_size, pos = (8, pos + 12) if length == 0xFFFFFFFF else (4, pos + 4)
        if length == 0xFFFFFFFF:
            length = struct.unpack_from(e + "Q", data, pos - 8)[0]
        end, version = pos + length, struct.unpack_from(e + "H", data, pos)[0]
        at = pos + 2
        if version >= 5:
            at += 2  # address and segment selector sizes
        at += offset_size  # header_length
        at += 4 if version >= 4 else 3  # min_inst_length, [max_ops], default_is_stmt, line_base
        opcode_base = data[at + 1]
        at += 2 + opcode_base - 1  # line_range, opcode_base, the standard opcodes' lengths
        if version < 5:
            for _table in (0, 1):  # include_directories, then file_names
                while data[at] != 0:
                    name, at = cstring(data, at)
                    names.append(name)
                    if _table:
                        for _ in range(3):  # directory, time, size
                            _, at = uleb(data, at)
                at += 1
        else:
            for _table in (0, 1):  # directories, then file names: a format, then the entries
                count, at = data[at], at + 1
                formats = []
                for _ in range(count):
                    kind, at = uleb(data, at)
                    form, at = uleb(data, at)
                    formats.append((kind, form))
                entries, at = uleb(data, at)
                for _ in range(entries):
                    for kind, form in formats:
                        if form == 0x08:  # DW_FORM_string
                            name, at = cstring(data, at)
                        elif form in (0x1F, 0x0E):  # DW_FORM_line_strp, DW_FORM_strp: in a string section
                            at += offset_size
                            continue
                        elif form in (0x0B, 0x05, 0x06, 0x07, 0x1E):  # data1, data2, data4, data8, data16
                            at += {0x0B: 1, 0x05: 2, 0x06: 4, 0x07: 8, 0x1E: 16}[form]
                            continue
                        elif form == 0x0F:  # udata
                            _, at = uleb(data, at)
                            continue
                        elif form == 0x09:  # block
                            size, at = uleb(data, at)
                            at += size
                            continue
                        else:
                            raise BadObject("its line table uses DWARF form 0x%x" % form)
                        if kind == 1:  # DW_LNCT_path
                            names.append(name)
        pos = end
    return names


RESERVED_DEFINITIONS = ("tr_*", "__wrap_*", "__real_*", "cuda*", "cublas*", "cu[A-Z]*", "__cuda*", "CUDAWB*",
                        "_[A-Z]*", "__*")
RESERVED_NAMESPACES = ("std::", "__gnu_cxx::", "__cxxabiv1::", "cudawb::", "rt::", "cudart::")
REGISTRATION = re.compile(r"(__sti____cudaRegisterAll|cudawb_reg_[0-9]+)")


class Lines:
    """The student's line for places in an object (addr2line on its debug information)."""

    def __init__(self, obj, sources, root):
        self.obj, self.sources, self.root = obj, sources, root
        self.names = {os.path.basename(s): s for s in sources}

    def where(self, places):
        """{place: FILE:LINE} for each place: a (section name, offset), or a tuple of them, the code of one
        function, whose first line in the student's files is taken (addr2line -a -i, one run per section)."""
        out, by_section, found = {}, {}, {}
        for place in places:
            for sec, off in (place if isinstance(place[0], tuple) else (place,)):
                by_section.setdefault(sec, set()).add(off)
        for sec, offs in by_section.items():
            if any(c < " " for c in sec):
                continue
            offs = sorted(offs)
            try:
                text = subprocess.run(["addr2line", "-a", "-i", "-e", self.obj, "-j", sec] +
                                      ["0x%x" % o for o in offs], capture_output=True, text=True,
                                      errors="replace", check=False).stdout
            except OSError:
                break
            frames, current = {}, None
            for line in text.split("\n"):
                if re.fullmatch(r"0x[0-9a-f]+", line):
                    current = int(line, 16)
                    frames[current] = []
                elif current is not None and line:
                    frames[current].append(line)
            for off in offs:
                found[(sec, off)] = self.pick(frames.get(off, []))
        for place in places:
            if not isinstance(place[0], tuple):
                out[place] = found.get(place)
                continue
            lines = [found.get(p) for p in place if found.get(p)]
            mine = [l for l in lines if l.rpartition(":")[0] in self.names]
            out[place] = min(mine, key=lambda l: int(l.rpartition(":")[2])) if mine else (lines or [None])[0]
        return out

    def pick(self, frames):
        """The innermost frame in one of the student's files, else in kernels/, else the first; nvcc's debug
        information names a frame after its intermediate file (tmpxft_..._alloc.cudafe1.cpp:56), the line the
        student's (alloc.cu:56)."""
        best = None
        for frame in frames:
            path, _, line = frame.rpartition(":")
            line = line.split(" ")[0]
            if not line.isdigit() or line == "0":
                continue
            base = os.path.basename(path)
            m = re.fullmatch(r"tmpxft_[0-9a-f_-]+_(.+)\.cudafe1\.cpp", base)
            if m:
                base = m.group(1) + ".cu"
            if base in self.names:
                return "%s:%s" % (base, line)
            if best is None:
                best = "%s/%s:%s" % ("kernels", base, line) if os.path.isfile(
                    os.path.join(self.root, "kernels", base)) else "%s:%s" % (base, line)
        return best


# glibc's names for the calls a source wrote, as _FORTIFY_SOURCE (Ubuntu's default) and C23 rename them: __read_chk
# is read, __open_2 open, __isoc23_strtol strtol. Judged and shown as written, so that one source gets one verdict
# whichever compiler built it.
FORTIFIED = re.compile(r"__(\w+?)_chk|__(open(?:64)?|openat(?:64)?|mq_open)_2|__isoc(?:99|23)_(\w+)")


def check_object(path, sources, root, policy, say):
    elf = Elf(path)
    if elf.type != 1:
        raise BadObject("not a relocatable object")
    syms = elf.symbols()
    secs = elf.sections
    relocs = elf.relocations()
    names = demangle(s["name"] for s in syms)
    readable = lambda n: plain_name(names[n]) if n in names else n
    lines = Lines(path, sources, root)
    student_file = os.path.basename(sources[0] if sources else path)

    def section_name(k):
        return secs[k]["name"] if 0 < k < len(secs) else "?"

    # Where each symbol is first used from code (the first relocation that names it, in an allocated section).
    used_at = {}
    for flag in (SHF_EXECINSTR, SHF_ALLOC):  # a use in code names its line; one in data, at least its file
        for target, offset, sym, _ in relocs:
            if 0 < target < len(secs) and secs[target]["flags"] & flag and sym not in used_at:
                used_at[sym] = (section_name(target), offset)
    findings = []  # (the names ALLOW may give, the construct, why it is refused, (section, offset) or None)

    # The constructors: .init_array entries that are not the compilers' registration of the kernels.
    for s in secs:
        n = s["name"]
        if n.startswith((".preinit_array", ".init_array", ".ctors", ".fini_array", ".dtors")):
            kind = "preinit_array" if n.startswith(".preinit") else \
                "constructor" if n.startswith((".init", ".ctors")) else "destructor"
            targets = [(sym, addend) for (t, off, sym, addend) in relocs if t == s["index"]]
            if not targets and s["size"]:
                findings.append(((kind,), printable(n), "entries of the object's own", None))
            for sym, addend in targets:
                fn = syms[sym] if sym < len(syms) else None
                if fn and fn["type"] == STT_SECTION:
                    fn = next((f for f in syms if f["shndx"] == fn["shndx"] and f["value"] == addend and
                               f["type"] == STT_FUNC), fn)
                fname = fn["name"] if fn else "?"
                ours = kind == "constructor" and n == ".init_array" and fn and fn["bind"] == STB_LOCAL and \
                    REGISTRATION.fullmatch(readable(fname).split("::")[-1])
                if ours:
                    continue
                what = {"preinit_array": "code that runs before the trace starts (.preinit_array)",
                        "constructor": "code that runs before main: __attribute__((constructor)) or a global "
                                       "object with a constructor",
                        "destructor": "code that runs after main (.fini_array)"}[kind]
                shown = printable(readable(fname)) if fn and fn["type"] != STT_SECTION else "?"
                place = None
                if fn and 0 < fn["shndx"] < len(secs):
                    # The first line of its body that makes a call, else its first line: compilers place a
                    # function's entry on the line of its name or of its brace, as their versions please.
                    sec = section_name(fn["shndx"])
                    place = tuple((sec, off) for (t, off, _, _) in relocs
                                  if t == fn["shndx"] and fn["value"] <= off < fn["value"] + max(fn["size"], 1)) \
                        or ((sec, fn["value"]),)
                findings.append(((kind, readable(fname)), "%s %s" % (kind.replace("_", " "), shown), what,
                                 place))

    # Sections: only the compilers' own. A student's section attribute or data placed among the code is refused.
    for s in secs:
        n = s["name"]
        if not known_section(n, s["flags"]) and not re.sub(r"^\.rela?", "", n).startswith(
                (".preinit_array", ".init_array", ".ctors", ".fini_array", ".dtors")):
            findings.append((("section",), "section %s" % printable(n), "a section the compilers do not make",
                             None))
    for sym in syms:
        if 0 < sym["shndx"] < len(secs) and secs[sym["shndx"]]["flags"] & SHF_EXECINSTR and \
                sym["type"] in (STT_OBJECT, STT_TLS):
            findings.append((("section",), "data %s among the code" % printable(readable(sym["name"])),
                             "bytes the compiler did not make, run as code",
                             (section_name(sym["shndx"]), sym["value"])))

    # Symbols: imports against the list, definitions that would replace a library's or the grader's.
    libs = None
    for sym in syms:
        name, bind = sym["name"], sym["bind"]
        if not name or bind == STB_LOCAL:
            if sym["type"] == STT_GNU_IFUNC:
                findings.append((("ifunc",), "ifunc %s" % printable(readable(name)),
                                 "its resolver runs before everything else", None))
            continue
        comdat = 0 < sym["shndx"] < len(secs) and secs[sym["shndx"]]["flags"] & SHF_GROUP
        if comdat and name in names and not names[name].startswith("operator "):
            continue  # an inline function or a template's instance, which every object may hold
        shown = readable(name)
        if sym["type"] == STT_GNU_IFUNC:
            findings.append((("ifunc", shown), "ifunc %s" % printable(shown),
                             "its resolver runs before everything else", None))
            continue
        if sym["shndx"] == SHN_UNDEF:
            judged = shown
            if name.startswith("cudawb_api_"):  # a CUDA call the CPU backend's headers implement
                judged = shown = name[len("cudawb_api_"):]
            written = FORTIFIED.fullmatch(judged)
            if written:  # glibc's checked or C23 form of the call the source wrote
                judged = shown = written.group(1) or written.group(2) or written.group(3)
            reason = policy.import_verdict(judged)
            if reason and policy.let_through(judged, name):
                reason = None
            if reason:
                findings.append(((judged, name), printable(shown), reason, used_at.get(sym["index"])))
            continue
        # A definition.
        reason = None
        if name == "main":
            continue
        if name in names:  # C++
            d = names[name]
            if d.startswith(("operator new", "operator delete")):
                reason = "replaces the library's allocator, which the runtimes use"
            elif not comdat and shown.startswith(RESERVED_NAMESPACES):
                reason = "a definition inside the libraries' or the runtime's namespace"
        elif comdat and name.startswith("DW.ref."):
            continue
        else:
            reason = policy.refused.find(name)
            if not reason and any(fnmatch.fnmatchcase(name, p) for p in RESERVED_DEFINITIONS):
                reason = "a name reserved to the libraries, the runtime and the trace"
            if not reason:
                libs = library_names() if libs is None else libs
                if name in libs:
                    reason = "the C library's own name: it would replace the library's function, the trace's too"
        if reason and not policy.let_through(shown, name):
            findings.append(((shown, name), "a definition of %s" % printable(shown), reason,
                             (section_name(sym["shndx"]), sym["value"]) if 0 < sym["shndx"] < len(secs) else None))

    # The file names of the debug information, where the trace's call sites come from: the student's files, the
    # lessons' headers, system headers; never a name with a control character (a #line let through by ALLOW).
    try:
        bad = [m.group(0) for n in line_table_names(elf) for m in [re.search(rb"[^\x00]*[\x01-\x1f\x7f][^\x00]*", n)]
               if m]
    except (IndexError, ValueError, struct.error) as err:
        raise BadObject("its line table cannot be read (%s)" % err)
    if bad:
        findings.append((("control-character",), "file name %s" % printable(bad[0].decode("latin-1")),
                         "a name with a control character in the debug information, where the trace's call sites "
                         "come from", None))

    # System call instructions (objdump's disassembly of the executable sections).
    findings += syscall_instructions(path, elf)

    places = lines.where([f[3] for f in findings if f[3]])
    for allow, construct, why, place in findings:
        if not policy.let_through(*allow):
            say(allow[0], construct, (place and places.get(place)) or student_file, why)


def known_section(name, flags):
    """The sections g++ and nvcc make (and the CPU backend's record of the device code)."""
    group = flags & SHF_GROUP
    exact = {"", ".text", ".text.startup", ".text.unlikely", ".text.hot", ".text.exit", ".data", ".bss", ".rodata",
             ".data.rel", ".data.rel.local", ".data.rel.ro", ".data.rel.ro.local", ".tdata", ".tbss",
             ".gcc_except_table", ".eh_frame", ".comment", ".note.GNU-stack", ".note.gnu.property", ".group",
             ".symtab", ".strtab", ".shstrtab", ".symtab_shndx", ".init_array", ".nv_fatbin", ".nvFatBinSegment",
             "__nv_module_id", "cudawb_fatbin", ".stapsdt.base", ".note.stapsdt"}
    if name in exact:
        return not (flags & SHF_EXECINSTR) or name.startswith(".text")
    if name.startswith((".rela.", ".rel.")):
        return known_section("." + name.split(".", 2)[2], flags & ~SHF_EXECINSTR)
    if re.fullmatch(r"\.rodata\.(str1\.[0-9]+|cst[0-9]+)", name) or name.startswith(".debug_"):
        return not flags & SHF_EXECINSTR
    if group and re.match(r"\.(text|rodata|data|bss|tdata|tbss|data\.rel\.ro|data\.rel\.local|data\.rel|"
                          r"gcc_except_table|rodata\.str1\.[0-9]+|rodata\.cst[0-9]+)\.", name):
        return name.startswith(".text.") or not flags & SHF_EXECINSTR
    if re.fullmatch(r"\.(text|rodata|data|bss)\.(unlikely|hot|startup)\.[^\x00-\x1f]*", name) and group:
        return True
    return False


SYSCALL = re.compile(r"^\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )*\s*(syscall|sysenter|int\s+\$0x80|svc\s.*|int\s+\$0x2e)\b")


def syscall_instructions(path, elf):
    """System call instructions in the object's code: objdump's disassembly, read for instruction lines only (a
    name in a label can add a line, never hide one)."""
    if elf.machine not in (EM_X86_64, EM_AARCH64):
        return [(("machine",), "machine %d" % elf.machine, "an object for a machine the grader does not know",
                 None)]
    if not any(s["flags"] & SHF_EXECINSTR and s["size"] for s in elf.sections):
        return []
    try:
        text = subprocess.run(["objdump", "-d", "-w", "--no-show-raw-insn", path], capture_output=True, text=True,
                              errors="replace", check=False).stdout
    except OSError:
        return [(("syscall",), "objdump", "the object's code cannot be read", None)]
    out, section = [], None
    for line in text.split("\n"):
        if line.startswith("Disassembly of section ") and line.endswith(":"):
            section = line[len("Disassembly of section "):-1]
            continue
        m = SYSCALL.match(line)
        if m and section is not None:
            out.append((("syscall",), "%s instruction" % m.group(2).split()[0],
                        "a system call made around the C library", (section, int(m.group(1), 16))))
    return out


def main(argv):
    args = {"--allowed": None, "--traced": None, "--root": ".", "--allow": ""}
    rest = []
    k = 0
    while k < len(argv):
        if argv[k] in args and k + 1 < len(argv):
            args[argv[k]] = argv[k + 1]
            k += 2
        else:
            rest.append(argv[k])
            k += 1
    if not args["--allowed"] or not args["--traced"] or "--" not in rest:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    cut = rest.index("--")
    sources, objects = rest[:cut], rest[cut + 1:]
    policy = Policy(args["--allowed"], args["--traced"], args["--allow"])
    if policy.everything:
        return 0
    said, seen = [], set()

    def say(allow, construct, where, why):
        if (allow, construct) in seen or policy.let_through(allow):
            return
        seen.add((allow, construct))
        said.append("policy: %s at %s: %s; an instructor can allow it: ALLOW=%s"
                    % (construct, printable(where), why, printable(allow)))

    for path in sources:
        check_source(Source(path), policy, say)
    # A line directive makes the objects' line numbers the student's choice: they are not read.
    if not any(line.startswith("policy: #line ") for line in said):
        for path in objects:
            try:
                check_object(path, [s for s in sources if s.endswith((".cu", ".cuh", ".h", ".c"))],
                             args["--root"], policy, say)
            except BadObject as err:
                say("all", "object %s" % os.path.basename(path), os.path.basename(path),
                    "the grader cannot read it: %s" % err)
    for line in said[:MAX_LINES]:
        print(line)
    if len(said) > MAX_LINES:
        print("policy: and %d more" % (len(said) - MAX_LINES))
    return 1 if said else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
