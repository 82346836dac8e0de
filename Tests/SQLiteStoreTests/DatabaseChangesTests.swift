import SQLiteStore
import Testing

/// SQLite-only: the monitor of a database file (PostgreSQL's notifications: ChangeLogPositionTests).
struct DatabaseChangesTests {
    private let events: [RowChange] = [
        RowChange(sequence: 1, table: "a", rowID: 10, kind: .insert),
        RowChange(sequence: 2, table: "b", rowID: 20, kind: .insert),
        RowChange(sequence: 3, table: "a", rowID: 30, kind: .update),
        RowChange(sequence: 4, table: "b", rowID: 40, kind: .delete),
    ]

    @Test func appendingJoinsContiguousDeliveries() {
        var first = DatabaseChanges(fromSequence: 0, toSequence: 2, changes: Array(events[0..<2]))
        first.append(DatabaseChanges(fromSequence: 2, toSequence: 4, changes: Array(events[2...])))
        #expect(first == DatabaseChanges(fromSequence: 0, toSequence: 4, changes: events))
        #expect(first.tables == ["a", "b"] && first.rowIDs(inTable: "b") == [20, 40])
        first.append(DatabaseChanges(fromSequence: 9, toSequence: 9, changes: [], gap: .fellBehind))
        #expect(!first.isComplete && first.toSequence == 9)
    }

    @Test func droppingWhatASnapshotAlreadyHolds() {
        let all = DatabaseChanges(fromSequence: 0, toSequence: 4, changes: events)
        #expect(all.dropping(through: 0) == all)
        #expect(all.dropping(through: 3) == DatabaseChanges(fromSequence: 3, toSequence: 4, changes: [events[3]]))
        #expect(all.dropping(through: 7).isEmpty)
        let behind = DatabaseChanges(fromSequence: 0, toSequence: 4, changes: [], gap: .fellBehind)
        #expect(behind.dropping(through: 2).gap == .fellBehind)
        #expect(behind.dropping(through: 4).isComplete)
        let altered = DatabaseChanges(fromSequence: 0, toSequence: 4, changes: [], gap: .schemaChanged)
        #expect(altered.dropping(through: 4).gap == .schemaChanged)
    }
}
