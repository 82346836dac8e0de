import SQLiteStore

/// The rows of a fetch request's result as the incremental update sees them, read in one transaction.
///
/// A sort key is the row's section key followed by its row order (the id last), compared as SQLite's
/// `ORDER BY` compares them (BINARY collation), so Swift and SQL agree on every row's place.
final class SQLRowPlacing<Entity: FetchableEntity>: RowPlacing {
    typealias SortKey = [DatabaseValue]

    private let query: FetchQuery<Entity>
    private let db: any SQLConnection
    private let descending: [Bool]
    /// The section key of each section name met among the placed rows.
    private(set) var sectionKeys: [String: DatabaseValue] = [:]
    private let sectionName: (DatabaseValue) -> String
    /// The rows read for the searches' probes.
    private(set) var probes = 0
    /// The changed rows' placements when they were read with the change log's entries (PostgreSQL:
    /// ``FetchQuery/changesWithPlacementsQuery(after:placingAtMost:)``), as that query's rows: then
    /// ``placements(of:)`` reads nothing.
    private let placementsRead: [ArraySlice<DatabaseValue>]?

    init(
        query: FetchQuery<Entity>, db: any SQLConnection, placementsRead: [ArraySlice<DatabaseValue>]? = nil,
        sectionName: @escaping (_ key: DatabaseValue) -> String
    ) {
        self.query = query
        self.db = db
        self.descending = query.fullOrderIsDescending
        self.placementsRead = placementsRead
        self.sectionName = sectionName
    }

    func placements(of ids: [Int64]) throws -> [Int64: RowPlacement<SortKey>] {
        var result: [Int64: RowPlacement<SortKey>] = [:]
        if let placementsRead {
            for row in placementsRead {
                guard case .integer(let id) = row.first else { throw FetchError.resultChanged }
                result[id] = placement(Array(row.dropFirst()))
            }
            return result
        }
        for chunk in Self.chunks(ids) {
            let placements = query.placementsQuery(ids: chunk)
            try db.forEachRow(sql: placements.sql, arguments: placements.arguments) { row in
                result[try row.decode(Int64.self, at: 0)] = placement((1..<row.count).map { row.databaseValue(at: $0) })
            }
        }
        return result
    }

    /// The placement of a row whose section key and sort key are `sortKey`.
    private func placement(_ sortKey: [DatabaseValue]) -> RowPlacement<SortKey> {
        let name = sectionName(sortKey[0])
        sectionKeys[name] = sortKey[0]
        return RowPlacement(sectionName: name, sortKey: sortKey)
    }

    func sortKeys(of ids: [Int64]) throws -> [Int64: SortKey] {
        probes += ids.count
        var result: [Int64: SortKey] = [:]
        for chunk in Self.chunks(ids) {
            let keys = query.sortKeysQuery(ids: chunk)
            try db.forEachRow(sql: keys.sql, arguments: keys.arguments) { row in
                // The id is the sort key's last column.
                result[try row.decode(Int64.self, at: row.count - 1)] = (0..<row.count).map { row.databaseValue(at: $0) }
            }
        }
        return result
    }

    /// `ids` in bounded IN lists: SQLite limits the number of parameters of a statement.
    private static func chunks(_ ids: [Int64]) -> [[Int64]] {
        stride(from: 0, to: ids.count, by: 500).map { Array(ids[$0..<min($0 + 500, ids.count)]) }
    }

    func precedes(_ lhs: SortKey, _ rhs: SortKey) -> Bool {
        for (index, (left, right)) in zip(lhs, rhs).enumerated() {
            let order = DatabaseValue.sqliteOrder(left, right)
            if order != 0 { return descending[index] ? order > 0 : order < 0 }
        }
        return false
    }
}
