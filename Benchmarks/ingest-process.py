#!/usr/bin/env python3
"""Ingest as a user runs it at a shell, each a whole process, in the same run, taking turns:

    python3 Benchmarks/ingest-process.py CATALOG COUNT FOLDER [RUNS] [--before OLD_CATALOG]
        [--into BASE] [--per-row-trigger]

Into an empty database (the default):
- catalog seed: `catalog seed --count COUNT` into a new file (its schema, search structures, indexes).
- catalog import: `catalog import` of the same products (`catalog export`'s JSON lines, made untimed).
- python bulk: `load-products.py` loads those JSON lines (read a line at a time) into a bare table, then
  builds UNIQUE(name) and an external-content FTS5 trigram index in one statement each.
- python per-row trigger (with --per-row-trigger): the same, the index there first, kept by a trigger.

With --into BASE, COUNT products are added to a file of BASE others (each tool's own file, made
untimed, copied before each run):
- catalog import: `catalog import` of the COUNT products' JSON lines.
- python bulk: `load-products.py append`: the rows inserted with UNIQUE(name) in place, then the new
  rows added to the FTS5 index in one statement.

--before OLD_CATALOG runs the same catalog commands with another build too (labelled "before").
Prints, per tool, the median wall time, the median CPU time (user + system, from wait4: what the
process itself did, whatever else the machine runs), the peak resident memory (the child's own
ru_maxrss) and the database's size (the file and its -wal), and each tool against the first peer.
"""
import argparse, os, shutil, statistics, subprocess, sys, time

def run(arguments):
    """(seconds, CPU seconds, peak KiB) of one process, its output discarded."""
    start = time.perf_counter()
    process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        sys.exit(f"{arguments} failed: {status}")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss

def remove(path):
    for suffix in ["", "-wal", "-shm"]:
        if os.path.exists(path + suffix):
            os.remove(path + suffix)

def size(path):
    return sum(os.path.getsize(path + s) for s in ["", "-wal"] if os.path.exists(path + s))

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("catalog")
    parser.add_argument("count", type=int)
    parser.add_argument("folder")
    parser.add_argument("runs", type=int, nargs="?", default=1)
    parser.add_argument("--before")
    parser.add_argument("--into", type=int)
    parser.add_argument("--per-row-trigger", action="store_true")
    options = parser.parse_args()
    folder, count = options.folder, options.count
    os.makedirs(folder, exist_ok=True)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "load-products.py")
    catalogs = {"": options.catalog} | ({" (before)": options.before} if options.before else {})
    def path(tool):
        return os.path.join(folder, tool.replace(" ", "-").replace("(", "").replace(")", "") + ".sqlite")
    # The products: COUNT (after BASE others with --into), as `catalog export`'s JSON lines.
    made = os.path.join(folder, "made.sqlite")
    remove(made)
    subprocess.run([options.catalog, "seed", "--count", str(count + (options.into or 0)), "--database", made],
                   stdout=subprocess.DEVNULL, check=True)
    all_lines = os.path.join(folder, "all.jsonl")
    with open(all_lines, "wb") as out:
        subprocess.run([options.catalog, "export", "--format", "jsonl", "--database", made], stdout=out, check=True)
    remove(made)
    added, base = os.path.join(folder, "added.jsonl"), os.path.join(folder, "base.jsonl")
    with open(all_lines, "rb") as lines, open(base, "wb") as base_out, open(added, "wb") as added_out:
        for number, line in enumerate(lines):
            (base_out if number < (options.into or 0) else added_out).write(line)
    os.remove(all_lines)
    tools, bases = {}, {}
    if options.into is None:
        for label, catalog in catalogs.items():
            tools[f"catalog seed{label}"] = [catalog, "seed", "--count", str(count), "--database", path(f"catalog seed{label}")]
            tools[f"catalog import{label}"] = [catalog, "import", added, "--database", path(f"catalog import{label}")]
        tools["python bulk"] = [sys.executable, script, added, path("python bulk"), "bulk"]
        if options.per_row_trigger:
            tools["python per-row trigger"] = [sys.executable, script, added, path("python per-row trigger"), "per-row-trigger"]
    else:
        # Each tool's file of BASE products, made once, untimed.
        bases["catalog"] = os.path.join(folder, "base-catalog.sqlite")
        bases["python"] = os.path.join(folder, "base-python.sqlite")
        for base_file in bases.values():
            remove(base_file)
        subprocess.run([options.catalog, "import", base, "--database", bases["catalog"]], stdout=subprocess.DEVNULL, check=True)
        subprocess.run([sys.executable, script, base, bases["python"], "bulk"], stdout=subprocess.DEVNULL, check=True)
        for label, catalog in catalogs.items():
            tools[f"catalog import{label}"] = [catalog, "import", added, "--database", path(f"catalog import{label}")]
        tools["python bulk"] = [sys.executable, script, added, path("python bulk"), "append"]
    results = {tool: [] for tool in tools}
    for _ in range(options.runs):
        for tool, arguments in tools.items():
            remove(path(tool))
            if bases:
                base_file = bases["catalog" if tool.startswith("catalog") else "python"]
                for suffix in ["", "-wal"]:
                    if os.path.exists(base_file + suffix):
                        shutil.copyfile(base_file + suffix, path(tool) + suffix)
            results[tool].append(run(arguments))
    median = {tool: (statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs), max(r[2] for r in rs), size(path(tool)))
              for tool, rs in results.items()}
    peer = median["python bulk"]
    into = f" into {options.into:,}" if options.into else ""
    print(f"| tool | {count:,} products{into}: time | CPU time | peak memory | database size | tool / python bulk (time, CPU, memory, size) |")
    print("|---|---:|---:|---:|---:|---:|")
    for tool, (seconds, cpu, kib, bytes_) in median.items():
        print(f"| {tool} | {seconds:.1f} s | {cpu:.1f} s | {kib / 1024:.0f} MB | {bytes_ / 1e6:.0f} MB "
              f"| {seconds / peer[0]:.2f}×, {cpu / peer[1]:.2f}×, {kib / peer[2]:.2f}×, {bytes_ / peer[3]:.2f}× |", flush=True)
    for tool in tools:
        remove(path(tool))
    for base_file in bases.values():
        remove(base_file)
    os.remove(added)
    os.remove(base)

if __name__ == "__main__":
    main()
