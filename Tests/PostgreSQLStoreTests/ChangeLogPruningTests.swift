import Foundation
import PostgreSQLStore
import StoreCore
import TestSupport
import Testing

/// Pruning the PostgreSQL change log: a follower at or past the pruned horizon reads on without a
/// loss; one behind it is told to refetch (``PostgreSQLChangeLog/PositionPruned``), never given an
/// incomplete list; a transaction running while the log is pruned keeps its changes.
///
/// Positions are snapshots of the whole server, so another test's running transaction would move
/// them: these tests run one at a time, on a server of their own.
@Suite(.serialized) struct ChangeLogPruningTests {
    let schema: TestSchema

    /// The suite's own server, stopped when the test process exits.
    private static let servers: Result<PostgreSQLServers, any Error> = Result {
        let servers = try PostgreSQLServers.start(replicas: 0)
        atexit { try? ChangeLogPruningTests.servers.get().stop() }
        return servers
    }

    init() throws {
        schema = try TestSchema(servers: try Self.servers.get())
        let db = try schema.connect()
        try db.execute(sql: PostgreSQLChangeLog.installationSQL)
        try db.execute(sql: "CREATE TABLE note(id bigint PRIMARY KEY)")
        try db.execute(sql: PostgreSQLChangeLog.trackingSQL(forTable: "note"))
    }

    private func insert(_ ids: ClosedRange<Int64>, _ db: PostgreSQLConnection) throws {
        for id in ids { try db.execute(sql: "INSERT INTO note VALUES ($1)", arguments: [.integer(id)]) }
    }

    private func logCount(_ db: PostgreSQLConnection) throws -> DatabaseValue? {
        try db.scalar(sql: "SELECT count(*) FROM store_changes")
    }

    @Test func pruningBeforeAFollowersPositionKeepsWhatItHasNotRead() throws {
        let db = try schema.connect()
        let behind = try PostgreSQLChangeLog.currentPosition(db)
        try insert(1...3, db)
        let follower = try PostgreSQLChangeLog.changes(after: behind, db).position
        try insert(4...5, db)

        #expect(try PostgreSQLChangeLog.prune(before: follower, db) == 3)
        #expect(try logCount(db) == .integer(2))
        #expect(try PostgreSQLChangeLog.changes(after: follower, db).changes.map(\.rowID) == [4, 5])
        let pruned = #expect(throws: PostgreSQLChangeLog.PositionPruned.self) { try PostgreSQLChangeLog.changes(after: behind, db) }
        #expect(pruned?.position == behind)
        // Nothing more to prune before the same position: the horizon stays, the follower reads on.
        #expect(try PostgreSQLChangeLog.prune(before: follower, db) == 0)
        #expect(try PostgreSQLChangeLog.changes(after: follower, db).changes.count == 2)
    }

    @Test func pruningKeepingTheLatestEntries() throws {
        let db = try schema.connect()
        let start = try PostgreSQLChangeLog.currentPosition(db)
        try insert(1...4, db)
        let recent = try PostgreSQLChangeLog.changes(after: start, db).position
        try insert(5...6, db)
        #expect(try PostgreSQLChangeLog.prune(keepingLatest: 2, db) == 4)
        #expect(try PostgreSQLChangeLog.changes(after: recent, db).changes.map(\.rowID) == [5, 6])
        #expect(throws: PostgreSQLChangeLog.PositionPruned.self) { try PostgreSQLChangeLog.changes(after: start, db) }
        #expect(try PostgreSQLChangeLog.prune(keepingLatest: 0, db) == 2)
        #expect(try logCount(db) == .integer(0))
        #expect(throws: PostgreSQLChangeLog.PositionPruned.self) { try PostgreSQLChangeLog.changes(after: recent, db) }
        // A follower from a position taken after the prune reads what follows.
        let fresh = try PostgreSQLChangeLog.currentPosition(db)
        try insert(7...7, db)
        #expect(try PostgreSQLChangeLog.changes(after: fresh, db).changes.map(\.rowID) == [7])
    }

    /// A writer takes its transaction id after a second writer, is still running when the log is
    /// pruned to nothing, and commits after: the follower whose position saw the second writer (and
    /// the first one running) reads the first one's change, pruned past nothing it needed.
    @Test func aTransactionRunningDuringThePruneKeepsItsChanges() throws {
        let pruner = try schema.connect()
        let early = try schema.connect()
        let late = try schema.connect()
        let reader = try schema.connect()
        let start = try PostgreSQLChangeLog.currentPosition(reader)

        try late.inTransaction { try insert(1...1, late) }
        try early.execute(sql: "BEGIN")
        try insert(2...2, early)  // running, with a higher transaction id than row 1's
        let read = try PostgreSQLChangeLog.changes(after: start, reader)
        #expect(read.changes.map(\.rowID) == [1])

        #expect(try PostgreSQLChangeLog.prune(keepingLatest: 0, pruner) == 1)  // row 1's entry; row 2's is not visible
        try early.execute(sql: "COMMIT")

        #expect(try PostgreSQLChangeLog.changes(after: read.position, reader).changes.map(\.rowID) == [2])
        #expect(throws: PostgreSQLChangeLog.PositionPruned.self) { try PostgreSQLChangeLog.changes(after: start, reader) }
    }

    /// The other order: the running writer took the lower transaction id. The follower that read the
    /// later one is behind the horizon and is told to refetch, rather than left without row 2.
    @Test func aFollowerThatMayMissARunningTransactionsChangeIsToldToRefetch() throws {
        let pruner = try schema.connect()
        let early = try schema.connect()
        let late = try schema.connect()
        let reader = try schema.connect()
        let start = try PostgreSQLChangeLog.currentPosition(reader)

        try early.execute(sql: "BEGIN")
        try insert(2...2, early)  // running, with the lower transaction id
        try late.inTransaction { try insert(1...1, late) }
        let read = try PostgreSQLChangeLog.changes(after: start, reader)
        #expect(read.changes.map(\.rowID) == [1])

        #expect(try PostgreSQLChangeLog.prune(keepingLatest: 0, pruner) == 1)
        try early.execute(sql: "COMMIT")
        #expect(throws: PostgreSQLChangeLog.PositionPruned.self) { try PostgreSQLChangeLog.changes(after: read.position, reader) }
    }
}
