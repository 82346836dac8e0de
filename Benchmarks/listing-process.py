#!/usr/bin/env python3
"""Listing as a user runs it at a shell: `catalog list` and `catalog search Q` writing the whole result
to a pipe in a table, CSV or JSON lines, as whole processes, against `sqlite3` running the equivalent
SQL (the same rows in the same order, with their section and index path) in the nearest output mode
(`-column`, `-csv`, `-json`), in the same run, the two alternated.

    python3 Benchmarks/listing-process.py .build/release/catalog DATABASE [RUNS]

Each case runs RUNS times (default 3) per tool after one warming run; for each tool it prints the
median time to the first byte on the pipe and the CPU time the process had used by then (its threads'
time on a CPU, /proc/PID/task/*/schedstat, read while it is stopped: steady on a loaded machine, where
wall times swing), the median time to the last byte (the pipe read to its end and the process reaped),
its CPU time (user + system, from wait4), the peak resident memory (the child's own ru_maxrss) and the
bytes written; then catalog / sqlite3 for the whole run, by wall time and by CPU time. The peer: sqlite3 reads the same file, the
search as `instr(name_folded, term) > 0` (the folded names are plain ASCII for these terms).
"""
import glob, os, signal, statistics, subprocess, sys, time

# (arguments after `catalog`, search term or None for `list`, formats). The large results (`list`,
# `a`: 1,000,000 and 618,000 rows) in the data formats only: sqlite3's `-column` holds every row to set
# its widths.
CASES = [("search mac", "mac", ["table", "csv", "jsonl"]), ("search 東", "東", ["table", "csv", "jsonl"]),
         ("search a", "a", ["csv", "jsonl"]), ("list", None, ["csv", "jsonl"])]
MODES = {"table": "-column", "csv": "-csv", "jsonl": "-json"}

def sql_for(term):
    """The rows of `catalog list`/`search term` in list order: with a term, the section name, the path
    (window functions) and the record; for `list` the record only (the window functions' sort of a
    million rows spills to disk, so that peer does less than catalog)."""
    if term is None:
        return "SELECT id, type, name, year_introduced, intro_price FROM products ORDER BY type, name_folded, id"
    return ("SELECT upper(substr(type, 1, 1)) || substr(type, 2) AS section, "
            "(dense_rank() OVER (ORDER BY type) - 1) || '.' || "
            "(row_number() OVER (PARTITION BY type ORDER BY name_folded, id) - 1) AS path, "
            f"id, type, name, year_introduced, intro_price FROM products WHERE instr(name_folded, '{term}') > 0 "
            "ORDER BY type, name_folded, id")

def cpu_seconds(pid):
    """The CPU time of a process's threads so far (the first field of each thread's schedstat, ns)."""
    return sum(int(open(path).read().split()[0]) for path in glob.glob(f"/proc/{pid}/task/*/schedstat")) / 1e9

def run(arguments):
    """(seconds to the first byte, seconds to the end, peak KiB, bytes, CPU seconds, CPU seconds at the
    first byte) of one process writing to a pipe."""
    start = time.perf_counter()
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    first = process.stdout.read(1)
    first_at = time.perf_counter() - start
    process.send_signal(signal.SIGSTOP)
    first_cpu = cpu_seconds(process.pid)
    process.send_signal(signal.SIGCONT)
    size = len(first)
    while True:
        chunk = process.stdout.read(1 << 16)
        if not chunk:
            break
        size += len(chunk)
    _, status, usage = os.wait4(process.pid, 0)
    end_at = time.perf_counter() - start
    process.returncode = status
    if status != 0:
        sys.exit(f"{arguments} failed: {status}")
    return first_at, end_at, usage.ru_maxrss, size, usage.ru_utime + usage.ru_stime, first_cpu

def main():
    catalog, database = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    print("| case | format | catalog: first byte | CPU by then | whole | CPU | peak | sqlite3: first byte | CPU by then | whole | CPU | peak | bytes (catalog / sqlite3) | catalog / sqlite3: whole, CPU |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for words, term, formats in CASES:
        for format in formats:
            mode = MODES[format]
            tools = {
                "catalog": [catalog] + words.split() + ["--format", format, "--database", database],
                "sqlite3": ["sqlite3", "-readonly", mode, "-header", database, sql_for(term)],
            }
            results = {tool: [] for tool in tools}
            for index in range(runs + 1):
                for tool, arguments in tools.items():
                    result = run(arguments)
                    if index > 0:  # the first run warms the page cache
                        results[tool].append(result)
            median = {tool: [statistics.median(r[i] for r in results[tool]) for i in range(6)] for tool in tools}
            c, s = median["catalog"], median["sqlite3"]
            print(f"| `{words}` | {format} | {c[0] * 1000:.0f} ms | {c[5] * 1000:.1f} ms | {c[1] * 1000:.0f} ms | {c[4] * 1000:.0f} ms | {c[2] / 1024:.0f} MB "
                  f"| {s[0] * 1000:.0f} ms | {s[5] * 1000:.1f} ms | {s[1] * 1000:.0f} ms | {s[4] * 1000:.0f} ms | {s[2] / 1024:.0f} MB "
                  f"| {c[3] / 1e6:.1f} / {s[3] / 1e6:.1f} MB | {c[1] / s[1]:.2f}×, {c[4] / s[4]:.2f}× |", flush=True)

if __name__ == "__main__":
    main()
