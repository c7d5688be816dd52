"""similarity.py: a fingerprint of the code a student wrote, so that make grade can list submissions that are
the same once comments, layout and names are set aside (merge.sh groups them in similar.tsv and class.html).

  similarity.py ROOT SKELETONS LESSON/FILE...   prints per lesson: LESSON <tab> FINGERPRINT <tab> TOKENS

A file is read as C tokens (comments and layout dropped; literals kept as written; every name but C's and
CUDA C's keywords and the CUDA and cuBLAS API's written ID, so that renamed variables do not hide a copy).
A line whose tokens are a line of the lesson's skeleton (SKELETONS/LESSON/FILE, read the same way) is left
out: only what the student wrote counts. The lesson's FINGERPRINT is the sha256 of what is left, over its
files in the order given; "-" when fewer than MIN_TOKENS tokens are left (an untouched skeleton, or too
little code to tell a copy from the same short answer). Reads the files as bytes, runs nothing of them.
Run with Debian's python3 -I.
"""
import hashlib
import os
import re
import sys

MIN_TOKENS = 40

TOKEN = re.compile(rb"""
  (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
| (?P<literal>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|\.?[0-9](?:[eEpP][+-]|[\w.])*)
| (?P<name>[A-Za-z_]\w*)
| (?P<space>\s+)
| (?P<punct>.)
""", re.S | re.X)

KEYWORDS = set(b"""
auto break case char const continue default do double else enum extern float for goto if inline int long
register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while
bool true false nullptr class template typename namespace using new delete operator this constexpr
__global__ __device__ __host__ __shared__ __constant__ __managed__ __restrict__ __syncthreads
threadIdx blockIdx blockDim gridDim warpSize dim3 size_t NULL include define ifdef ifndef endif pragma
printf fprintf stderr stdout malloc calloc free memset memcpy exit main
""".split())
API = re.compile(rb"^(cuda|cublas|CUBLAS_|CUDA_|cudaError|__)")


def lines_of(path):
    """The file's lines as normalized token strings (empty lines dropped), with their token counts."""
    try:
        with open(path, "rb") as f:
            text = f.read(1 << 20)
    except OSError:
        return []
    lines, cur, count = [], [], 0
    for m in TOKEN.finditer(text):
        kind, tok = m.lastgroup, m.group()
        if kind == "comment" or kind == "space":
            if b"\n" in tok and cur:
                lines.append((b" ".join(cur), count))
                cur, count = [], 0
            continue
        if kind == "name" and tok not in KEYWORDS and not API.match(tok):
            tok = b"ID"
        cur.append(tok)
        count += 1
    if cur:
        lines.append((b" ".join(cur), count))
    return lines


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: similarity.py ROOT SKELETONS LESSON/FILE...\n")
        return 2
    root, skeletons, files = argv[0], argv[1], argv[2:]
    lessons = {}
    for rel in files:
        lesson = rel.split("/", 1)[0]
        known = {line for line, _ in lines_of(os.path.join(skeletons, rel))}
        h, n = lessons.setdefault(lesson, [hashlib.sha256(), 0])
        h.update(rel.encode() + b"\n")
        for line, count in lines_of(os.path.join(root, rel)):
            if line not in known:
                h.update(line + b"\n")
                lessons[lesson][1] += count
    for lesson, (h, n) in lessons.items():
        print("%s\t%s\t%d" % (lesson, h.hexdigest() if n >= MIN_TOKENS else "-", n))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
