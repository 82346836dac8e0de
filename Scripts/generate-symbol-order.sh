#!/usr/bin/env bash
# Writes Scripts/catalog.symbol-order: the functions and the writable data that short `catalog`
# commands touch, which the release link (Package.swift, the `catalog` target) places first, so that
# start-up faults in fewer pages. Run from the package root after `swift build -c release --product
# catalog`: bash Scripts/generate-symbol-order.sh  (needs valgrind; about 5 minutes).
#
# Functions: every one callgrind sees run, for each command below. Data: every symbol of .data, .bss
# and .data.rel.ro that valgrind's lackey sees read or written by `show 0.0 --search a`. A name the
# code no longer has is ignored by the linker (--no-warn-symbol-ordering), so a stale file only makes
# start-up slower, never wrong.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Scripts/catalog.symbol-order
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# valgrind gives up on the binary's DWARF; the symbol table is all it needs.
objcopy --strip-debug .build/release/catalog "$work/catalog"
db="$work/catalog.sqlite"
"$work/catalog" seed Seeds/products.json --database "$db" >/dev/null
"$work/catalog" seed Seeds/phones.json --database "$db" >/dev/null

commands=(
    "show 0.0 --search a"
    "search mac"
    "list"
    "list phones --sort maker"
    "suggest mac"
)
for i in "${!commands[@]}"; do
    # shellcheck disable=SC2086
    valgrind --tool=callgrind --demangle=no --compress-strings=no --compress-pos=no \
        --callgrind-out-file="$work/callgrind.$i" "$work/catalog" ${commands[$i]} --database "$db" \
        >/dev/null 2>&1
done
valgrind --tool=callgrind --demangle=no --compress-strings=no --compress-pos=no \
    --callgrind-out-file="$work/callgrind.version" "$work/catalog" --version >/dev/null 2>&1

# Functions in the order of the commands above, each once (callgrind names a function `name'N`
# when it saw several with one name; addresses without a name are left out).
cat "$work"/callgrind.* | sed -n 's/^fn=//p' | sed "s/'[0-9]*\$//" | grep -v '^0x' \
    | awk '!seen[$0]++' > "$work/functions"

# Data: the symbols of the writable sections that lackey's loads and stores fall in.
nm -S -n "$work/catalog" | awk 'NF == 4' > "$work/symbols"
valgrind --tool=lackey --trace-mem=yes --log-fd=9 "$work/catalog" show 0.0 --search a --database "$db" \
    9>"$work/lackey" >/dev/null 2>&1
python3 - "$work/catalog" "$work/symbols" "$work/lackey" > "$work/data" <<'EOF'
import bisect, re, subprocess, sys
binary, symbols, trace = sys.argv[1:4]
ranges = []
for line in subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True).stdout.splitlines():
    m = re.match(r"\s*\[\s*\d+\]\s+(\.data|\.bss|\.data\.rel\.ro)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
    if m:
        start = int(m.group(2), 16)
        ranges.append((start, start + int(m.group(3), 16)))
table = []
for line in open(symbols):
    address, size, _, name = line.split(None, 3)
    table.append((int(address, 16), int(size, 16), name.strip()))
table.sort()
starts = [entry[0] for entry in table]
seen = set()
for line in open(trace):
    fields = line.split()
    if len(fields) != 2 or fields[0] not in ("L", "S", "M"):
        continue
    address = int(fields[1].split(",")[0], 16)
    if not any(start <= address < end for start, end in ranges):
        continue
    i = bisect.bisect_right(starts, address) - 1
    if i >= 0 and table[i][0] <= address < table[i][0] + max(table[i][1], 8) and table[i][2] not in seen:
        seen.add(table[i][2])
        print(table[i][2])
EOF

cat "$work/functions" "$work/data" > "$out"
echo "$out: $(wc -l < "$work/functions") functions, $(wc -l < "$work/data") data symbols"
