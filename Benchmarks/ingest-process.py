#!/usr/bin/env python3
"""Ingest as a user runs it at a shell, each a whole process, in the same run, taking turns:

    python3 Benchmarks/ingest-process.py .build/release/catalog COUNT FOLDER [RUNS]

- catalog: `catalog seed --count COUNT` into a new file (its schema, search structures and indexes).
- python bulk: `load-products.py` loads the same products (`catalog export`'s JSON lines, made untimed,
  read a line at a time) into a bare
  table, then builds UNIQUE(name) and an external-content FTS5 trigram index in one statement each.
- python per-row trigger: the same, with UNIQUE(name) and the FTS5 index there first, kept by a trigger.

Prints, per tool, the median time, the peak resident memory (the child's own ru_maxrss, from wait4) and
the database's size (the file and its -wal), and catalog / peer for each.
"""
import os, statistics, subprocess, sys, time

def run(arguments):
    """(seconds, peak KiB) of one process, its output discarded."""
    start = time.perf_counter()
    process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        sys.exit(f"{arguments} failed: {status}")
    return time.perf_counter() - start, usage.ru_maxrss

def remove(path):
    for suffix in ["", "-wal", "-shm"]:
        if os.path.exists(path + suffix):
            os.remove(path + suffix)

def size(path):
    return sum(os.path.getsize(path + s) for s in ["", "-wal"] if os.path.exists(path + s))

def main():
    catalog, count, folder = sys.argv[1], sys.argv[2], sys.argv[3]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    os.makedirs(folder, exist_ok=True)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "load-products.py")
    json_path = os.path.join(folder, "products.jsonl")
    files = {tool: os.path.join(folder, f"{tool.replace(' ', '-')}.sqlite") for tool in ["catalog", "python bulk", "python per-row trigger"]}
    remove(files["catalog"])
    subprocess.run([catalog, "seed", "--count", count, "--database", files["catalog"]], stdout=subprocess.DEVNULL, check=True)
    with open(json_path, "wb") as out:
        subprocess.run([catalog, "export", "--format", "jsonl", "--database", files["catalog"]], stdout=out, check=True)
    tools = {
        "catalog": [catalog, "seed", "--count", count, "--database", files["catalog"]],
        "python bulk": [sys.executable, script, json_path, files["python bulk"], "bulk"],
        "python per-row trigger": [sys.executable, script, json_path, files["python per-row trigger"], "per-row-trigger"],
    }
    results = {tool: [] for tool in tools}
    for _ in range(runs):
        for tool, arguments in tools.items():
            remove(files[tool])
            results[tool].append(run(arguments))
    median = {tool: (statistics.median(r[0] for r in rs), max(r[1] for r in rs), size(files[tool])) for tool, rs in results.items()}
    c = median["catalog"]
    print(f"| tool | {int(count):,} products: time | peak memory | database size | catalog / tool (time, memory, size) |")
    print("|---|---:|---:|---:|---:|")
    for tool, (seconds, kib, bytes_) in median.items():
        print(f"| {tool} | {seconds:.1f} s | {kib / 1024:.0f} MB | {bytes_ / 1e6:.0f} MB "
              f"| {c[0] / seconds:.2f}×, {c[1] / kib:.2f}×, {c[2] / bytes_:.2f}× |", flush=True)
    for path in files.values():
        remove(path)
    os.remove(json_path)

if __name__ == "__main__":
    main()
