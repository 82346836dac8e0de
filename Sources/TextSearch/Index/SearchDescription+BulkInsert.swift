import SQLiteStore

extension SearchDescription {
    /// The search structures as a bulk insert builds them: the insert trigger (``insertTriggerName``,
    /// which adds a row to all of them) dropped while rows are inserted, then ``build(forRowsAfter:_:)`` for the new rows.
    ///
    /// ```swift
    /// try db.bulkInsert(into: films.table, maintaining: [films.bulkInsertStructure]) { bulk in … }
    /// ```
    public var bulkInsertStructure: DerivedStructure {
        DerivedStructure(insertTriggers: [insertTriggerName]) { rowsAfter, db in try build(forRowsAfter: rowsAfter, db) }
    }

    /// Adds to the index structures what the insert trigger (``insertTriggerName``) would have added
    /// for the rows whose id is above `id`: for a bulk insert, which drops that trigger, inserts the
    /// rows, builds the structures for them and creates the trigger again, all in one transaction.
    ///
    /// ```swift
    /// try films.build(forRowsAfter: 1_000, db)  // index the rows 1001, 1002, …
    /// ```
    ///
    /// Each structure of ``structuresSQL`` is built in one sorted pass over the new rows; the rows at
    /// or below `id` must already be indexed, the ones above it not at all. The grams of the texts are
    /// computed in Swift, to the same documents and counts as the triggers' SQL (which lists each
    /// position of each text in a recursive query, most of a bulk load's time), once per row: an SQL
    /// function defined for the build makes each row's document in ``gramsTable`` and counts its grams
    /// in memory as it goes, then the counts are added to ``gramCountsTable`` in its order. The same
    /// function counts the new rows' substrings that ``substringCountsTable`` holds (each row's texts
    /// read to scalars once for both, the held substrings found by one automaton), added to it
    /// after, and sets the new rows' bits of the grams ``gramBitsTable`` holds (written after, in its
    /// order); or, when the new rows are at least as many as the old, the set of substrings and the
    /// set of grams with bits are chosen again over all rows, as ``refreshSubstringCounts(_:)`` and
    /// ``refreshGramBits(_:)`` choose them: a load into an empty table chooses them. Then the same
    /// function counts the new rows' 3-scalar substrings (the counts' first pass; the old rows' are
    /// read apart), and one more pass over all rows counts the substrings made of the frequent ones
    /// and sets the bits (`finishChosenSets(trigrams:gramBits:_:)`). The new rows are counted by
    /// the trigram index's build, the old ones only as far as the new ones go.
    ///
    /// - Throws: `DatabaseError`.
    public func build(forRowsAfter id: Int64, _ db: Database) throws {
        // Statements that insert a row into the trigram index per new row: their changes are the
        // new rows (counted without reading them again).
        try setHashBytes(Self.buildHashBytes, of: [fullTextTable] + (gramsTable.map { [$0] } ?? []), db)
        defer { try? setHashBytes(Self.defaultHashBytes, of: [fullTextTable] + (gramsTable.map { [$0] } ?? []), db) }
        var newRows = 0
        for statement in fullTextBuildStatements(rowsAfter: id) {
            try db.execute(sql: statement)
            newRows += db.changesCount
        }
        guard let gramsTable, let gramCountsTable else { return }
        let texts = textColumns.map { "CAST(\($0) AS TEXT)" }.joined(separator: ", ")
        let counts = GramCounts()
        // New rows at least as many as the old: the frequent substrings and the grams with bits
        // chosen again over all rows after the build; otherwise the new rows' substrings that the
        // table holds counted here, and their bits of the grams it holds set.
        let choosesAgain = try rows(upTo: id, pastAtMost: newRows, db) <= newRows
        let substrings = choosesAgain ? nil : try heldSubstringCounter(db)
        let bits = choosesAgain ? nil : GramBits(grams: try heldGramBitsGrams(db))
        let trigrams = choosesAgain ? try startSubstringCountsRefresh(db) : nil
        if let trigrams {
            try forEachRowScalars(inIDOrder: false, through: id, db) { _, scalars, scope in trigrams.add(scalars, scope: scope) }
        }
        let scalars = RowScalars()
        let argumentCount = 3 + textColumns.count
        // Not deterministic: each call counts its row's grams.
        try db.createFunction(Self.gramsDocumentFunction, argumentCount: argumentCount, isDeterministic: false) { arguments in
            let scopeHex: String? = if case .text(let hex) = arguments[0] { hex } else { nil }
            scalars.load(arguments.dropFirst(3).map(Self.text))
            let grams = ShortGrams(scalars)
            counts.add(grams.grams, scope: arguments[1])
            substrings?.add(scalars, scope: arguments[1])
            trigrams?.add(scalars, scope: arguments[1])
            if let bits, case .integer(let id) = arguments[2] { bits.add(id: id, scalars.values) }
            return .text(grams.document(scopeHex: scopeHex))
        }
        defer { try? db.removeFunction(Self.gramsDocumentFunction, argumentCount: argumentCount) }
        // hex() of NULL is '', and a NULL scope has no token; nor does any scope when the rowid
        // carries it (``indexRowID(of:)``). The scope value itself (the second argument) keys the counts.
        let scopeHex = scopeColumn.flatMap { rowIDsCarryScope ? nil : $0 }
            .map { "CASE WHEN \($0) IS NULL THEN NULL ELSE hex(\($0)) END" } ?? "NULL"
        for condition in scopeNumberConditions(of: table) {
            try db.execute(sql: """
                INSERT INTO \(gramsTable)(rowid, grams)
                    SELECT \(indexRowID(of: table)) AS rowid, \(Self.gramsDocumentFunction)(\(scopeHex), \(scopeColumn ?? "NULL"), \(idColumn), \(texts))
                    FROM \(table) WHERE \(condition) AND \(idColumn) > \(id) ORDER BY \(idColumn)
                """)
        }
        try add(counts, to: gramCountsTable, db)
        if choosesAgain {
            try finishChosenSets(trigrams: trigrams, gramBits: true, db)
        } else {
            if let substrings { try add(substrings.counts, db) }
            if let bits, !bits.isEmpty { try add(bits, db) }
        }
    }

