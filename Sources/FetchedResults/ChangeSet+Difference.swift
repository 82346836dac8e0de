extension ChangeSet {
    /// The change set that turns `old` into `new`: the reference implementation, used as the fallback
    /// when changes cannot be tracked row by row, and as the oracle in tests.
    ///
    /// Sections are matched by name. A row that stays in a section of the same name is left in place
    /// when it belongs to the longest run of such rows whose order did not change (a longest increasing
    /// subsequence); the others are moves. Rows in place whose id is in `updatedIDs` are updates.
    ///
    /// - Complexity: O(*n* log *n*) for *n* rows in both snapshots.
    public init(from old: ResultSnapshot, to new: ResultSnapshot, updatedIDs: Set<Int64> = []) {
        let newSectionNames = Set(new.sections.map(\.name))
        let oldSectionNames = Set(old.sections.map(\.name))
        let deletedSections = old.sections.enumerated()
            .filter { !newSectionNames.contains($0.element.name) }
            .map { SectionChange(index: $0.offset, name: $0.element.name) }
        let insertedSections = new.sections.enumerated()
            .filter { !oldSectionNames.contains($0.element.name) }
            .map { SectionChange(index: $0.offset, name: $0.element.name) }

        let newPaths = new.pathsByID
        var deletions: [Change] = []
        var placed: [Change] = []
        var kept = Set<Int64>()
        for (sectionIndex, section) in old.sections.enumerated() {
            // Rows that stay in a section of the same name, with their new rows, in old order.
            var staying: [(id: Int64, oldRow: Int, newPath: ItemPath)] = []
            for (row, id) in section.ids.enumerated() {
                let oldPath = ItemPath(section: sectionIndex, row: row)
                guard let newPath = newPaths[id] else {
                    deletions.append(.delete(id: id, at: oldPath))
                    continue
                }
                if new.sections[newPath.section].name == section.name {
                    staying.append((id, row, newPath))
                } else {
                    placed.append(.move(id: id, from: oldPath, to: newPath))
                }
                kept.insert(id)
            }
            let inPlace = Set(longestIncreasingSubsequence(staying.map(\.newPath.row)).map { staying[$0].id })
            for row in staying {
                let oldPath = ItemPath(section: sectionIndex, row: row.oldRow)
                if !inPlace.contains(row.id) {
                    placed.append(.move(id: row.id, from: oldPath, to: row.newPath))
                } else if updatedIDs.contains(row.id) {
                    placed.append(.update(id: row.id, from: oldPath, to: row.newPath))
                }
            }
        }
        for (sectionIndex, section) in new.sections.enumerated() {
            for (row, id) in section.ids.enumerated() where !kept.contains(id) {
                placed.append(.insert(id: id, at: ItemPath(section: sectionIndex, row: row)))
            }
        }
        placed.sort { $0.newPath! < $1.newPath! }
        self.init(deletedSections: deletedSections, insertedSections: insertedSections, changes: deletions + placed)
    }
}

extension ChangeSet.Change {
    /// The path before the change, for deletions, moves and updates.
    public var oldPath: ItemPath? {
        switch self {
        case .insert: nil
        case .delete(_, let path): path
        case .move(_, let from, _), .update(_, let from, _): from
        }
    }

    /// The path after the change, for insertions, moves and updates.
    public var newPath: ItemPath? {
        switch self {
        case .delete: nil
        case .insert(_, let path): path
        case .move(_, _, let to), .update(_, _, let to): to
        }
    }
}

/// The indexes of a longest strictly increasing subsequence of `values`.
///
/// - Complexity: O(*n* log *n*).
func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
    var tails: [Int] = []  // tails[k]: index of the smallest last value of an increasing run of length k + 1
    var previous = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
        var low = 0
        var high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
        }
        if low > 0 { previous[index] = tails[low - 1] }
        if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var result: [Int] = []
    var index = tails.last ?? -1
    while index >= 0 {
        result.append(index)
        index = previous[index]
    }
    return result.reversed()
}
