import FetchedResults
import Testing
import TestSupport

/// The incremental update moves only the changed rows, and its change set is exactly as good as the
/// reference: applied to the old snapshot, it gives a fresh snapshot of the new rows.
struct IncrementalUpdateTests {
    typealias Rows = [Int64: (section: String, key: Int)]

    /// Rows held in a dictionary, ordered by (section, key, id); counts the single-row reads.
    final class Source: RowPlacing {
        let rows: Rows
        var probes = 0

        init(_ rows: Rows) { self.rows = rows }

        func placements(of ids: [Int64]) -> [Int64: RowPlacement<SortKey>] {
            var result: [Int64: RowPlacement<SortKey>] = [:]
            for id in ids {
                if let row = rows[id] { result[id] = RowPlacement(sectionName: row.section, sortKey: SortKey(row.section, row.key, id)) }
            }
            return result
        }

        func sortKey(of id: Int64) -> SortKey {
            probes += 1
            let row = rows[id]!
            return SortKey(row.section, row.key, id)
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
        var generator = SplitMix64(seed: seed &* 7919)
        let sectionNames = ["A", "B", "C", "D"]
        var rows: Rows = [:]
        var nextID: Int64 = 1
        for _ in 0..<Int.random(in: 0...40, using: &generator) {
            rows[nextID] = (sectionNames.randomElement(using: &generator)!, Int.random(in: 0...15, using: &generator))
            nextID += 1
        }
        var snapshot = ChangeSetTests.snapshot(rows)
        for step in 0..<40 {
            let old = snapshot
            var changed = Set<Int64>()
            for _ in 0..<Int.random(in: 1...5, using: &generator) {
                switch Int.random(in: 0..<5, using: &generator) {
                case 0:
                    rows[nextID] = (sectionNames.randomElement(using: &generator)!, Int.random(in: 0...15, using: &generator))
                    changed.insert(nextID)
                    nextID += 1
                case 1:
                    if let id = rows.keys.randomElement(using: &generator) {
                        rows[id] = nil
                        changed.insert(id)
                    }
                case 2:
                    if let id = rows.keys.randomElement(using: &generator) {
                        rows[id]!.key = Int.random(in: 0...15, using: &generator)
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

    @Test func probesOnlyLogarithmicallyManyRows() throws {
        var rows: Rows = [:]
        for id in Int64(1)...100_000 { rows[id] = ("A", Int(id) * 2) }
        var snapshot = ChangeSetTests.snapshot(rows)
        rows[100_001] = ("A", 1001)  // lands between keys 1000 and 1002
        rows[7]!.key = 200_001  // moves to the end
        rows[9] = nil
        let source = Source(rows)
        let changes = try snapshot.update(changedIDs: [100_001, 7, 9], from: source)
        #expect(source.probes <= 60)
        #expect(changes.changes.count == 3)
        #expect(snapshot == ChangeSetTests.snapshot(rows))
    }

    @Test func aChangeInPlaceIsAnUpdateWithBothPaths() throws {
        let rows: Rows = [1: ("A", 1), 2: ("A", 2), 3: ("B", 1)]
        var snapshot = ChangeSetTests.snapshot(rows)
        let changes = try snapshot.update(changedIDs: [3], from: Source(rows))
        #expect(changes.changes == [.update(id: 3, from: ItemPath(section: 1, row: 0), to: ItemPath(section: 1, row: 0))])
    }
}
