import SQLiteStore

extension SearchDescription {
    /// The number of rows that match `query` within `scope`, in the current read.
    ///
    /// - Throws: `DatabaseError`.
    public func count(_ query: SearchQuery, scope: DatabaseValue? = nil, _ db: Database) throws -> Int {
        try count(try plan(query, scope: scope, thresholds: .standard, db), scope: scope, db)
    }

    func count(_ plan: SearchPlan, scope: DatabaseValue?, _ db: Database) throws -> Int {
        if let count = try indexedCount(plan, scope: scope, db) { return count }
        return try scannedCount(plan, scope: scope, db)
    }

    /// The total when an index gives it without reading a table row per match; nil otherwise. The
    /// strategies, in the order tried:
    /// - one short term: its gram count (plus the rows its number finds that its text does not);
    /// - one rare term of at most the suffix length: its distinct ids in its suffix range;
    /// - one common term of ``SearchThresholds/distinctIDsMinimumLength`` to the suffix length: its
    ///   distinct ids in its suffix range, told apart in memory (one pass over the range);
    /// - common terms of 3+ scalars only, or a trigram driver alone: the trigram index's count.
    func indexedCount(_ plan: SearchPlan, scope: DatabaseValue?, _ db: Database) throws -> Int? {
        if plan.matchesNothing { return 0 }
        guard let suffixLength else { return try fullTextCount(plan, scope: scope, db) }
        guard plan.filters.isEmpty, case .suffixes(let term) = plan.driver else {
            return try fullTextCount(plan, scope: scope, db)
        }
        if term.isShort {
            var total = try gramCount(term.folded, scope: scope, db)
            if plan.isNumeric(term) {
                let extra = numberOnlyCondition(term, scope: scope)
                total += try db.scalar(Int.self, sql: "SELECT count(*) FROM \(table) WHERE \(extra.sql)", arguments: extra.arguments) ?? 0
            }
            return total
        }
        guard scope == nil, !plan.isNumeric(term), term.length <= suffixLength.scalars else {
            return try fullTextCount(plan, scope: scope, db)
        }
        let range = SearchPlan.suffixRange(term, length: suffixLength)
        if !plan.isDense {
            return try db.scalar(
                Int.self, sql: "SELECT count(DISTINCT id) FROM \(suffixesTable!) WHERE \(range.sql)", arguments: range.arguments) ?? 0
        }
        guard term.length >= SearchThresholds.distinctIDsMinimumLength else { return try fullTextCount(plan, scope: scope, db) }
        return try distinctIDs(in: range, estimate: plan.driverEstimate ?? 0, db)
    }

    /// The distinct ids of a suffix range, told apart here, which reads the range once (its phrase in
    /// FTS5 reads L - 2 doclists): a bit per id up to the largest when ids are dense enough (up to
    /// 2^27, 16 MB of bits), else a set.
    private func distinctIDs(in range: SQLFragment, estimate: Int, _ db: Database) throws -> Int {
        let statement = try db.cachedStatement(sql: "SELECT id FROM \(suffixesTable!) WHERE \(range.sql)")
        let largest = try db.scalar(Int64.self, sql: "SELECT max(\(idColumn)) FROM \(table)") ?? 0
        if (0..<(1 << 27)).contains(largest) {
            var bits = [UInt64](repeating: 0, count: Int(largest >> 6) + 1)
            var count = 0
            try statement.forEachRow(arguments: range.arguments) { row in
                let id = try row.decode(Int64.self, at: 0)
                guard (0...largest).contains(id) else { return }
                let (word, bit) = (Int(id >> 6), UInt64(1) << UInt64(id & 63))
                if bits[word] & bit == 0 { bits[word] |= bit; count += 1 }
            }
            return count
        }
        var ids = Set<Int64>(minimumCapacity: estimate)
        try statement.forEachRow(arguments: range.arguments) { row in ids.insert(try row.decode(Int64.self, at: 0)) }
        return ids.count
    }

    /// Terms of 3+ scalars only, none numeric, without a scope, when they are common (dense) or drive
    /// through the trigram index alone: the trigram index's count, which reads each term's doclists
    /// rather than one table row per match. Nil otherwise.
    private func fullTextCount(_ plan: SearchPlan, scope: DatabaseValue?, _ db: Database) throws -> Int? {
        let plainLong = plan.terms.allSatisfy { !$0.isShort && !plan.isNumeric($0) }
        let drivesByFullText = plan.filters.isEmpty && { if case .fullText = plan.driver { true } else { false } }()
        guard scope == nil, plainLong, plan.isDense || drivesByFullText else { return nil }
        return try db.scalar(
            Int.self, sql: "SELECT count(*) FROM \(fullTextTable) WHERE \(fullTextTable) MATCH ?",
            arguments: [SearchPlan.fullTextPattern(plan.terms)]) ?? 0
    }

    /// The total counted on the table: the driver's rows, each checked.
    func scannedCount(_ plan: SearchPlan, scope: DatabaseValue?, _ db: Database) throws -> Int {
        let condition = scoped(plan.condition(alias: table), scope: scope, alias: table)
        return try db.scalar(Int.self, sql: "SELECT count(*) FROM \(table) WHERE \(condition.sql)", arguments: condition.arguments) ?? 0
    }
}
