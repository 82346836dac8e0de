#!/usr/bin/env python3
"""W3 as a user runs it at a shell: `catalog show 0.0 --search X` (sections with counts, one row) as a
whole process, against, in the same run, `sqlite3` running the equivalent SQL on the same file and
`grep -ciF` over a text file of the folded names (piped once per term: every term must match). Each
tool writes to a pipe that this script reads to its end. What each peer does, in one line:

- catalog: `show 0.0 --search Q`, the sections with their counts and the first row.
- sqlite3: the same two results in SQL, `instr(name_folded, term) > 0` per term, on the same file.
- grep: `grep -ciF term` (one term) or `grep -iF t1 | grep -iF t2 … | wc -l`: the count of every match.

    python3 Benchmarks/search-process.py .build/release/catalog DATABASE [RUNS]

Each query runs RUNS times (default 21) per tool, the tools interleaved per run; prints the median and
p99 in milliseconds and the ratio of catalog to grep. The queries are issue #33's: the commonest
letters, a rare word, #12's named slow ones, a Japanese word and a term no name holds; each term is
its own folding (lower case, no diacritics), so that grep and sqlite3 look for the text catalog does.
"""
import os, statistics, subprocess, sys, tempfile, time

QUERIES = ["a", "e", "mac", "3 a", "2 le", "x in", "pro pa", "touch s", "東京", "zqx"]

def sql_for(query):
    """The SQL of `show 0.0 --search query`: sections by type with counts, then the first row."""
    conditions = []
    for term in query.split():
        text = f"instr(name_folded, '{term}') > 0"
        if term.isdigit():  # a number also matches the year or the price
            text = f"({text} OR year_introduced = {term} OR intro_price = {term})"
        conditions.append(text)
    where = " AND ".join(conditions)
    return (f"SELECT type, count(*) FROM products WHERE {where} GROUP BY type ORDER BY type;"
            f"SELECT id, type, name, year_introduced, intro_price FROM products WHERE {where} "
            f"ORDER BY type, name_folded, id LIMIT 1;")

def grep_pipeline(query, names):
    terms = query.split()
    pipeline = f"grep -iF -- '{terms[0]}' '{names}'"
    for term in terms[1:]:
        pipeline += f" | grep -iF -- '{term}'"
    return ["sh", "-c", pipeline + " | wc -l"] if len(terms) > 1 else ["grep", "-ciF", "--", terms[0], names]

def timed(arguments):
    """Milliseconds to run `arguments` with standard output a pipe read to its end: every tool does the
    whole task (GNU grep stops at its first match when its output is /dev/null, even with -c)."""
    start = time.perf_counter()
    subprocess.run(arguments, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
    return (time.perf_counter() - start) * 1000

def summary(times):
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]

def main():
    catalog, database = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 21
    with tempfile.TemporaryDirectory() as folder:
        names = os.path.join(folder, "names.txt")
        with open(names, "w") as file:
            subprocess.run(["sqlite3", "-readonly", database, "SELECT name_folded FROM products"], stdout=file, check=True)
        print("| query | catalog show median | p99 | sqlite3 median | p99 | grep median | p99 | catalog / grep |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for query in QUERIES:
            tools = {
                "catalog": [catalog, "show", "0.0", "--search", query, "--database", database],
                "sqlite3": ["sqlite3", "-readonly", database, sql_for(query)],
                "grep": grep_pipeline(query, names),
            }
            times = {tool: [] for tool in tools}
            for run in range(runs + 1):
                for tool, arguments in tools.items():
                    elapsed = timed(arguments)
                    if run > 0:  # the first run warms the page cache
                        times[tool].append(elapsed)
            row = {tool: summary(values) for tool, values in times.items()}
            cells = " | ".join(f"{row[t][0]:.1f} | {row[t][1]:.1f}" for t in tools)
            print(f"| `{query}` | {cells} | {row['catalog'][0] / row['grep'][0]:.1f}× |", flush=True)

if __name__ == "__main__":
    main()
