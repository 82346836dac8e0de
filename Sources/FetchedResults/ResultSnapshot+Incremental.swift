extension ResultSnapshot {
    /// Moves only the rows in `changedIDs` to where `source` says they belong now, and returns the
    /// change set that does the same under the batch-update contract.
    ///
    /// Rows not in `changedIDs` must not have changed in any way that affects the result (the caller
    /// learns which rows changed from the store's change log). Each changed row is found by a scan of
    /// the ids, removed, then placed by binary search, asking `source` for the sort keys of the
    /// O(log *n*) rows it compares with; no other row is read.
    ///
    /// A changed row that stays in its section, with the same unchanged rows before it, is an update;
    /// otherwise it is a move (or an insertion or deletion when it enters or leaves the result).
    ///
    /// - Complexity: O(*k* · (*n* + log *n* probes)) for *k* changed rows among *n*: the scans are of
    ///   contiguous 8-byte ids, the probes are single-row reads.
    public mutating func update<Source: RowPlacing>(changedIDs: Set<Int64>, from source: Source) throws -> ChangeSet {
        let old = self
        var oldPaths: [Int64: ItemPath] = [:]
        for id in changedIDs {
            if let path = old.path(of: id) { oldPaths[id] = path }
        }
        let placements = try source.placements(of: Array(changedIDs))

        // Remove every changed row that was in the result.
        for (_, path) in oldPaths.sorted(by: { $0.value > $1.value }) {
            sections[path.section].ids.remove(at: path.row)
        }
        // Sections left empty go now; one that gets a row back is inserted again under the same name,
        // which keeps its identity in the change set.
        sections.removeAll { $0.ids.isEmpty }

        // Place each changed row that is in the result now.
        var placedKeys: [Int64: Source.SortKey] = [:]
        for (id, placement) in placements {
            placedKeys[id] = placement.sortKey
        }
        func key(of id: Int64) throws -> Source.SortKey {
            if let key = placedKeys[id] { return key }
            return try source.sortKey(of: id)
        }
        for (id, placement) in placements.sorted(by: { $0.key < $1.key }) {
            let sectionIndex: Int
            if let existing = sections.firstIndex(where: { $0.name == placement.sectionName }) {
                sectionIndex = existing
            } else {
                // A new section goes before the first section whose first row comes after this row.
                var low = 0
                var high = sections.count
                while low < high {
                    let middle = (low + high) / 2
                    if try source.precedes(key(of: sections[middle].ids[0]), placement.sortKey) {
                        low = middle + 1
                    } else {
                        high = middle
                    }
                }
                sections.insert(Section(name: placement.sectionName, ids: []), at: low)
                sectionIndex = low
            }
            var low = 0
            var high = sections[sectionIndex].ids.count
            while low < high {
                let middle = (low + high) / 2
                if try source.precedes(key(of: sections[sectionIndex].ids[middle]), placement.sortKey) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            sections[sectionIndex].ids.insert(id, at: low)
        }

        return ChangeSet(old: old, new: self, oldPaths: oldPaths, placedIDs: Set(placements.keys))
    }
}

extension ChangeSet {
    /// The change set between two snapshots that differ only by the rows in `oldPaths` (changed rows
    /// that were in the old result, with their old paths) and `placedIDs` (changed rows in the new result).
    init(old: ResultSnapshot, new: ResultSnapshot, oldPaths: [Int64: ItemPath], placedIDs: Set<Int64>) {
        let oldNames = Set(old.sections.map(\.name))
        let newNames = Set(new.sections.map(\.name))
        let deletedSections = old.sections.enumerated().filter { !newNames.contains($0.element.name) }
            .map { SectionChange(index: $0.offset, name: $0.element.name) }
        let insertedSections = new.sections.enumerated().filter { !oldNames.contains($0.element.name) }
            .map { SectionChange(index: $0.offset, name: $0.element.name) }

        var newPaths: [Int64: ItemPath] = [:]
        for id in placedIDs {
            if let path = new.path(of: id) { newPaths[id] = path }
        }

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
