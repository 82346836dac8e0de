import SQLiteStore

extension SearchDescription {
    /// The rows whose rowids are in `fullTextRowIDs` (from ``indexRowIDs(_:matching:_:)`` of
    /// ``fullTextTable``) and whose texts hold every gram of `grams` (1-scalar texts), grouped by value
    /// of ``scopeValues`` as ``matchesPerScope(intersecting:gramsPattern:_:)`` groups them: each row's
    /// bit of each gram read from ``gramBitsTable``. Nil when the table does not hold one of the grams
    /// (it is not among the very common ones: the grams index answers instead), when the rowids do
    /// not carry the scope, or when a match has a scope value the rowids cannot tell apart.
    ///
    /// Each gram's rows of bits are read whole, in the table's order (3,907 rows for `m` on 1,000,000
    /// products, 0.3-0.4 ms with `sqlite3`), then each rowid's id is looked up in them: for `core m`
    /// (18,641 rowids of `core`), where the grams index's rows of `m` and `co` (392,691 and 123,191,
    /// 47,468 in both) took 10.5-11 ms to read (C against libsqlite3, load average 2).
    func matchesPerScope(intersecting fullTextRowIDs: [Int64], holdingBitsOf grams: [String], _ db: Database) throws -> ScopeMatches? {
        guard rowIDsCarryScope, let gramBitsTable, !grams.isEmpty else { return nil }
        var bitsets: [GramBitset] = []
        let statement = try db.cachedStatement(sql: "SELECT chunk, \(Self.gramBitsWordColumns.joined(separator: ", ")) FROM \(gramBitsTable) WHERE gram = ?")
        for gram in Set(grams) {
            var bitset = GramBitset()
            try statement.forEachRow(arguments: [gram]) { row in
                bitset.chunks.append(try row.decode(Int64.self, at: 0))
                for word in 1...Self.gramBitsWords { bitset.words.append(UInt64(bitPattern: try row.decode(Int64.self, at: word))) }
            }
            guard !bitset.chunks.isEmpty else { return nil }
            bitsets.append(bitset)
        }
        var tally = ScopeTally(scopeNumbers: scopeValues.count)
        for rowid in fullTextRowIDs where bitsets.allSatisfy({ $0.contains(rowid & Self.largestScopedID) }) {
            tally.add(rowid)
        }
        return tally.matches(scopeValues)
    }
}

/// One gram's rows of ``SearchDescription/gramBitsTable``, in chunk order.
private struct GramBitset {
    /// The chunks, ascending.
    var chunks: [Int64] = []
    /// Each chunk's words, ``SearchDescription/gramBitsWords`` a chunk.
    var words: [UInt64] = []

    /// Whether the bit of the row of id `id` is set (a chunk not read: no).
    func contains(_ id: Int64) -> Bool {
        let chunk = id >> SearchDescription.gramBitsChunkShift
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if chunks[middle] < chunk { low = middle + 1 } else { high = middle }
        }
        guard low < chunks.count, chunks[low] == chunk else { return false }
        let word = words[low * SearchDescription.gramBitsWords + Int((id >> 6) & Int64(SearchDescription.gramBitsWords - 1))]
        return word & (1 << UInt64(id & 63)) != 0
    }
}
