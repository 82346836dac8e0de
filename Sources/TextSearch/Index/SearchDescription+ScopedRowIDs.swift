import SQLiteStore

extension SearchDescription {
    /// The bit position of the scope number in a rowid of ``fullTextTable`` and ``gramsTable`` (with ``scopeValues``):
    /// ids take the 48 bits below it, so rows with ids from 0 to 2⁴⁸ − 1 (about 2.8 × 10¹⁴) can be
    /// indexed; inserting a row with an id outside that range, or giving a row such an id, fails (the
    /// triggers raise `ABORT`, a bulk build a datatype mismatch) and writes nothing.
    public static let scopeNumberShift = 48

    /// One more than the largest scope number: the 15 bits above the id that keep a rowid positive.
    public static let scopeNumberLimit = 1 << (63 - scopeNumberShift)

    /// The largest id the search indexes can hold when their rowids carry the scope (2⁴⁸ − 1).
    public static let largestScopedID: Int64 = (1 << Int64(scopeNumberShift)) - 1

    /// Whether the rowids of ``fullTextTable`` and ``gramsTable`` carry the scope (there are
    /// ``scopeValues``), rather than being the ids.
    public var rowIDsCarryScope: Bool { !scopeValues.isEmpty }

    /// The rowid in ``fullTextTable`` and ``gramsTable`` of the row named `row` (`new`, `old`, or the table in a bulk
    /// build), as one SQL expression: its id, plus, with ``scopeValues``, the number of its scope value
    /// (1 for the first value, 2 for the second…; 0 for NULL and any other value) shifted left by
    /// ``scopeNumberShift``. An id outside 0…``largestScopedID`` gives a text, which FTS5 refuses.
    ///
    /// ```swift
    /// products.indexRowID(of: "new")  // (CASE new.type WHEN 'device' THEN 1 … ELSE 0 END << 48) | new.id
    /// ```
    public func indexRowID(of row: String) -> String {
        guard rowIDsCarryScope else { return "\(row).\(idColumn)" }
        return "CASE WHEN \(row).\(idColumn) BETWEEN 0 AND \(Self.largestScopedID) "
            + "THEN \(inRangeRowID(of: row)) ELSE 'id out of the search index range' END"
    }

    /// ``indexRowID(of:)`` of a row whose id is known to be in 0…``largestScopedID``, without the
    /// range's guard: for the triggers, whose new row passed the insert's `RAISE` and whose old row
    /// was indexed.
    ///
    /// ```swift
    /// products.inRangeRowID(of: "new")  // (CASE new.type WHEN 'device' THEN 1 … ELSE 0 END << 48) | new.id
    /// ```
    func inRangeRowID(of row: String) -> String {
        guard rowIDsCarryScope, let scopeColumn else { return "\(row).\(idColumn)" }
        let numbers = scopeValues.enumerated()
            .map { "WHEN \(SQLText.literal($0.element)) THEN \($0.offset + 1)" }
            .joined(separator: " ")
        return "(CASE \(row).\(scopeColumn) \(numbers) ELSE 0 END << \(Self.scopeNumberShift)) | \(row).\(idColumn)"
    }

    /// The number ``indexRowID(of:)`` gives rows of `scope`: nil when the rowids do not carry the
    /// scope or `scope` is not one of ``scopeValues`` (such rows share number 0 with NULL and every
    /// other value, so their range does not tell them apart).
    func scopeNumber(_ scope: DatabaseValue) -> Int? {
        guard case .text(let text) = scope, let index = scopeValues.firstIndex(of: text) else { return nil }
        return index + 1
    }

    /// Whether the search indexes' rowids tell `scope`'s rows apart (nil, every row: always), so that
    /// ``indexIDs(_:matching:scope:)`` restricts its rows to `scope`.
    func indexesSeparate(_ scope: DatabaseValue?) -> Bool {
        scope.map { scopeNumber($0) != nil } ?? true
    }

    /// A `SELECT` of the ids of the rows ``fullTextTable`` matches with `pattern`: within `scope` when
    /// its rowids carry it (a rowid range of the index, read without the table), else in every scope.
    func fullTextIDs(matching pattern: String, scope: DatabaseValue? = nil) -> SQLFragment {
        indexIDs(fullTextTable, matching: pattern, scope: scope)
    }

    /// A `SELECT` of the ids of the rows the index `table` (``fullTextTable`` or ``gramsTable``)
    /// matches with `pattern`, within `scope`'s rowid range when the rowids carry it.
    func indexIDs(_ table: String, matching pattern: String, scope: DatabaseValue?) -> SQLFragment {
        let ids = rowIDsCarryScope ? "rowid & \(Self.largestScopedID)" : "rowid"
        return SQLFragment(sql: "SELECT \(ids) FROM \(table) WHERE ") + indexMatch(table, pattern, scope: scope)
    }

