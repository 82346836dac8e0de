import SQLiteStore

extension SearchDescription {
    /// Recounts the structures a search reads from the texts they are derived from, and says where
    /// they differ: one line per structure that does not match; empty when all do.
    ///
    /// ```swift
    /// let problems = try films.indexProblems(foldedFrom: ["title", "director"], db)
    /// ```
    ///
    /// Written from the definitions of ``installSQL``, over every column of ``textColumns``:
    /// - each text column holds its source column folded by ``TextFolding/fold(_:)`` (when
    ///   `sourceColumns` names the sources);
    /// - ``gramsTable`` finds, for each token a search can look for (the hexadecimal of each 1-scalar
    ///   gram that is not a space and each 2-scalar gram without a space, and, without
    ///   ``scopeValues``, `x` and that of each scope value), exactly the rows (their rowids,
    ///   ``indexRowID(of:)``) whose texts hold that gram (whose scope value is that value);
    /// - ``gramCountsTable`` holds, per gram (and scope value), the number of rows holding that 1- or
    ///   2-scalar gram in one of their texts at least once (rows counting 0 are allowed).
    ///
    /// - ``substringCountsTable`` holds, per substring it holds (and scope value), the number of rows
    ///   holding it in one of their texts at least once (rows counting 0 are allowed); which
    ///   substrings it holds is not checked.
    /// - ``gramBitsTable`` sets, for each gram it holds, exactly the bits of the ids of the rows
    ///   holding that gram in one of their texts (rows of bits all 0 are allowed); which grams it
    ///   holds is not checked.
    ///
    /// - ``fullTextTable``, when its rowids carry the scope (``scopeValues``): each trigram of each
    ///   text (3 consecutive scalars) finds exactly the rowids (``indexRowID(of:)``) of the rows
    ///   whose texts hold it. (Which trigrams each rowid holds, not their positions.)
    ///
    /// The trigram index's own structure, and an external-content one's agreement with the table, are
    /// checked by SQLite itself: `Database.fullTextIndexProblem(_:)`.
    /// Reads the table once and each derived table once, in the caller's transaction.
    ///
    /// - Parameters:
    ///   - sourceColumns: the columns the text columns are folded from, in the same order; nil skips
    ///     that check.
    ///   - db: the connection, in a read.
    /// - Complexity: O(n · L) for n rows of texts of L scalars; memory O(distinct grams).
    /// - Throws: `DatabaseError`.
    public func indexProblems(foldedFrom sourceColumns: [String]? = nil, _ db: Database) throws -> [String] {
        precondition(sourceColumns.map { $0.count == textColumns.count } ?? true, "one source column per text column")
        let sources = sourceColumns ?? []
        var unfolded = 0
        var firstUnfolded: Int64?
        var tokens = SearchIndexDigest()
        var distinctTokens = Set<String>()
        var grams: [GramKey: Int] = [:]
        var trigrams = SearchIndexDigest()
        var distinctTrigrams = Set<String>()
        // The substrings ``substringCountsTable`` holds, counted again from the texts in the same pass.
        let substrings = try heldSubstringCounter(db)
        // The bits of the grams ``gramBitsTable`` holds, set again from the texts in the same pass.
        let bits = GramBits(grams: try heldGramBitsGrams(db))
        let scalars = RowScalars()
        let columns = ([idColumn, scopeColumn ?? "NULL"] + textColumns + sources).joined(separator: ", ")
        try db.makeStatement(sql: "SELECT \(columns) FROM \(table)").forEachRow { row in
            let id = try row.decode(Int64.self, at: 0)
            let scope = row.databaseValue(at: 1)
            let texts = try textColumns.indices.map { row.isNull(at: 2 + $0) ? "" : try row.decode(String.self, at: 2 + $0) }
            scalars.load(texts)
            substrings?.add(scalars, scope: scope)
            bits.add(id: id, scalars.values)
            let isUnfolded = try texts.indices.contains { index in
                guard !sources.isEmpty else { return false }
                let sourceIndex = 2 + textColumns.count + index
                let source = row.isNull(at: sourceIndex) ? "" : try row.decode(String.self, at: sourceIndex)
                return Array(texts[index].utf8) != Array(TextFolding.fold(source).utf8)
            }
            if isUnfolded {
                unfolded += 1
                if firstUnfolded == nil { firstUnfolded = id }
            }
            // The row's rowid in the search indexes (``indexRowID(of:)``).
            let rowid = rowIDsCarryScope ? (Int64(scopeNumber(scope) ?? 0) << Int64(Self.scopeNumberShift)) | id : id
            if rowIDsCarryScope {
                var rowTrigrams = Set<String>()
                for text in texts {
                    let scalars = Array(text.unicodeScalars)
                    for start in scalars.indices.dropLast(2) {
                        rowTrigrams.insert(String(String.UnicodeScalarView(scalars[start...start + 2])))
                    }
                }
                for trigram in rowTrigrams { trigrams.add(trigram, rowid) }
                distinctTrigrams.formUnion(rowTrigrams)
            }
            guard indexesShortTerms else { return }
            var distinctGrams = Set<String>()
            for text in texts {
                // Up to the first U+0000, where the triggers' `substr()` and `length()` end a TEXT.
                let scalars = Array(text.unicodeScalars.prefix { $0.value != 0 })
                for start in scalars.indices {
                    distinctGrams.insert(String(scalars[start]))
                    if start + 1 < scalars.count {
                        distinctGrams.insert(String(String.UnicodeScalarView(scalars[start...start + 1])))
                    }
                }
            }
            var rowTokens = Set(distinctGrams.filter { !$0.unicodeScalars.contains(" ") }.map { Self.token(Array($0.utf8)) })
            switch scope {
            case _ where rowIDsCarryScope: break  // the rowid carries the scope: no token
            case .text(let value): rowTokens.insert("x" + Self.token(Array(value.utf8)))
            case .integer(let value): rowTokens.insert("x" + Self.token(Array(String(value).utf8)))
            default: break
            }
            for token in rowTokens { tokens.add(token, rowid) }
            distinctTokens.formUnion(rowTokens)
            for gram in distinctGrams { grams[GramKey(gram: gram, scope: scope), default: 0] += 1 }
        }
        var problems: [String] = []
        if unfolded > 0 {
            problems.append("\(table): \(unfolded) row\(unfolded == 1 ? "'s" : "s'") folded text differs from its source folded (first: id \(firstUnfolded!))")
        }
        if rowIDsCarryScope {
            // Each trigram's rowids, as the index gives them: a contentless index is not compared
            // with the table by SQLite's own check. Every trigram the index holds (its fts5vocab, a
            // temporary table of this connection) or the texts give is looked up.
            let vocabulary = "temp.\(fullTextTable)_check_vocabulary"
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS \(vocabulary) USING fts5vocab(main, '\(fullTextTable)', 'row')")
            let indexed = try db.fetchAll(sql: "SELECT term FROM \(vocabulary)") { try $0.decode(String.self, at: 0) }
            try db.execute(sql: "DROP TABLE \(vocabulary)")
            var stored = SearchIndexDigest()
            let statement = try db.makeStatement(sql: "SELECT rowid FROM \(fullTextTable) WHERE \(fullTextTable) MATCH ?")
            for trigram in distinctTrigrams.union(indexed).sorted() {
                try statement.forEachRow(arguments: [SearchPlan.phrase(trigram)]) { row in stored.add(trigram, try row.decode(Int64.self, at: 0)) }
            }
            if stored.count != trigrams.count {
                problems.append("\(fullTextTable): \(stored.count) trigram entries, where the texts give \(trigrams.count)")
            } else if stored != trigrams {
                problems.append("\(fullTextTable): \(stored.count) trigram entries, as many as the texts give, but not the same ones")
            }
        }
        if let gramsTable {
            // Each token's rows, as the index gives them (FTS5 lowercases the tokens it stores).
            var stored = SearchIndexDigest()
            let statement = try db.makeStatement(sql: "SELECT rowid FROM \(gramsTable) WHERE \(gramsTable) MATCH ?")
            for token in distinctTokens.sorted() {
                try statement.forEachRow(arguments: ["\"\(token)\""]) { row in stored.add(token, try row.decode(Int64.self, at: 0)) }
            }
            if stored.count != tokens.count {
                problems.append("\(gramsTable): \(stored.count) token entries, where the texts give \(tokens.count)")
            } else if stored != tokens {
                problems.append("\(gramsTable): \(stored.count) token entries, as many as the texts give, but not the same ones")
            }
        }
        if let gramCountsTable, let problem = try countsProblem(
            gramCountsTable, sql: "SELECT gram, \(scopeColumn ?? "NULL"), count FROM \(gramCountsTable)", expected: grams, db) {
            problems.append(problem)
        }
        if let substringCountsTable, let substrings {
            var expected: [GramKey: Int] = [:]
            for (substring, scope, count) in substrings.counts { expected[GramKey(gram: substring, scope: scope)] = count }
            let sql = "SELECT substring, \(scopeColumn ?? "NULL"), count FROM \(substringCountsTable)"
            if let problem = try countsProblem(substringCountsTable, sql: sql, expected: expected, db) { problems.append(problem) }
        }
        if let gramBitsTable, let problem = try bitsProblem(gramBitsTable, expected: bits, db) { problems.append(problem) }
        return problems
    }
}

