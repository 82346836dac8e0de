import FetchedResults
import Testing
import TestSupport

/// The reference difference obeys the batch-update contract: applied to the old snapshot, it gives the new one.
struct ChangeSetTests {
    /// Rows with a section and a sort key, arranged as a sectioned, sorted result.
    static func snapshot(_ rows: [Int64: (section: String, key: Int)]) -> ResultSnapshot {
        let sorted = rows.sorted { ($0.value.section, $0.value.key, $0.key) < ($1.value.section, $1.value.key, $1.key) }
        var sections: [ResultSnapshot.Section] = []
        for (id, row) in sorted {
            if sections.last?.name == row.section { sections[sections.count - 1].ids.append(id) } else {
                sections.append(.init(name: row.section, ids: [id]))
            }
        }
        return ResultSnapshot(sections: sections)
    }

    @Test func identicalSnapshotsHaveNoChanges() {
        let snapshot = Self.snapshot([1: ("A", 1), 2: ("A", 2), 3: ("B", 1)])
        #expect(ChangeSet(from: snapshot, to: snapshot).isEmpty)
    }

    @Test func aChangeInPlaceIsAnUpdate() throws {
        let old = Self.snapshot([1: ("A", 1), 2: ("A", 2), 3: ("B", 1)])
        let changes = ChangeSet(from: old, to: old, updatedIDs: [2])
        #expect(changes.changes == [.update(id: 2, from: ItemPath(section: 0, row: 1), to: ItemPath(section: 0, row: 1))])
    }

    @Test func aRenameThatReordersIsAMove() throws {
        let old = Self.snapshot([1: ("A", 1), 2: ("A", 2), 3: ("A", 3)])
        let new = Self.snapshot([1: ("A", 1), 2: ("A", 9), 3: ("A", 3)])
        let changes = ChangeSet(from: old, to: new, updatedIDs: [2])
        #expect(changes.changes.count == 1)
        #expect(try old.applying(changes) == new)
    }

    @Test func sectionsAppearAndDisappear() throws {
        let old = Self.snapshot([1: ("A", 1), 2: ("B", 1)])
        let new = Self.snapshot([1: ("C", 1), 3: ("B", 0), 2: ("B", 1)])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.deletedSections == [.init(index: 0, name: "A")])
        #expect(changes.insertedSections == [.init(index: 1, name: "C")])
        #expect(try old.applying(changes) == new)
    }

    @Test func aDeletionAndInsertionKeepOthersInPlace() throws {
        let old = Self.snapshot([1: ("A", 1), 2: ("A", 2), 3: ("A", 3)])
        let new = Self.snapshot([1: ("A", 1), 3: ("A", 3), 4: ("A", 0)])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.changes == [
            .delete(id: 2, at: ItemPath(section: 0, row: 1)),
            .insert(id: 4, at: ItemPath(section: 0, row: 0)),
        ])
    }

    @Test func applyingRefusesAMismatch() {
        let old = Self.snapshot([1: ("A", 1)])
        #expect(throws: ChangeSetMismatch.self) {
            try old.applying(ChangeSet(changes: [.delete(id: 9, at: ItemPath(section: 0, row: 0))]))
        }
    }

    /// Thousands of random histories: inserts, deletes, renames within and across sections, sections
    /// appearing and disappearing. Applying each difference to the old snapshot gives the new one,
    /// and every row that stays is a move only when its order relative to the others changed.
    @Test(arguments: 0..<40)
    func randomHistories(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let sectionNames = ["A", "B", "C", "D", "E"]
        var rows: [Int64: (section: String, key: Int)] = [:]
        var nextID: Int64 = 1
        for _ in 0..<Int.random(in: 0...30, using: &generator) {
            rows[nextID] = (sectionNames.randomElement(using: &generator)!, Int.random(in: 0...20, using: &generator))
            nextID += 1
        }
        for step in 0..<50 {
            let old = Self.snapshot(rows)
            var updated = Set<Int64>()
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0:
                    rows[nextID] = (sectionNames.randomElement(using: &generator)!, Int.random(in: 0...20, using: &generator))
                    nextID += 1
                case 1:
                    if let id = rows.keys.randomElement(using: &generator) { rows[id] = nil }
                case 2:
                    if let id = rows.keys.randomElement(using: &generator) {
                        rows[id]!.key = Int.random(in: 0...20, using: &generator)
                        updated.insert(id)
                    }
                default:
                    if let id = rows.keys.randomElement(using: &generator) {
                        rows[id]!.section = sectionNames.randomElement(using: &generator)!
                        updated.insert(id)
                    }
                }
            }
            let new = Self.snapshot(rows)
            let changes = ChangeSet(from: old, to: new, updatedIDs: updated)
            let applied = try old.applying(changes)
            #expect(applied == new, "seed \(seed) step \(step): \(old) → \(new) with \(changes)")
            for change in changes.changes {
                if case .update(let id, _, _) = change { #expect(updated.contains(id)) }
            }
        }
    }
}
