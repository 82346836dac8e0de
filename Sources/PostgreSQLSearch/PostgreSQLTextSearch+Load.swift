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
        var counts: [GramTally] = []
        let trigrams = substringCountsTable.map { _ in SubstringCounter(.trigrams) }
        let scalars = RowScalars()
        let spill = try trigrams.map { _ in try TextSpill() }
        var texts = [String?](repeating: nil, count: textPlaces.count)
        let loaded = try db.copy(into: table, columns: columns) {
            guard let row = try nextRow() else { return nil }
            let scope = scopePlace.map { row[$0] } ?? .null
            let place = scopes[scope] ?? {
                scopes[scope] = counts.count
                counts.append(GramTally())
                return counts.count - 1
            }()
            for index in textPlaces.indices {
                texts[index] = if case .text(let text) = row[textPlaces[index]] { text } else { nil }
            }
            // A PostgreSQL text holds no U+0000, where `RowScalars` ends a text.
            scalars.load(texts)
            counts[place].add(scalars)
            if let trigrams {
                trigrams.add(scalars, scope: scope)
                spill?.append(scope: place, texts: texts)
            }
            return row
        }
        try db.execute(sql: "DELETE FROM \(gramCountsTable)", values: [])
        try db.copy(
            into: gramCountsTable, columns: ["gram", "scope", "count"],
            rows: scopes.lazy.flatMap { scope, place in
                counts[place].counts.lazy.map { key, count in [.text(Self.gram(key)), scope, .integer(Int64(count))] }
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

    /// The gram of a key of `GramTally`: a scalar's value, or a pair's first value times 2²¹ plus
    /// the second's.
    static func gram(_ key: Int64) -> String {
        var scalars = String.UnicodeScalarView()
        if key >= 1 << 21, let first = Unicode.Scalar(UInt32(key >> 21)) { scalars.append(first) }
        if let last = Unicode.Scalar(UInt32(key & (1 << 21 - 1))) { scalars.append(last) }
        return String(scalars)
    }
}

/// The rows of each 1-2 scalar gram of the rows added (counted once a row, under its key: a scalar's
/// value, a pair's first value times 2²¹ plus the second's, as `PostgreSQLTextSearch.gram(_:)` reads
/// it), as a bulk load counts them while the `COPY` streams: each gram of a row looked up once in an
/// integer table that notes the last row counted, where sorting the row's keys to count each once
/// and a `Dictionary` of the counts hashed each key with SipHash (W1b on PostgreSQL).
struct GramTally {
    /// Under each key, the number of the last row counted in the high 32 bits, the count in the low ones.
    private var table = IntegerKeyTable()
    /// The number of the row being counted, from 1.
    private var row = 0

    /// Counts the distinct grams of one row's texts (a 0 ends each, as `RowScalars` holds them).
    mutating func add(_ texts: RowScalars) {
        row += 1
        let row = row
        var previous: UInt64 = 0
        for value in texts.values {
            let scalar = UInt64(value)
            guard scalar != 0 else {
                previous = 0
                continue
            }
            count(scalar, row)
            if previous != 0 { count(previous << 21 | scalar, row) }
            previous = scalar
        }
    }

    @inline(__always)
    private mutating func count(_ key: UInt64, _ row: Int) {
        table.update(key) { tally in
            if tally >> 32 != row { tally = row << 32 | ((tally & 0xFFFF_FFFF) + 1) }
        }
    }

    /// Each gram's key and its rows.
    var counts: [(key: Int64, count: Int)] {
        table.entries.map { (Int64($0.key), $0.value & 0xFFFF_FFFF) }
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
