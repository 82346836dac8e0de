extension ResultSnapshot {
    /// Moves only the rows in `changedIDs` to where `source` says they belong now, and returns the
    /// change set that does the same under the batch-update contract.
    ///
    /// Rows not in `changedIDs` must not have changed in any way that affects the result (the caller
    /// learns which rows changed from the store's change log). The changed rows are found in one pass
    /// over the ids and removed; each is then placed among the rows that stay by a search that asks
    /// `source` for the sort keys of ``placementFanout`` rows of its range at a time, every changed
    /// row's probes read together (each distinct row once), so that a million rows take a few rounds
    /// of reads whatever the number of changed rows; no other row is read.
    ///
    /// A changed row that stays in its section, with the same unchanged rows before it, is an update;
    /// otherwise it is a move (or an insertion or deletion when it enters or leaves the result).
    ///
    /// - Complexity: O(*n*) over the ids for *k* changed rows among *n*, and
    ///   ⌈log(*n*) / log(``placementFanout`` + 1)⌉ rounds, each reading at most *k* · ``placementFanout``
    ///   distinct rows (one more when a changed row opens a section).
    public mutating func update<Source: RowPlacing>(changedIDs: Set<Int64>, from source: Source) throws -> ChangeSet {
        let old = self
        let oldPaths = old.paths(of: changedIDs)
        let placements = try source.placements(of: Array(changedIDs))

        // Remove every changed row that was in the result, one pass per section.
        var removedRows: [Int: [Int]] = [:]
        for path in oldPaths.values { removedRows[path.section, default: []].append(path.row) }
        for (section, rows) in removedRows { sections[section].removeRows(rows.sorted()) }
        // Sections left empty go now; one that gets a row back is inserted again under the same name,
        // which keeps its identity in the change set.
        sections.removeAll { $0.ids.isEmpty }

        // A section that only changed rows fill goes before the first section whose first row comes
        // after its own first row.
        let opened = Dictionary(grouping: placements, by: \.value.sectionName)
            .filter { name, _ in !sections.contains { $0.name == name } }
            .mapValues { rows in rows.map(\.value.sortKey).min(by: source.precedes)! }
        if !opened.isEmpty {
            let readKeys = try source.sortKeys(of: sections.map { $0.ids[0] })
            var firstKeys = try sections.map { section in
                guard let key = readKeys[section.ids[0]] else { throw FetchError.resultChanged }
                return key
            }
            for (name, key) in opened.sorted(by: { source.precedes($0.value, $1.value) }) {
                var (index, high) = (0, firstKeys.count)
                while index < high {
                    let middle = (index + high) / 2
                    if source.precedes(firstKeys[middle], key) { index = middle + 1 } else { high = middle }
                }
                sections.insert(Section(name: name, ids: []), at: index)
                firstKeys.insert(key, at: index)
            }
        }

        // Each placed row's place among the rows that stay, then its row once the changed rows before
        // it in its section are placed too.
        let sectionIndex = Dictionary(sections.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var searches = placements.map { id, placement in
            PlacementSearch(id: id, key: placement.sortKey, section: sectionIndex[placement.sectionName]!,
                            low: 0, high: sections[sectionIndex[placement.sectionName]!].ids.count)
        }
        try Self.narrow(&searches, in: sections, source)
        var newPaths: [Int64: ItemPath] = [:]
        for (section, rows) in Dictionary(grouping: searches, by: \.section) {
            let ordered = rows.sorted { $0.low != $1.low ? $0.low < $1.low : source.precedes($0.key, $1.key) }
            let placed = ordered.enumerated().map { (row: $0.element.low + $0.offset, id: $0.element.id) }
            sections[section].insertRows(placed)
            for row in placed { newPaths[row.id] = ItemPath(section: section, row: row.row) }
        }
        return ChangeSet(old: old, new: self, oldPaths: oldPaths, newPaths: newPaths)
    }

    /// How many rows of its remaining range a changed row's placement compares with per read: each
    /// read narrows the range to one of fanout + 1 parts, so 1,000,000 rows take 3 reads (W4 and W5
    /// on PostgreSQL: each read is a round trip to the server).
    public static var placementFanout: Int { 128 }

    /// A changed row's search for its place in its section: among the rows that stay, those before
    /// `low` precede it, those from `high` on follow it; found when `low == high`.
    private struct PlacementSearch<SortKey> {
        var id: Int64
        var key: SortKey
        var section: Int
        var low: Int
        var high: Int
    }

    /// Narrows every search to its place, reading the probes of all searches at once per round: the
    /// searches of one section start from the same range, so each distinct row is read once.
    private static func narrow<Source: RowPlacing>(
        _ searches: inout [PlacementSearch<Source.SortKey>], in sections: [Section], _ source: Source
    ) throws {
        while searches.contains(where: { $0.low < $0.high }) {
            // Probes evenly spaced in each range: every row of a range no wider than the fanout.
            let probes = searches.map { search -> [Int] in
                let width = search.high - search.low
                let count = min(placementFanout, width)
                return count == 0 ? [] : (1...count).map { search.low + width * $0 / (count + 1) }
            }
            var ids = Set<Int64>()
            for (search, rows) in zip(searches, probes) { ids.formUnion(rows.map { sections[search.section].ids[$0] }) }
            let keys = try source.sortKeys(of: Array(ids))
            for index in searches.indices {
                let search = searches[index]
                var (low, high) = (search.low, search.high)
                for row in probes[index] {
                    guard let key = keys[sections[search.section].ids[row]] else { throw FetchError.resultChanged }
                    if source.precedes(key, search.key) {
                        low = row + 1
                    } else {
                        high = row
                        break
                    }
                }
                searches[index].low = low
                searches[index].high = high
            }
        }
    }

    /// The paths of those of `ids` that are in the snapshot, found in one pass over its rows: a bit set
    /// of the ids' low bits passes few rows on to the set.
    func paths(of ids: Set<Int64>) -> [Int64: ItemPath] {
        var paths: [Int64: ItemPath] = [:]
        guard !ids.isEmpty else { return paths }
        let mask = 1 << 16 - 1
        var bits = [UInt64](repeating: 0, count: (mask + 1) / 64)
        for id in ids {
            let bit = Int(truncatingIfNeeded: id) & mask
            bits[bit >> 6] |= 1 << UInt64(bit & 63)
        }
        bits.withUnsafeBufferPointer { bits in
            for (index, section) in sections.enumerated() {
                section.ids.withUnsafeBufferPointer { rows in
                    for row in rows.indices {
                        let bit = Int(truncatingIfNeeded: rows[row]) & mask
                        if bits[bit >> 6] & (1 << UInt64(bit & 63)) != 0, ids.contains(rows[row]) {
                            paths[rows[row]] = ItemPath(section: index, row: row)
                        }
                    }
                }
            }
        }
        return paths
    }
}

extension ResultSnapshot.Section {
    /// Removes the rows at `rows` (ascending), moving each row after the first of them once.
    mutating func removeRows(_ rows: [Int]) {
        guard let first = rows.first else { return }
        ids.withUnsafeMutableBufferPointer { ids in
            var (write, next) = (first, 0)
            for read in first..<ids.count {
                if next < rows.count && rows[next] == read {
                    next += 1
                } else {
                    ids[write] = ids[read]
                    write += 1
                }
            }
        }
        ids.removeLast(rows.count)
    }

    /// Inserts ids at their rows after the insertion (ascending), moving each row after the first of
    /// them once.
    mutating func insertRows(_ placed: [(row: Int, id: Int64)]) {
        guard !placed.isEmpty else { return }
        var read = ids.count - 1
        ids.append(contentsOf: repeatElement(0, count: placed.count))
        ids.withUnsafeMutableBufferPointer { ids in
            var write = ids.count - 1
            for (row, id) in placed.reversed() {
                while write > row {
                    ids[write] = ids[read]
                    write -= 1
                    read -= 1
                }
                ids[write] = id
                write -= 1
            }
        }
    }
}

extension ChangeSet {
    /// The change set between two snapshots that differ only by the rows in `oldPaths` (changed rows
    /// that were in the old result, with their old paths) and `newPaths` (changed rows in the new
    /// result, with their new paths).
    init(old: ResultSnapshot, new: ResultSnapshot, oldPaths: [Int64: ItemPath], newPaths: [Int64: ItemPath]) {
        let oldNames = Set(old.sections.map(\.name))
        let newNames = Set(new.sections.map(\.name))
        let deletedSections = old.sections.enumerated().filter { !newNames.contains($0.element.name) }
            .map { SectionChange(index: $0.offset, name: $0.element.name) }
        let insertedSections = new.sections.enumerated().filter { !oldNames.contains($0.element.name) }
            .map { SectionChange(index: $0.offset, name: $0.element.name) }

        // The number of unchanged rows before a changed row in its section, before and after the change.
        let changedOldRows = Self.sortedRowsBySection(oldPaths.values)
        let changedNewRows = Self.sortedRowsBySection(newPaths.values)
        func unchangedBefore(_ path: ItemPath, _ changedRows: [Int: [Int]]) -> Int {
            let rows = changedRows[path.section] ?? []
            var low = 0
            var high = rows.count
            while low < high {
                let middle = (low + high) / 2
                if rows[middle] < path.row { low = middle + 1 } else { high = middle }
            }
            return path.row - low
        }
        var deletions: [Change] = []
        var placed: [Change] = []
        var candidates: [ItemPath: [(id: Int64, oldRow: Int, newRow: Int)]] = [:]  // by section and gap
        for (id, oldPath) in oldPaths {
            guard let newPath = newPaths[id] else {
                deletions.append(.delete(id: id, at: oldPath))
                continue
            }
            let sameSection = old.sections[oldPath.section].name == new.sections[newPath.section].name
            let gap = unchangedBefore(newPath, changedNewRows)
            if sameSection && unchangedBefore(oldPath, changedOldRows) == gap {
                candidates[ItemPath(section: newPath.section, row: gap), default: []].append((id, oldPath.row, newPath.row))
            } else {
                placed.append(.move(id: id, from: oldPath, to: newPath))
            }
        }
        // Changed rows in one gap between unchanged rows stay in place only while their order holds.
        for (_, rows) in candidates {
            let ordered = rows.sorted { $0.oldRow < $1.oldRow }
            let inPlace = Set(longestIncreasingSubsequence(ordered.map(\.newRow)).map { ordered[$0].id })
            for row in ordered {
                let change: Change = inPlace.contains(row.id)
                    ? .update(id: row.id, from: oldPaths[row.id]!, to: newPaths[row.id]!)
                    : .move(id: row.id, from: oldPaths[row.id]!, to: newPaths[row.id]!)
                placed.append(change)
            }
        }
        for (id, newPath) in newPaths where oldPaths[id] == nil {
            placed.append(.insert(id: id, at: newPath))
        }
        deletions.sort { $0.oldPath! < $1.oldPath! }
        placed.sort { $0.newPath! < $1.newPath! }
        self.init(deletedSections: deletedSections, insertedSections: insertedSections, changes: deletions + placed)
    }

    /// Rows by section, each list sorted.
    private static func sortedRowsBySection(_ paths: some Sequence<ItemPath>) -> [Int: [Int]] {
        var rows: [Int: [Int]] = [:]
        for path in paths { rows[path.section, default: []].append(path.row) }
        return rows.mapValues { $0.sorted() }
    }
}
