import FetchedResults
import Testing
import TestSupport

/// The incremental update moves only the changed rows, and its change set is exactly as good as the
/// reference: applied to the old snapshot, it gives a fresh snapshot of the new rows.
struct IncrementalUpdateTests {
    typealias Rows = [Int64: (section: String, key: Int)]

    /// Rows held in a dictionary, ordered by (section, key, id); counts the reads of probes and the
    /// rows they read.
    final class Source: RowPlacing {
        let rows: Rows
        var reads = 0
        var probes = 0

        init(_ rows: Rows) { self.rows = rows }

        func placements(of ids: [Int64]) -> [Int64: RowPlacement<SortKey>] {
            var result: [Int64: RowPlacement<SortKey>] = [:]
            for id in ids {
                if let row = rows[id] { result[id] = RowPlacement(sectionName: row.section, sortKey: SortKey(row.section, row.key, id)) }
            }
            return result
        }

        func sortKeys(of ids: [Int64]) -> [Int64: SortKey] {
            reads += 1
            probes += ids.count
            var keys: [Int64: SortKey] = [:]
            for id in ids {
                let row = rows[id]!
                keys[id] = SortKey(row.section, row.key, id)
            }
            return keys
        }

        func precedes(_ lhs: SortKey, _ rhs: SortKey) -> Bool {
            (lhs.section, lhs.key, lhs.id) < (rhs.section, rhs.key, rhs.id)
        }

        struct SortKey: Sendable {
            let section: String
            let key: Int
            let id: Int64
            init(_ section: String, _ key: Int, _ id: Int64) {
                self.section = section
                self.key = key
                self.id = id
            }
        }
    }

    @Test(arguments: 0..<60)
    func matchesAFreshSnapshot(seed: UInt64) throws {
        try checkAgainstFreshSnapshots(seed: seed &* 7919, rowCount: 0...40, keys: 0...15, changesPerStep: 1...5, steps: 40)
    }

    /// Results wider than the placement's fanout, so that the searches take several reads.
    @Test(arguments: 0..<6)
    func matchesAFreshSnapshotAcrossSeveralReads(seed: UInt64) throws {
        try checkAgainstFreshSnapshots(seed: seed &* 104_729, rowCount: 2000...40_000, keys: 0...3000, changesPerStep: 1...40, steps: 12)
    }

    /// Random inserts, deletes, key and section changes and changes in place, `steps` commits of
    /// `changesPerStep` changes: after each, the incremental snapshot equals a fresh one, and its change
    /// set applied to the old snapshot gives the fresh one.
    private func checkAgainstFreshSnapshots(
        seed: UInt64, rowCount: ClosedRange<Int>, keys: ClosedRange<Int>, changesPerStep: ClosedRange<Int>, steps: Int
    ) throws {
        var generator = SplitMix64(seed: seed)
        let sectionNames = ["A", "B", "C", "D"]
        var rows: Rows = [:]
        var nextID: Int64 = 1
        for _ in 0..<Int.random(in: rowCount, using: &generator) {
            rows[nextID] = (sectionNames.randomElement(using: &generator)!, Int.random(in: keys, using: &generator))
            nextID += 1
        }
        var snapshot = ChangeSetTests.snapshot(rows)
        for step in 0..<steps {
            let old = snapshot
            var changed = Set<Int64>()
            for _ in 0..<Int.random(in: changesPerStep, using: &generator) {
                switch Int.random(in: 0..<5, using: &generator) {
                case 0:
                    rows[nextID] = (sectionNames.randomElement(using: &generator)!, Int.random(in: keys, using: &generator))
                    changed.insert(nextID)
                    nextID += 1
                case 1:
                    if let id = rows.keys.randomElement(using: &generator) {
                        rows[id] = nil
                        changed.insert(id)
                    }
                case 2:
                    if let id = rows.keys.randomElement(using: &generator) {
                        rows[id]!.key = Int.random(in: keys, using: &generator)
                        changed.insert(id)
                    }
                case 3:
                    if let id = rows.keys.randomElement(using: &generator) {
                        rows[id]!.section = sectionNames.randomElement(using: &generator)!
                        changed.insert(id)
                    }
                default:
                    // Changed but in place: the record changed, its sort key did not.
                    if let id = rows.keys.randomElement(using: &generator) { changed.insert(id) }
                }
            }
            let source = Source(rows)
            let changes = try snapshot.update(changedIDs: changed, from: source)
            let fresh = ChangeSetTests.snapshot(rows)
            #expect(snapshot == fresh, "seed \(seed) step \(step): incremental \(snapshot) != fresh \(fresh)")
            #expect(try old.applying(changes) == fresh, "seed \(seed) step \(step): \(old) + \(changes) != \(fresh)")
            for change in changes.changes { #expect(changed.contains(change.id)) }
            snapshot = fresh
        }
    }

    @Test func placesEveryChangedRowInAFewReads() throws {
        var rows: Rows = [:]
        for id in Int64(1)...200_000 { rows[id] = ("A", Int(id) * 2) }
        var snapshot = ChangeSetTests.snapshot(rows)
        rows[200_001] = ("A", 1001)  // lands between keys 1000 and 1002
        rows[7]!.key = 400_001  // moves to the end
        rows[9] = nil
        var changed: Set<Int64> = [200_001, 7, 9]
        for id in Int64(100)..<Int64(150) {  // fifty more moved
            rows[id * 1000]!.key = Int(id) * 7
            changed.insert(id * 1000)
        }
        let source = Source(rows)
        let changes = try snapshot.update(changedIDs: changed, from: source)
        // 200,000 rows narrowed to one of 129 parts a read: 3 reads, however many rows changed.
        #expect(source.reads == 3)
        #expect(source.probes <= 3 * changed.count * ResultSnapshot.placementFanout)
        #expect(changes.changes.count == changed.count)
        #expect(snapshot == ChangeSetTests.snapshot(rows))
    }

    @Test func aChangeInPlaceIsAnUpdateWithBothPaths() throws {
        let rows: Rows = [1: ("A", 1), 2: ("A", 2), 3: ("B", 1)]
        var snapshot = ChangeSetTests.snapshot(rows)
        let changes = try snapshot.update(changedIDs: [3], from: Source(rows))
        #expect(changes.changes == [.update(id: 3, from: ItemPath(section: 1, row: 0), to: ItemPath(section: 1, row: 0))])
    }
}
