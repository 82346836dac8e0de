#!/usr/bin/env python3
"""Peak memory (VmHWM, as getrusage's ru_maxrss of the finished child) and time of `catalog import`
and `catalog export` of N products, each in its own process.

    python3 Benchmarks/stream-memory.py .build/release/catalog 1000000 /tmp/stream-bench

Writes a CSV of N products (names of 2-3 words, some accented, some Japanese), imports it into a new
database, exports it in each format, and imports the JSON export into another new database.
"""
import os, random, resource, subprocess, sys, time

def measure(label, arguments, stdout="-"):
    code = ("import resource, subprocess, sys, time; start = time.monotonic(); "
            "status = subprocess.call(sys.argv[2:], stdout=open(sys.argv[1], 'wb') if sys.argv[1] != '-' else subprocess.DEVNULL); "
            "elapsed = time.monotonic() - start; "
            "print(status, elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.check_output([sys.executable, "-c", code, stdout] + arguments, text=True).split()
    status, elapsed, kib = int(out[0]), float(out[1]), int(out[2])
    print(f"{label:<44} {elapsed:8.1f} s  {kib / 1024:7.1f} MB peak  exit {status}", flush=True)
    if status != 0:
        sys.exit(status)

def main():
    catalog, count, folder = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.makedirs(folder, exist_ok=True)
    random.seed(15)
    words = ["alpha", "bravo", "café", "delta", "écho", "foxtrot", "golf", "hôtel", "india", "juliett", "kilo", "lima",
             "東京", "タワー", "mike", "november", "oscar", "papa", "québec", "romeo", "sierra", "tango"]
    source = os.path.join(folder, "products.csv")
    with open(source, "w", encoding="utf-8", newline="") as file:
        file.write("type,name,yearIntroduced,introPrice\r\n")
        for index in range(count):
            name = " ".join(random.choice(words) for _ in range(random.randint(2, 3))) + f" {index}"
            file.write(f"{random.choice(['device', 'desktop', 'portable'])},{name},{random.randint(1990, 2025)},{random.randint(0, 399999) / 100}\r\n")
    print(f"{count:,} products, {os.path.getsize(source) / 1e6:.0f} MB of CSV")
    first = os.path.join(folder, "first.sqlite")
    second = os.path.join(folder, "second.sqlite")
    for path in [first, second]:
        for suffix in ["", "-wal", "-shm"]:
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
    measure(f"import {count:,} products from CSV", [catalog, "import", source, "--database", first])
    for format in ["csv", "jsonl", "json"]:
        output = os.path.join(folder, "export." + format)
        measure(f"export {count:,} products as {format}", [catalog, "export", "--format", format, "--database", first], stdout=output)
    measure(f"import {count:,} products from JSON --keep-ids", [catalog, "import", os.path.join(folder, "export.json"), "--keep-ids", "--database", second])

main()
