#!/usr/bin/env python3
"""Checks that the README's Swift blocks are code that CI builds and runs: the library tour is the
code Snippets/LibraryTour.swift shows, and the PostgreSQL block is the code between `readme.start`
and `readme.end` in Examples/Recipes/Tests/RecipesTests/ReadmeOnPostgreSQLTests.swift (less the
README's imports)."""
import re
import sys
import textwrap

readme = open("README.md", encoding="utf-8").read()
blocks = re.findall(r"```swift\n(.*?)```", readme, re.S)
failed = False


def differs(block, shown, name):
    global failed
    if block is None or block.strip() != "\n".join(shown).strip():
        print(f"README.md's {name} differs from the code it is checked against", file=sys.stderr)
        failed = True


shown, hidden = [], False
for line in open("Snippets/LibraryTour.swift", encoding="utf-8").read().splitlines()[1:]:
    if line.strip() == "// snippet.hide":
        hidden = True
    elif line.strip() == "// snippet.show":
        hidden = False
    elif not hidden and line != "import Foundation":
        shown.append(line)
differs(blocks[0] if blocks else None, shown, "first swift block (Snippets/LibraryTour.swift)")

test = open("Examples/Recipes/Tests/RecipesTests/ReadmeOnPostgreSQLTests.swift", encoding="utf-8").read()
run = re.search(r"\n[ ]*// readme\.start\n(.*?)\n[ ]*// readme\.end\n", test, re.S)
postgres = next((block for block in blocks if "PostgreSQLCluster" in block), None)
if postgres is not None:
    postgres = "\n".join(line for line in postgres.splitlines() if not line.startswith("import "))
differs(postgres, textwrap.dedent(run.group(1)).splitlines() if run else [],
        "PostgreSQL swift block (ReadmeOnPostgreSQLTests.swift)")
sys.exit(1 if failed else 0)