    /// A `SELECT` of the ids of the rows that ``gramsTable`` matches with `gramsPattern` and
    /// ``fullTextTable`` with `fullTextPattern`, within `scope`'s rowid range when the rowids carry it:
    /// the grams index's rows, each looked up among the trigram index's rows (which SQLite reads once
    /// into a temporary index; the unary `+` keeps the rowid from being offered to FTS5 as a lookup
    /// per value). Both indexes' rowids are the same for a row, so no table row is read.
    func intersectionIDs(gramsPattern: String, fullTextPattern: String, scope: DatabaseValue?) -> SQLFragment {
        intersectionIDs(gramsPattern: gramsPattern, fullTextPattern: fullTextPattern, scopeNumber: scope.flatMap(scopeNumber))
    }

    /// The one builder of the two-index query of terms of both lengths: a `SELECT` of the ids of the
    /// rows holding every gram of `grams` (folded texts of 1-2 scalars without a space) in the grams
    /// index and every `long` term's phrase in the trigram index, narrowed to `scope` where the
    /// indexes tell it apart (its rowid range, or its token in the grams index).
    ///
    /// - Parameter exact: true gives exactly the rows of `scope`, or nil when the indexes cannot tell
    ///   its rows apart; false gives, for such a scope, the rows of every scope (the caller checks
    ///   the scope on the rows) and is never nil.
    func intersectionIDs(grams: [String], long: [SearchTerm], scope: DatabaseValue?, exact: Bool) -> SQLFragment? {
        let fullTextPattern = SearchPlan.fullTextPattern(long)
        if rowIDsCarryScope {
            guard !exact || indexesSeparate(scope), let pattern = SearchPlan.gramsPattern(grams) else { return nil }
            return intersectionIDs(gramsPattern: pattern, fullTextPattern: fullTextPattern, scope: scope)
        }
        guard let pattern = SearchPlan.gramsPattern(grams, scope: scope) ?? (exact ? nil : SearchPlan.gramsPattern(grams))
        else { return nil }
        return intersectionIDs(gramsPattern: pattern, fullTextPattern: fullTextPattern, scope: nil)
    }

    /// ``intersectionIDs(gramsPattern:fullTextPattern:scope:)`` for the rows of scope number `number` (nil: every row).
    private func intersectionIDs(gramsPattern: String, fullTextPattern: String, scopeNumber number: Int?) -> SQLFragment {
        let gramsTable = gramsTable!
        let ids = rowIDsCarryScope ? "rowid & \(Self.largestScopedID)" : "rowid"
        return SQLFragment(sql: "SELECT \(ids) FROM \(gramsTable) WHERE ")
            + indexMatch(gramsTable, gramsPattern, scopeNumber: number)
            + SQLFragment(sql: " AND +rowid IN (SELECT rowid FROM \(fullTextTable) WHERE ")
            + indexMatch(fullTextTable, fullTextPattern, scopeNumber: number) + SQLFragment(sql: ")")
    }

    /// The condition on ``fullTextTable`` that its rows match `pattern`, within `scope` when its
    /// rowids carry it: `<table> MATCH ?`, and `AND rowid BETWEEN ? AND ?`.
    func fullTextMatch(_ pattern: String, scope: DatabaseValue?) -> SQLFragment {
        indexMatch(fullTextTable, pattern, scope: scope)
    }

    /// `<table> MATCH ?`, and `AND rowid BETWEEN ? AND ?` for `scope` when the rowids carry it.
    func indexMatch(_ table: String, _ pattern: String, scope: DatabaseValue?) -> SQLFragment {
        indexMatch(table, pattern, scopeNumber: scope.flatMap(scopeNumber))
    }

    /// `<table> MATCH ?`, and `AND rowid BETWEEN ? AND ?` for the rows of scope number `number` (nil: every row).
    private func indexMatch(_ table: String, _ pattern: String, scopeNumber number: Int?) -> SQLFragment {
        let match = SQLFragment(sql: "\(table) MATCH ?", arguments: [pattern])
        guard let number else { return match }
        return match + SQLFragment(sql: " AND ") + rowidRange(number)
    }

    /// The rows the index `table` (``fullTextTable`` or ``gramsTable``) matches with `pattern` in
    /// each of ``scopeValues``, one count of a rowid range each (values counting 0 left out); nil when
    /// the rowids do not carry the scope or some match has another scope value (number 0), which the
    /// ranges cannot tell apart.
    func countsPerScope(in table: String, matching pattern: String, _ db: Database) throws -> [DatabaseValue: Int]? {
        try countsPerScope(db) { number in
            SQLFragment(sql: "SELECT count(*) FROM \(table) WHERE ") + indexMatch(table, pattern, scopeNumber: number)
        }
    }

    /// The rowids of the rows the index `table` (``fullTextTable`` or ``gramsTable``) matches with
    /// `pattern`, ascending (with ``scopeValues``, each row's scope number in the high bits).
    func indexRowIDs(_ table: String, matching pattern: String, _ db: Database) throws -> [Int64] {
        var rowids: [Int64] = []
        try db.cachedStatement(sql: "SELECT rowid FROM \(table) WHERE \(table) MATCH ? ORDER BY rowid")
            .forEachInteger(arguments: [pattern]) { rowids.append($0) }
        return rowids
    }

