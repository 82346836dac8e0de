#!/usr/bin/env python3
"""Runs each snippet (Snippets/*.swift, built by `swift build` into .build/debug) and checks that it
prints what the DocC articles state: after an `@Snippet(path: "catalog/Snippets/NAME", slice: "S")`
line, a paragraph `It prints:` and a ```text block give what slice S prints. A snippet prints the
blocks of its slices, in the file's order, and nothing else (a slice shown twice states the same).
The library tour (Snippets/LibraryTour.swift, shown whole as the README's first swift block) prints
the ```text block after the paragraph `It prints:` that follows that block."""
import glob
import os
import re
import subprocess
import sys
import tempfile

binaries = sys.argv[1] if len(sys.argv) > 1 else ".build/debug"
stated = {}  # (snippet, slice) -> text
failed = False


def fail(message):
    global failed
    print(message, file=sys.stderr)
    failed = True


for article in sorted(glob.glob("Sources/*/*.docc/*.md")):
    lines = open(article, encoding="utf-8").read().splitlines()
    for index, line in enumerate(lines):
        shown = re.match(r'@Snippet\(path: "catalog/Snippets/(\w+)", slice: "(\w+)"\)', line)
        if not shown:
            continue
        rest = [l for l in lines[index + 1:index + 4] if l.strip()]
        if not rest or rest[0] != "It prints:":
            continue
        start = lines.index("```text", index + 1)
        end = lines.index("```", start + 1)
        text = "\n".join(lines[start + 1:end])
        key = shown.groups()
        if stated.setdefault(key, text) != text:
            fail(f"{article}: {key[0]} slice {key[1]} states another output than an article before it")

readme = open("README.md", encoding="utf-8").read()
tour = re.search(r"```swift\n.*?```\n\s*It prints:\n\s*```text\n(.*?)\n```", readme, re.S)
if tour and "```swift" not in tour.group(0)[3:]:
    stated[("LibraryTour", "")] = tour.group(1)

for source in sorted(glob.glob("Snippets/*.swift")):
    name = os.path.basename(source)[:-len(".swift")]
    slices = re.findall(r"^\s*// snippet\.(\w+)\s*$", open(source, encoding="utf-8").read(), re.M)
    slices = [s for s in slices if s not in ("hide", "show", "end")]
    expected = "".join(stated[(name, s)] + "\n" for s in slices + [""] if (name, s) in stated)
    for key in stated:
        if key[0] == name and key[1] not in slices + [""]:
            fail(f"{name}: an article states the output of slice {key[1]}, which it does not have")
    binary = os.path.abspath(os.path.join(binaries, name))
    if not os.access(binary, os.X_OK):
        fail(f"{name}: {binary} is not built (swift build first)")
        continue
    with tempfile.TemporaryDirectory() as folder:
        run = subprocess.run([binary], cwd=folder, capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        fail(f"{name}: exit {run.returncode}\n{run.stderr}")
    elif run.stdout != expected:
        fail(f"{name} prints:\n{run.stdout}--- where its articles state:\n{expected}---")
sys.exit(1 if failed else 0)
