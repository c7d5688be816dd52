#!/usr/bin/env python3
"""Keeps the chapters' listings readable where they are: writes into each fenced block of lessons/*.md that
includes code ({.cuda include="FILE" region="NAME"}) the lines the book shows there, so that a chapter read on
GitHub or in an editor shows the real code, not a placeholder.

    listings.py [--check] [CHAPTER...]     (default: every lessons/NN-*.md)

The lines come from book/include-code.lua itself, run by pandoc (one source for what a region is: markers,
nested regions, indentation); this script only puts them between the block's fences. --check changes
nothing and exits 1 naming each chapter whose listings differ from their sources (make listings fixes them).
"""
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILTER = os.path.join(ROOT, "book", "include-code.lua")
# A fenced block that includes code: its opening fence (``` or ~~~, three or more) with an include attribute.
# Indented as its list item is (its body then indented the same).
OPEN = re.compile(r"^( *)(`{3,}|~{3,})\s*\{[^}]*\binclude=\"[^\"]+\"[^}]*\}\s*$")


def shown_listings(chapter):
    """The text of each included listing, in document order, as the book's filter makes it."""
    env = dict(os.environ)
    env.pop("BOOK_SOURCE", None)  # read the repository's files, as they are here
    out = subprocess.run(["pandoc", "--from", "markdown", "--to", "json", "--lua-filter", FILTER, chapter],
                         cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout
    texts = []

    def walk(node):
        if isinstance(node, dict):
            # include-code.lua wraps each listing in a Div of class "listing": its source, then the code.
            if node.get("t") == "Div" and "listing" in node["c"][0][1]:
                for block in node["c"][1]:
                    if block.get("t") == "CodeBlock":
                        texts.append(block["c"][1])
                return
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(out)["blocks"])
    return texts


def synced(text, listings):
    """The chapter's text with each including block's body replaced by its listing."""
    lines = text.split("\n")
    out, i, k = [], 0, 0
    while i < len(lines):
        match = OPEN.match(lines[i])
        out.append(lines[i])
        i += 1
        if not match:
            continue
        indent, fence = match.group(1), match.group(2)
        while i < len(lines) and not (lines[i].startswith(indent + fence) and lines[i].strip().strip(fence[0]) == ""):
            i += 1
        if i == len(lines):
            sys.exit(f"listings: a block that includes code never closes (fence {fence})")
        if k == len(listings):
            sys.exit("listings: more including blocks than pandoc found listings")
        out.extend((indent + line) if line else "" for line in listings[k].split("\n"))
        out.append(lines[i])
        i += 1
        k += 1
    if k != len(listings):
        sys.exit(f"listings: {len(listings)} listings but {k} including blocks")
    return "\n".join(out)


def main(argv):
    check = "--check" in argv
    chapters = [a for a in argv if a != "--check"] or sorted(glob.glob(os.path.join(ROOT, "lessons", "[0-9][0-9]-*.md")))
    drifted = []
    for chapter in chapters:
        with open(chapter, encoding="utf-8") as f:
            text = f.read()
        new = synced(text, shown_listings(chapter))
        if new == text:
            continue
        drifted.append(os.path.relpath(chapter, ROOT))
        if not check:
            with open(chapter, "w", encoding="utf-8") as f:
                f.write(new)
    if check and drifted:
        print("listings differ from their sources in: " + ", ".join(drifted) + " (make listings writes them)", file=sys.stderr)
        return 1
    if not check:
        print(f"listings: {len(drifted)} of {len(chapters)} chapter(s) updated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