    /// The rows whose rowids are both in `fullTextRowIDs` (ascending, from ``indexRowIDs(_:matching:_:)``
    /// of ``fullTextTable``) and among the rows ``gramsTable`` matches with `gramsPattern`, grouped by
    /// value of ``scopeValues`` (each row's scope number is in its rowid's high bits): counted per value
    /// (values counting 0 left out), with their ids when they are at most
    /// ``SearchCosts/idListLimit`` in all. Nil when the rowids do not carry the scope or some
    /// match has another scope value (number 0), which the rowids cannot tell apart.
    ///
    /// The grams index's rows are read in rowid order and merged with the list, one pass over each,
    /// no table row read: cheaper than SQLite's own intersection (`+rowid IN (SELECT rowid …)`, a
    /// temporary index of one side probed with each row of the other; W3 `touch s`, `pro pa`). One
    /// pass, not one intersection per value's rowid range: each range's costs nearly as much as the whole.
    func matchesPerScope(intersecting fullTextRowIDs: [Int64], gramsPattern: String, _ db: Database) throws -> ScopeMatches? {
        guard rowIDsCarryScope, let gramsTable else { return nil }
        var tally = ScopeTally(scopeNumbers: scopeValues.count)
        var next = 0
        try db.cachedStatement(sql: "SELECT rowid FROM \(gramsTable) WHERE \(gramsTable) MATCH ? ORDER BY rowid")
            .forEachInteger(arguments: [gramsPattern]) { rowid in
                while next < fullTextRowIDs.count, fullTextRowIDs[next] < rowid { next += 1 }
                guard next < fullTextRowIDs.count, fullTextRowIDs[next] == rowid else { return }
                tally.add(rowid)
            }
        return tally.matches(scopeValues)
    }

    /// The rows ``fullTextTable`` matches with `pattern`, grouped by value of ``scopeValues`` (each
    /// row's scope number is in its rowid's high bits), counted and with their ids (values counting
    /// 0 left out), read in one pass of the index: for several terms of 3+ scalars (`elan wav`,
    /// `uber zoe`), whose matches are few, so that the pages of the same read are read from their
    /// ids instead of searching again: one pass costs about one count of the whole index, where a
    /// count per value's rowid range and a search per section cost more (W3 controller, 3+ chars).
    /// Nil when the rowids do not carry the
    /// scope, when some match has another scope value (number 0), which the rowids cannot tell
    /// apart, or when more than ``SearchCosts/idListLimit`` rows match (then read no further).
    func fullTextMatchesPerScope(matching pattern: String, _ db: Database) throws -> ScopeMatches? {
        guard rowIDsCarryScope else { return nil }
        var tally = ScopeTally(scopeNumbers: scopeValues.count)
        try db.cachedStatement(sql: "SELECT rowid FROM \(fullTextTable) WHERE \(fullTextTable) MATCH ? LIMIT ?")
            .forEachInteger(arguments: [pattern, SearchCosts.idListLimit + 1]) { tally.add($0) }
        guard tally.total <= SearchCosts.idListLimit else { return nil }
        return tally.matches(scopeValues)
    }

    /// The count `query` gives for each scope number (0 for rows of no value of ``scopeValues``),
    /// keyed by value; values counting 0 left out; nil without ``scopeValues`` or when number 0 counts some.
    /// Number 0 is not counted when the maintained counts of the scope column (`SectionCounts`) show
    /// no such row (its range costs a count though it holds nothing).
    private func countsPerScope(_ db: Database, _ query: (Int) -> SQLFragment) throws -> [DatabaseValue: Int]? {
        guard rowIDsCarryScope else { return nil }
        var counts: [DatabaseValue: Int] = [:]
        for number in (try everyRowHasAScopeValue(db) ? 1 : 0)...scopeValues.count {
            let counted = query(number)
            let count = try db.scalar(Int.self, sql: counted.sql, arguments: counted.arguments) ?? 0
            if number == 0 {
                guard count == 0 else { return nil }
            } else if count > 0 {
                counts[.text(scopeValues[number - 1])] = count
            }
        }
        return counts
    }

    /// Whether the maintained counts of the scope column (`SectionCounts`) show every row with one of
    /// ``scopeValues``; false when they are not kept.
    private func everyRowHasAScopeValue(_ db: Database) throws -> Bool {
        guard let scopeColumn, let counts = try SectionCounts.counts(forTable: table, section: scopeColumn, in: db) else { return false }
        return counts.allSatisfy { if case .text(let value) = $0.key { scopeValues.contains(value) } else { false } }
    }

    /// `rowid BETWEEN ? AND ?`: the rowids of the search indexes of the rows whose scope number is `number`.
    private func rowidRange(_ number: Int) -> SQLFragment {
        let lowest = Int64(number) << Int64(Self.scopeNumberShift)
        return SQLFragment(sql: "rowid BETWEEN ? AND ?", arguments: [lowest, lowest | Self.largestScopedID])
    }
}
