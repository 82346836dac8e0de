import Dispatch
import SQLiteStore
import TextSearch

extension PostgreSQLTextSearch {
    /// Loads the rows `nextRow` gives until it returns nil (the values of `columns`, which hold the
    /// description's text and scope columns) into the table, empty before and with the search
    /// installed (``installSQL``), with one `COPY` as they come: each row's grams are counted here
    /// as it is sent, and its trigrams counted (the substring counts' first pass), with the search's
    /// triggers disabled meanwhile; then the gram counts are added from those counts and the
    /// substring counts chosen. The structures are those the triggers keep, without a trigger call
    /// per row (W1b on PostgreSQL).
    ///
    /// After the `COPY`, `meanwhile` runs on `db` (a bulk load builds the table's indexes there)
    /// while the substring counts' second pass runs on a thread of its own, reading each row's texts
    /// from a temporary file written during the `COPY` (`TextSpill`), not from the table: the
    /// server and the client work at once (W1b on PostgreSQL).
    ///
    /// Run it in a transaction (a failure then loads nothing), as the table's owner, who alone may
    /// disable its triggers; indexes are kept row by row, so a bulk load drops them first and builds
    /// them after (the grams index computing each row's grams as it is built).
    ///
    /// - Returns: the number of rows loaded.
    /// - Throws: what the connection throws, what `nextRow` threw (which aborts the `COPY`), what
    ///   `meanwhile` threw, or ``TextSpillError``.
    @discardableResult
    public func load(
        _ nextRow: () throws -> [DatabaseValue]?, columns: [String], _ db: some SQLConnection, meanwhile: () throws -> Void = {}
    ) throws -> Int {
        let textPlaces = description.textColumns.map { column in
            guard let place = columns.firstIndex(of: column) else { preconditionFailure("the rows lack the text column \(column)") }
            return place
        }
        let scopePlace = description.scopeColumn.map { column in
            guard let place = columns.firstIndex(of: column) else { preconditionFailure("the rows lack the scope column \(column)") }
            return place
        }
        let table = description.table
        for trigger in triggers { try db.execute(sql: "ALTER TABLE \(table) DISABLE TRIGGER \(trigger)", values: []) }
        // The rows of each gram, by key, for each scope value (by its place in `scopes`).
        var scopes: [DatabaseValue: Int] = [:]
        var counts: [[Int64: Int]] = []
        let trigrams = substringCountsTable.map { _ in SubstringCounter(.trigrams) }
        let scalars = RowScalars()
        let spill = try trigrams.map { _ in try TextSpill() }
        let loaded = try db.copy(into: table, columns: columns) {
            guard let row = try nextRow() else { return nil }
            let scope = scopePlace.map { row[$0] } ?? .null
            let place = scopes[scope] ?? {
                scopes[scope] = counts.count
                counts.append([:])
                return counts.count - 1
            }()
            let texts = textPlaces.map { place -> String? in if case .text(let text) = row[place] { text } else { nil } }
            for key in Self.gramKeys(of: texts) { counts[place][key, default: 0] += 1 }
            if let trigrams {
                scalars.load(texts)
                trigrams.add(scalars, scope: scope)
                spill?.append(scope: place, texts: texts)
            }
            return row
        }
        try db.execute(sql: "DELETE FROM \(gramCountsTable)", values: [])
        try db.copy(
            into: gramCountsTable, columns: ["gram", "scope", "count"],
            rows: scopes.lazy.flatMap { scope, place in
                counts[place].lazy.map { key, count in [.text(Self.gram(key)), scope, .integer(Int64(count))] }
            })
        if let trigrams, let spill {
            let scopeValues = scopes.sorted { $0.value < $1.value }.map(\.key)
            let secondPass = Background {
                try self.secondPass(trigrams) { body in
                    let texts = RowScalars()
                    try spill.forEach(textCount: textPlaces.count) { place, row in
                        texts.load(row)
                        body(texts, scopeValues[place])
                    }
                }
            }
            let built = Result { try meanwhile() }
            let counted = secondPass.result()
            try built.get()
            try storeSubstringCounts(counted.get(), db)
        } else {
            try meanwhile()
        }
        for trigger in triggers { try db.execute(sql: "ALTER TABLE \(table) ENABLE TRIGGER \(trigger)", values: []) }
        return loaded
    }

    /// The gram of a key of ``gramKeys(of:)``.
    static func gram(_ key: Int64) -> String {
        var scalars = String.UnicodeScalarView()
        if key >= 1 << 21, let first = Unicode.Scalar(UInt32(key >> 21)) { scalars.append(first) }
        if let last = Unicode.Scalar(UInt32(key & (1 << 21 - 1))) { scalars.append(last) }
        return String(scalars)
    }
}

/// Work run on a thread of its own (`DetachedThread`) while the caller does other work, its
/// result waited for with ``result()``.
///
/// `@unchecked Sendable`: the work takes what it captures to its thread, and the caller must not
/// touch those until ``result()`` has returned; the outcome is handed over through a semaphore.
private final class Background<Value>: @unchecked Sendable {
    private var outcome: Result<Value, any Error>?
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping () throws -> Value) {
        nonisolated(unsafe) let work = work
        DetachedThread.start { [self] in
            outcome = Result { try work() }
            done.signal()
        }
    }

    /// Waits for the work to end: what it returned or threw.
    func result() -> Result<Value, any Error> {
        done.wait()
        return outcome!
    }
}