    /// The memory each FTS5 index of the search gathers new terms in before it writes them as a
    /// segment, during a bulk build: 4 MiB. With FTS5's default (``defaultHashBytes``), a million rows
    /// make many small segments that it merges again and again: the trigram index of a million names
    /// takes about 15% more CPU to build, and 8 MiB saves little more than 4 (Ingest,
    /// Benchmarks/README.md). Set back to the default after, for the triggers' small writes.
    static let buildHashBytes = 4 << 20

    /// FTS5's own `hashsize`: 1 MiB.
    static let defaultHashBytes = 1 << 20

    /// Sets FTS5's `hashsize` option of each of `tables`.
    private func setHashBytes(_ bytes: Int, of tables: [String], _ db: Database) throws {
        for table in tables { try db.execute(sql: "INSERT INTO \(table)(\(table), rank) VALUES ('hashsize', \(bytes))") }
    }

    /// The number of rows whose id is `id` or below, or `limit + 1` when there are more: the old
    /// rows are read only as far as the new ones go (a load of 100,000 rows into 1,000,000 does not
    /// read the million).
    private func rows(upTo id: Int64, pastAtMost limit: Int, _ db: Database) throws -> Int {
        try db.scalar(
            Int.self, sql: "SELECT count(*) FROM (SELECT 1 FROM \(table) WHERE \(idColumn) <= ? LIMIT ?)",
            arguments: [id, limit + 1]) ?? 0
    }

    /// The name of the SQL function that computes a row's document of ``gramsTable`` during a bulk build.
    private static let gramsDocumentFunction = "textsearch_grams_document"

    /// A text argument or column as the triggers' `substr()` reads it; nil for NULL.
    private static func text(_ value: DatabaseValue) -> String? {
        if case .text(let text) = value { text } else { nil }
    }

    /// Adds the grams counted by the build to `gramCountsTable`, in its order (gram, then scope).
    private func add(_ counts: GramCounts, to gramCountsTable: String, _ db: Database) throws {
        let columns = "gram" + (scopeColumn.map { ", \($0)" } ?? "")
        let add = try db.makeStatement(sql: """
            INSERT INTO \(gramCountsTable)(\(columns), count) VALUES (?, \(scopeColumn == nil ? "" : "?, ")?)
                ON CONFLICT (\(columns)) DO UPDATE SET count = count + excluded.count
            """)
        for entry in counts.counts.sorted(by: { ($0.gram, $0.scope) < ($1.gram, $1.scope) }) {
            let arguments: StatementArguments = scopeColumn == nil
                ? [entry.gram.text, entry.count] : [entry.gram.text, counts.scopes.values[entry.scope], entry.count]
            try add.execute(arguments: arguments)
        }
    }
}

/// The rows' grams counted per scope value during a bulk build, by the SQL function that makes
/// their documents (``SearchDescription/build(forRowsAfter:_:)``).
private final class GramCounts {
    private(set) var scopes = ScopeNumbers()
    /// The rows holding each gram of each scope, under ``key(_:scope:)``.
    private var table = IntegerKeyTable()

    /// Counts one row's distinct grams under its scope value.
    func add(_ grams: [ShortGrams.Gram], scope: DatabaseValue) {
        let number = scopes.number(of: scope)
        for gram in grams { table.add(1, to: Self.key(gram, scope: number)) }
    }

    /// The rows per gram and scope number.
    var counts: [(gram: ShortGrams.Gram, scope: Int, count: Int)] {
        table.entries.map { entry in
            let scalarMask: UInt64 = (1 << Self.scalarBits) - 1
            let gram = ShortGrams.Gram(
                first: UInt32(entry.key >> Self.scalarBits & scalarMask), second: UInt32(entry.key & scalarMask))
            return (gram, Int(entry.key >> (2 * Self.scalarBits)), entry.value)
        }
    }

    /// The bits of a scalar's value (at most U+10FFFF).
    private static let scalarBits: UInt64 = 21

    /// A gram and a scope number in one key: the scope number, then the first scalar, then the second.
    private static func key(_ gram: ShortGrams.Gram, scope: Int) -> UInt64 {
        UInt64(scope) << (2 * scalarBits) | UInt64(gram.first) << scalarBits | UInt64(gram.second)
    }
}
