import SQLiteStore

extension SearchDescription {
    /// The ids of the `wanted` rows after `offset` in list order (``listIndex``: scope column, first
    /// text column, id), for a search with a term of 3+ scalars whose matches sort late, so that a walk
    /// from the start of the scope falls short (`mac` within a type of a `catalog seed --count 1000000`
    /// database: its 8,490 names all begin with `mac`, after 125,303 names without it; `東京`'s 8,276
    /// after 317,253). The anchor is the plan's longest term of 3+ scalars, or without one its longest
    /// term; every match is in one of two parts:
    /// - the matches whose text begins with the anchor: one range of the list index, from the anchor
    ///   to the least text after every text that begins with it (``upperBound(ofTextsBeginningWith:)``),
    ///   counted and then walked in order with every term checked, each walk for at most `budget`
    ///   entries (as ``idsInListOrder(_:scope:wanted:offset:budget:_:)`` walks);
    /// - the others, `matches` less the range's: none in the skew this serves (the 8,490 desktops
    ///   holding `mac`, or the 8,199 holding `strasse`, all begin with it); else, for an anchor of 3+
    ///   scalars, when they are at most `othersLimit` (``SearchCosts/fewRows``), the rows the trigram index
    ///   finds with every long term's phrase but not the anchor at the start of the text (`("mac")
    ///   NOT ^"mac"`, an FTS5 initial-phrase query), each read by id and checked;
    ///
    /// merged by (text, id), bytewise as SQLite's BINARY collation compares. The range is counted on
    /// the list index rather than the others looked for in the trigram index first: a long anchor's
    /// phrase is costly there (every trigram's positions read), where walking the names of its range
    /// is cheap (browse-bench, seeded `strasse`).
    /// `matches` is how many rows match within `scope` in this read. Nil when it does not apply (no
    /// list index, several text columns, a scope column without a scope, a numeric term), when the
    /// others are more than that share (any, for an anchor of 1-2 scalars), or when a walk of the range ends
    /// before it is done.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#fts5_initial_token_queries>
    func anchoredIDsInListOrder(
        _ plan: SearchPlan, scope: DatabaseValue?, wanted: Int, offset: Int, matches: Int, budget: Int, othersLimit: Int,
        _ db: Database
    ) throws -> [Int64]? {
        guard let listIndex, textColumns.count == 1, let text = textColumns.first, scopeColumn == nil || scope != nil,
              !plan.matchesNothing, !plan.terms.contains(where: plan.isNumeric),
              let anchor = plan.terms.filter({ !$0.isShort }).max(by: { $0.length < $1.length })
                ?? plan.terms.max(by: { $0.length < $1.length })
        else { return nil }
        let (depth, overflow) = offset.addingReportingOverflow(wanted)
        guard !overflow else { return nil }
        let scoped = scope.map { SQLFragment(sql: "\(table).\(scopeColumn!) = ?", arguments: [$0]) }
        // (A one-term search's range holds only matches: each of its texts begins with the term.)
        let filter = plan.terms.count == 1 ? SQLFragment.alwaysTrue : plan.filterCondition(ofAllTermsOn: table)
        let keys = "\(table).\(text), \(table).\(idColumn)"
        func keyed(_ row: Row) throws -> (text: String, id: Int64) { (try row.decode(String.self, at: 0), try row.decode(Int64.self, at: 1)) }

        // The matches whose text begins with the anchor: a range of the list index, counted by walking
        // it (every term checked on the index's own text) for at most `budget` entries.
        var range = SQLFragment(sql: "\(table).\(text) >= ?", arguments: [anchor.folded])
        if let end = Self.upperBound(ofTextsBeginningWith: anchor.folded) {
            range = range + SQLFragment(sql: " AND \(table).\(text) < ?", arguments: [end])
        }
        let inRange = scoped.map { $0 && range && filter } ?? (range && filter)
        let (instructions, instructionsOverflow) = budget.multipliedReportingOverflow(by: SearchCosts.listWalkInstructionsPerEntry)
        func walked<T>(_ body: () throws -> T) throws -> T? {
            try db.withInstructionLimit(instructionsOverflow ? .max : instructions, body)
        }
        guard let rangeMatches = try walked({
            try db.scalar(
                Int.self, sql: "SELECT count(*) FROM \(table) INDEXED BY \(listIndex) WHERE \(inRange.sql)",
                arguments: inRange.arguments) ?? 0
        }) else { return nil }

        // The others: none (the common skew: `mac`, `zenit`, `東京`), or, for an anchor of 3+ scalars,
        // few, found in the trigram index (which finds no phrase of 1-2 scalars).
        guard matches - rangeMatches >= 0, matches - rangeMatches <= (anchor.isShort ? 0 : othersLimit) else { return nil }
        var others: [(text: String, id: Int64)] = []
        if rangeMatches < matches {
            let long = plan.terms.filter { !$0.isShort }
            let othersPattern = "(\(SearchPlan.fullTextPattern(long))) NOT ^\(SearchPlan.phrase(anchor.folded))"
            let othersQuery = fullTextIDs(matching: othersPattern, scope: scope)
            let otherIDs = try db.fetchAll(sql: othersQuery.sql + " LIMIT ?", arguments: othersQuery.arguments + [othersLimit + 1]) {
                try $0.decode(Int64.self, at: 0)
            }
            guard otherIDs.count <= othersLimit else { return nil }
            let list = SQLFragment.list(otherIDs)
            let byID = SQLFragment(sql: "\(table).\(idColumn) IN \(list.sql)", arguments: list.arguments)
            let condition = scoped.map { byID && $0 && filter } ?? (byID && filter)
            others = try db.fetchAll(
                sql: "SELECT \(keys) FROM \(table) NOT INDEXED WHERE \(condition.sql) ORDER BY \(keys) LIMIT ?",
                arguments: condition.arguments + [depth], keyed)
        }

        // The range's first rows, in list order.
        let order = ((scopeColumn.map { [$0] } ?? []) + [text, idColumn]).map { "\(table).\($0)" }.joined(separator: ", ")
        guard let anchored = try walked({
            try db.fetchAll(
                sql: "SELECT \(keys) FROM \(table) INDEXED BY \(listIndex) WHERE \(inRange.sql) ORDER BY \(order) LIMIT ?",
                arguments: inRange.arguments + [depth], keyed)
        }) else { return nil }

        // Both parts in (text, id) order.
        var merged: [Int64] = []
        var (o, a) = (0, 0)
        while merged.count < depth, o < others.count || a < anchored.count {
            let takesOther = a == anchored.count
                || o < others.count && Self.precedes(others[o], anchored[a])
            if takesOther {
                merged.append(others[o].id)
                o += 1
            } else {
                merged.append(anchored[a].id)
                a += 1
            }
        }
        guard merged.count == depth else { return nil }
        return Array(merged.dropFirst(offset))
    }

    /// Whether the row keyed `a` comes before the row keyed `b` in list order within one scope: text
    /// by its UTF-8 bytes (SQLite's BINARY collation), then id.
    private static func precedes(_ a: (text: String, id: Int64), _ b: (text: String, id: Int64)) -> Bool {
        if a.text.utf8.elementsEqual(b.text.utf8) { return a.id < b.id }
        return a.text.utf8.lexicographicallyPrecedes(b.text.utf8)
    }

    /// The least text after every text that begins with `prefix`, in SQLite's BINARY order (that of
    /// UTF-8 bytes, which is that of the scalars): `prefix` with its last scalar raised by one
    /// (skipping the surrogates), or, when that scalar is U+10FFFF, the same for the text before it.
    /// Nil when there is none (`prefix` is empty or only U+10FFFF): every later text begins with it.
    ///
    /// ```swift
    /// SearchDescription.upperBound(ofTextsBeginningWith: "mac")  // "mad"
    /// ```
    static func upperBound(ofTextsBeginningWith prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            let raised = last.value == 0xD7FF ? 0xE000 : last.value + 1
            if let next = Unicode.Scalar(raised) {
                scalars.append(next)
                return String(String.UnicodeScalarView(scalars))
            }
        }
        return nil
    }
}