extension SearchDescription {
    /// Compares the counts `sql` reads from `table` (text, scope value, count) with `expected`
    /// (missing: 0): nil when they agree, else the line saying how many differ and the first.
    fileprivate func countsProblem(_ table: String, sql: String, expected: [GramKey: Int], _ db: Database) throws -> String? {
        try differencesProblem(table, sql: sql, expected: expected, absent: 0, differ: ("count differs", "counts differ"), db) { row in
            (GramKey(gram: try row.decode(String.self, at: 0), scope: row.databaseValue(at: 1)), try row.decode(Int.self, at: 2))
        }
    }

    /// Compares the rows of bits of `table` (``gramBitsTable``) that are not all 0 with `expected`:
    /// nil when they agree, else the line saying how many rows differ and the first.
    fileprivate func bitsProblem(_ table: String, expected: GramBits, _ db: Database) throws -> String? {
        let expected = Dictionary(uniqueKeysWithValues: expected.rows().map { (GramChunk(gram: $0.gram, chunk: $0.chunk), $0.words) })
        let sql = "SELECT gram, chunk, \(Self.gramBitsWordColumns.joined(separator: ", ")) FROM \(table)"
        let noBits = [UInt64](repeating: 0, count: Self.gramBitsWords)
        return try differencesProblem(table, sql: sql, expected: expected, absent: noBits, differ: ("row of bits differs", "rows of bits differ"), db) { row in
            (GramChunk(gram: try row.decode(String.self, at: 0), chunk: try row.decode(Int64.self, at: 1)),
             try (0..<Self.gramBitsWords).map { UInt64(bitPattern: try row.decode(Int64.self, at: 2 + $0)) })
        }
    }

