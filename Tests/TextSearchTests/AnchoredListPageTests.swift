import SQLiteStore
import TestSupport
import Testing
@testable import TextSearch

/// Pages of searches whose matches sort late in list order: thousands of names without the term sort
/// before them, so that a walk from the start of the scope falls short. Checked against the definition
/// (TextSearch's articles): the rows of the scope holding every term, in (scope, text bytewise, id) order,
/// `limit` of them after `offset`, and how many there are, written here from every row; and that the
/// page comes from the range of the texts beginning with the term (`anchoredIDsInListOrder`), not
/// from sorting every match.
struct AnchoredListPageTests {
    static let items = SearchDescription(
        table: "items", textColumns: ["name_folded"], scopeColumn: "kind", listIndex: "items_by_kind_name",
        scopeValues: ["a", "b"])

    typealias Item = (id: Int64, kind: String, name: String)

    /// In each kind, 12,000 names of the letters `bdegk` (none holds `mac`, all sort before `m`;
    /// more than the 10,000 entries a walk may always read), 400
    /// beginning with `mac` and a few holding it elsewhere, before (`l`, `mab`) and after (`mad`, `zz`)
    /// those, and a name that is only `mac` (`mac y`: no match outside the range of `mac`).
    static func filled(_ trace: StatementTrace? = nil) throws -> (DatabaseQueue, TemporaryDirectory, [Item]) {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path(), configuration: trace?.configuration ?? Configuration())
        var random = SplitMix64(seed: 0xA1C40)
        func letters(_ alphabet: String, _ count: Int) -> String {
            String((0..<count).map { _ in alphabet.randomElement(using: &random)! })
        }
        var names: [(kind: String, name: String)] = []
        for kind in ["a", "b"] {
            for _ in 0..<12_000 { names.append((kind, letters("bdegk", 1) + letters("bdegk ", 2 + Int.random(in: 0..<8, using: &random)))) }
            for _ in 0..<400 { names.append((kind, "mac" + letters(" xyzpro", Int.random(in: 0..<7, using: &random)))) }
            for other in ["l mac x", "mab mac", "mab imac pro", "mad mac x", "zz imac", "zz mac pro", "mac"] {
                names.append((kind, other))
            }
        }
        names.shuffle(using: &random)
        let rows = names.enumerated().map { Item(Int64($0.offset + 1), $0.element.kind, $0.element.name) }
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, kind TEXT, name_folded TEXT NOT NULL) STRICT;"
                + "CREATE INDEX items_by_kind_name ON items(kind, name_folded, id);" + Self.items.installSQL)
            try SectionCounts.installCounting(forTable: "items", section: "kind", in: db)
            for row in rows {
                try db.execute(sql: "INSERT INTO items VALUES (?, ?, ?)", arguments: [row.id, row.kind, row.name])
            }
        }
        return (queue, directory, rows)
    }

    /// The definition: the rows of `kind` holding every term of `text`, in list order (text by its
    /// UTF-8 bytes, then id).
    static func reference(_ rows: [Item], _ text: String, kind: String) -> [Int64] {
        let terms = text.split(separator: " ").map(String.init)
        return rows
            .filter { row in row.kind == kind && terms.allSatisfy { row.name.contains($0) } }
            .sorted { a, b in
                if a.name != b.name { return Array(a.name.utf8).lexicographicallyPrecedes(Array(b.name.utf8)) }
                return a.id < b.id
            }
            .map(\.id)
    }

    static let order = SearchOrder(SQLFragment(sql: "kind ASC, name_folded ASC, id ASC"), isListIndexOrder: true)

    @Test func lateMatchesArePagedFromTheTermsRangeAsTheDefinitionSays() throws {
        let trace = StatementTrace()
        let (queue, _, rows) = try Self.filled(trace)
        for text in ["mac", "mac x", "mac y", "mac pro", "imac", "mac o"] {
            for kind in ["a", "b"] {
                let expected = Self.reference(rows, text, kind: kind)
                for (offset, limit) in [(0, 1), (0, 50), (7, 20), (max(0, expected.count - 3), 50), (expected.count + 5, 10)] {
                    let query = SearchQuery(text)
                    var page: SearchPage<Int64>?
                    let statements = try trace.of {
                        page = try queue.read { db in
                            try Self.items.page(
                                query, scope: .text(kind), order: Self.order, limit: limit, offset: offset, selection: "items.id", db
                            ) { try $0.decode(Int64.self, at: 0) }
                        }
                    }
                    let wanted = Array(expected.dropFirst(max(0, offset)).prefix(limit))
                    #expect(page?.records == wanted, "\(text) in \(kind), \(limit) after \(offset)")
                    #expect(page?.totalCount == expected.count, "\(text) in \(kind)")
                    // The first page of the term alone: from the range of the names beginning with it,
                    // not by sorting its matches.
                    if text == "mac", offset == 0 {
                        #expect(statements.contains { $0.contains("items.name_folded >= ? AND items.name_folded < ?") }, "\(text) in \(kind), \(limit)")
                        #expect(!statements.contains { $0.contains("ORDER BY \(Self.order.terms.sql)") }, "\(text) in \(kind), \(limit)")
                    }
                }
            }
        }
    }

    @Test func lateMatchesArePagedFromTheirCountsIDs() throws {
        let (queue, _, rows) = try Self.filled()
        for text in ["mac", "mac x", "mac pro", "mac p", "imac o"] {
            // (Nil for `mac p`: a short term in fewer rows than the intersection threshold; a
            // controller then counts by `GROUP BY`, and its pages count again.)
            let matches = try queue.read { db in try Self.items.matchesPerScope(SearchQuery(text), db) }
            for kind in ["a", "b"] {
                let expected = Self.reference(rows, text, kind: kind)
                let count = matches.map { $0.counts[.text(kind)] ?? 0 }
                #expect(count == nil || count == expected.count, "\(text) in \(kind)")
                for (offset, limit) in [(0, 1), (0, 50), (11, 30)] {
                    let page = try queue.read { db in
                        try Self.items.page(
                            SearchQuery(text), scope: .text(kind), order: Self.order, limit: limit, offset: offset,
                            totalCount: count, matchIDs: matches?.ids?[.text(kind)], selection: "items.id", db
                        ) { try $0.decode(Int64.self, at: 0) }
                    }
                    #expect(page.records == Array(expected.dropFirst(offset).prefix(limit)), "\(text) in \(kind), \(limit) after \(offset)")
                    #expect(page.totalCount == expected.count, "\(text) in \(kind)")
                }
            }
        }
    }

    @Test func anAnchoredPageIsTheDefinitionsPageOrNil() throws {
        let (queue, _, rows) = try Self.filled()
        var random = SplitMix64(seed: 0x5EED)
        for _ in 0..<120 {
            let text = ["mac", "mac x", "mac y", "mac pro", "imac", "mac o", "mac z", "ma mac"].randomElement(using: &random)!
            let kind = ["a", "b"].randomElement(using: &random)!
            let expected = Self.reference(rows, text, kind: kind)
            let offset = Int.random(in: 0..<max(1, expected.count), using: &random)
            let wanted = min(Int.random(in: 1...60, using: &random), expected.count - offset)
            guard wanted > 0 else { continue }
            let budget = [10, 100, 100_000].randomElement(using: &random)!
            let ids = try queue.read { db in
                try Self.items.anchoredIDsInListOrder(
                    SearchPlan(SearchQuery(text), Self.items), scope: .text(kind), wanted: wanted, offset: offset,
                    matches: expected.count, budget: budget, othersLimit: expected.count / 4, db)
            }
            if let ids {
                #expect(ids == Array(expected.dropFirst(offset).prefix(wanted)), "\(text) in \(kind), \(wanted) after \(offset)")
            } else {
                // Only a short budget or too many others give up: rows holding every long term whose
                // text does not begin with the longest one, more than a quarter of the matches.
                let long = text.split(separator: " ").map(String.init).filter { $0.unicodeScalars.count >= 3 }
                let anchor = long.max { $0.unicodeScalars.count < $1.unicodeScalars.count }!
                let others = rows.filter { row in
                    row.kind == kind && long.allSatisfy { row.name.contains($0) } && !row.name.utf8.starts(with: anchor.utf8)
                }
                #expect(budget < 100_000 || others.count > expected.count / 4, "\(text) in \(kind), \(wanted) after \(offset)")
            }
        }
    }

    /// A term of 1-2 scalars anchors too, when every match begins with it (`l`, only in `l mac x`,
    /// after 12,000 names of other letters); when some match holds it elsewhere (`ma`: `l mac x`),
    /// which no index finds apart for so short a term, the range does not serve (nil), and the page
    /// is still the definition's.
    @Test func aShortTermAnchorsOnlyWhenEveryMatchBeginsWithIt() throws {
        let (queue, _, rows) = try Self.filled()
        for kind in ["a", "b"] {
            for text in ["l", "ma"] {
                let expected = Self.reference(rows, text, kind: kind)
                let ids = try queue.read { db in
                    try Self.items.anchoredIDsInListOrder(
                        SearchPlan(SearchQuery(text), Self.items), scope: .text(kind), wanted: min(2, expected.count), offset: 0,
                        matches: expected.count, budget: 100_000, othersLimit: 1_000, db)
                }
                #expect(!expected.isEmpty && ids == (text == "l" ? expected : nil), "\(text) in \(kind)")
                let page = try queue.read { db in
                    try Self.items.page(
                        SearchQuery(text), scope: .text(kind), order: Self.order, limit: 1, offset: 0, selection: "items.id", db
                    ) { try $0.decode(Int64.self, at: 0) }
                }
                #expect(page.records == Array(expected.prefix(1)) && page.totalCount == expected.count, "\(text) in \(kind)")
            }
        }
    }

    @Test func theUpperBoundOfTextsBeginningWithAPrefixIsTheLeastLaterText() {
        #expect(SearchDescription.upperBound(ofTextsBeginningWith: "mac") == "mad")
        #expect(SearchDescription.upperBound(ofTextsBeginningWith: "ma\u{10FFFF}") == "mb")
        #expect(SearchDescription.upperBound(ofTextsBeginningWith: "a\u{D7FF}") == "a\u{E000}")
        #expect(SearchDescription.upperBound(ofTextsBeginningWith: "\u{10FFFF}\u{10FFFF}") == nil)
        #expect(SearchDescription.upperBound(ofTextsBeginningWith: "") == nil)
        var random = SplitMix64(seed: 0xB0B)
        let alphabet: [Unicode.Scalar] = ["a", "b", "\u{7F}", "\u{80}", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}"]
        func text(_ count: Int) -> [UInt8] {
            Array(String(String.UnicodeScalarView((0..<count).map { _ in alphabet.randomElement(using: &random)! })).utf8)
        }
        for _ in 0..<2_000 {
            let prefix = text(1 + Int.random(in: 0..<3, using: &random))
            let other = text(Int.random(in: 0..<5, using: &random))
            let bound = SearchDescription.upperBound(ofTextsBeginningWith: String(decoding: prefix, as: UTF8.self)).map { Array($0.utf8) }
            let begins = other.starts(with: prefix)
            // Texts beginning with the prefix lie before the bound; later texts not beginning with it, from the bound on.
            if begins {
                #expect(bound.map { other.lexicographicallyPrecedes($0) } ?? true)
            } else if !other.lexicographicallyPrecedes(prefix) {
                #expect(bound.map { !other.lexicographicallyPrecedes($0) } == true, "\(other) \(prefix)")
            }
        }
    }
}
