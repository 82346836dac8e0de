#!/usr/bin/env python3
"""Checks that the README's library tour is the code Snippets/LibraryTour.swift shows (CI builds the snippet)."""
import re
import sys

readme = open("README.md", encoding="utf-8").read()
tour = re.search(r"```swift\n(.*?)```", readme, re.S)
shown, hidden = [], False
for line in open("Snippets/LibraryTour.swift", encoding="utf-8").read().splitlines()[1:]:
    if line.strip() == "// snippet.hide":
        hidden = True
    elif line.strip() == "// snippet.show":
        hidden = False
    elif not hidden and line != "import Foundation":
        shown.append(line)
if tour is None or tour.group(1).strip() != "\n".join(shown).strip():
    sys.exit("README.md's first swift block differs from the code Snippets/LibraryTour.swift shows")