    /// Compares the keys and values `sql` reads from `table` (each row's by `read`) with `expected`,
    /// a key read but not expected standing for `absent`, one expected but not read a difference: nil when they agree, else the line
    /// saying how many differ (`differ`: said of one, of several) and the first.
    private func differencesProblem<Key: Hashable, Value: Equatable>(
        _ table: String, sql: String, expected: [Key: Value], absent: Value, differ: (one: String, several: String),
        _ db: Database, read: (Row) throws -> (Key, Value)
    ) throws -> String? {
        var expected = expected
        var wrong = 0
        var first: String?
        try db.makeStatement(sql: sql).forEachRow { row in
            let (key, value) = try read(row)
            let wanted = expected.removeValue(forKey: key) ?? absent
            if value != wanted {
                wrong += 1
                if first == nil { first = "\(key): \(value), expected \(wanted)" }
            }
        }
        if let missing = expected.first {
            wrong += expected.count
            if first == nil { first = "\(missing.key): missing, expected \(missing.value)" }
        }
        return wrong > 0 ? "\(table): \(wrong) \(wrong == 1 ? differ.one : differ.several) from the texts (first: \(first!))" : nil
    }

    /// A token of ``gramsTable``: the lowercase hexadecimal of the bytes, as FTS5 stores `hex()`'s.
    fileprivate static func token(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }
}

/// A gram and a chunk of ids of ``SearchDescription/gramBitsTable``.
private struct GramChunk: Hashable, CustomStringConvertible {
    let gram: String
    let chunk: Int64

    var description: String { "\(String(reflecting: gram)) chunk \(chunk)" }
}

/// A gram (or substring) and the scope value of the rows counted for it.
private struct GramKey: Hashable, CustomStringConvertible {
    let gram: String
    let scope: DatabaseValue

    var description: String { scope.isNull ? String(reflecting: gram) : "\(String(reflecting: gram)) in \(scope)" }
}
