import SQLiteStore

extension SearchDescription {
    /// The rows whose rowids are in `fullTextRowIDs` (from ``indexRowIDs(_:matching:_:)`` of
    /// ``fullTextTable``) and whose texts hold every gram of `grams` (1-scalar texts), grouped by value
    /// of ``scopeValues`` as ``matchesPerScope(intersecting:gramsPattern:_:)`` groups them: each row's
    /// bit of each gram read from ``gramBitsTable``. Nil when the table does not hold one of the grams
    /// (it is not among the very common ones: the grams index answers instead), when the rowids do
    /// not carry the scope, or when a match has a scope value the rowids cannot tell apart.
    ///
    /// Each gram's rows of bits are read whole, in the table's order, then each rowid's id is looked
    /// up in them: for a long term of few rows and a very common gram (`core m`), cheaper than reading
    /// the grams index's rows of the gram (W3 3+ chars).
    func matchesPerScope(intersecting fullTextRowIDs: [Int64], holdingBitsOf grams: [String], _ db: Database) throws -> ScopeMatches? {
        guard rowIDsCarryScope, !grams.isEmpty else { return nil }
        guard let bitsets = try gramBitsets(Set(grams), db) else { return nil }
        var tally = ScopeTally(scopeNumbers: scopeValues.count)
        for rowid in fullTextRowIDs where bitsets.allSatisfy({ $0.contains(rowid & Self.largestScopedID) }) {
            tally.add(rowid)
        }
        return tally.matches(scopeValues)
    }

    /// Each gram's rows of ``gramBitsTable``, read whole in the table's order; nil without the table,
    /// or when it does not hold one of the grams (1-scalar texts).
    func gramBitsets(_ grams: Set<String>, _ db: Database) throws -> [GramBitset]? {
        guard let gramBitsTable else { return nil }
        var bitsets: [GramBitset] = []
        let statement = try db.cachedStatement(sql: "SELECT chunk, \(Self.gramBitsWordColumns.joined(separator: ", ")) FROM \(gramBitsTable) WHERE gram = ?")
        for gram in grams {
            var bitset = GramBitset()
            try statement.forEachRow(arguments: [gram]) { row in
                bitset.chunks.append(try row.decode(Int64.self, at: 0))
                for word in 1...Self.gramBitsWords { bitset.words.append(UInt64(bitPattern: try row.decode(Int64.self, at: word))) }
            }
            guard !bitset.chunks.isEmpty else { return nil }
            bitsets.append(bitset)
        }
        return bitsets
    }
}
