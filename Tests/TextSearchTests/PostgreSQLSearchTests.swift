import Foundation
@_spi(Testing) @testable import PostgreSQLSearch
import PostgreSQLStore
import SQLiteStore
import TestSupport
import Testing
import TextSearch

/// The search on a real PostgreSQL server against the SQLite engine's and the brute-force reference
/// (folding by ``FoldingReference``): the same films in both, changed at random by inserts, updates
/// and deletes, searched at random in every script, with and without a scope, in two orders; pages,
/// totals, counts per scope and ids equal, whichever strategy reads the page.
struct PostgreSQLSearchTests {
    static let seed: UInt64 = 0x9E55

    struct Film {
        var title: String
        var director: String
        var year: Int
        var kind: String
    }

    static let kinds = ["drama", "comedy", "ドラマ"]

    static let description = SearchDescription(
        table: "films", textColumns: ["title_folded", "director_folded"], numberColumns: ["year"], scopeColumn: "kind",
        listIndex: "films_list", substringCountMinimumRows: 2, accelerators: [.substringCounts])

    static let sqliteTable = """
        CREATE TABLE films (
            id INTEGER PRIMARY KEY, title TEXT NOT NULL, title_folded TEXT NOT NULL,
            director TEXT NOT NULL, director_folded TEXT NOT NULL, year INTEGER NOT NULL, kind TEXT NOT NULL
        ) STRICT;
        CREATE INDEX films_list ON films (kind, title_folded, id);
        """

    static let postgreSQLTable = """
        CREATE TABLE films (
            id bigint PRIMARY KEY, title text NOT NULL, title_folded text COLLATE "C" NOT NULL,
            director text NOT NULL, director_folded text COLLATE "C" NOT NULL, year integer NOT NULL,
            kind text COLLATE "C" NOT NULL
        );
        CREATE INDEX films_list ON films (kind, title_folded, id);
        CREATE INDEX films_year ON films (year, id);
        """

    /// The two orders searched: the list index's, and by year.
    static let orders = [
        (SearchOrder(SQLFragment(sql: "films.kind, films.title_folded, films.id"), isListIndexOrder: true), "list"),
        (SearchOrder(SQLFragment(sql: "films.year, films.id")), "year"),
    ]

    /// Every strategy forced, after the planner's own choice (nil).
    static let strategies: [PageStrategy?] = [
        nil, .readMatches(.sorted), .walkOrderIndex, .walkListIndex(budget: 3, fallback: .readMatches(.byID)),
        .walkListIndex(budget: 1_000_000, fallback: .walkOrderIndex), .scan(onePass: true), .scan(onePass: false),
    ]

    @Test func searchesEqualSQLiteAndTheReference() throws {
        let schema = try SearchSchema()
        let search = PostgreSQLTextSearch(Self.description)
        let pg = try schema.connect(creating: Self.postgreSQLTable, installing: search)
        let directory = try TemporaryDirectory()
        let sqlite = try DatabaseQueue(path: directory.path())
        try sqlite.write { db in try db.execute(sql: Self.sqliteTable + Self.description.installSQL) }
        var random = SplitMix64(seed: Self.seed)
        var films: [Int64: Film] = [:]
        var nextID: Int64 = 1
        var failures = 0
        var nonEmpty = 0
        for round in 0..<12 where failures == 0 {
            // The same changes on both engines.
            var changes: [(sql: String, arguments: [DatabaseValue])] = []
            for _ in 0..<(round == 0 ? 60 : 15) {
                let ids = films.keys.sorted()
                switch random.next() % 6 {
                case 0 where !ids.isEmpty:
                    let id = ids[Int(random.next() % UInt64(ids.count))]
                    changes.append(("DELETE FROM films WHERE id = ?", [.integer(id)]))
                    films[id] = nil
                case 1 where !ids.isEmpty:
                    let id = ids[Int(random.next() % UInt64(ids.count))]
                    let title = RandomTexts.text(&random)
                    let kind = Self.kinds[Int(random.next() % 3)]
                    changes.append(("UPDATE films SET title = ?, title_folded = ?, kind = ? WHERE id = ?",
                                    [.text(title), .text(TextFolding.fold(title)), .text(kind), .integer(id)]))
                    films[id]!.title = title
                    films[id]!.kind = kind
                default:
                    let film = Film(
                        title: RandomTexts.text(&random), director: RandomTexts.text(maxPieces: 2, &random),
                        year: 1990 + Int(random.next() % 4), kind: Self.kinds[Int(random.next() % 3)])
                    changes.append(("INSERT INTO films VALUES (?, ?, ?, ?, ?, ?, ?)", [
                        .integer(nextID), .text(film.title), .text(TextFolding.fold(film.title)), .text(film.director),
                        .text(TextFolding.fold(film.director)), .integer(Int64(film.year)), .text(film.kind),
                    ]))
                    films[nextID] = film
                    nextID += 1
                }
            }
            try sqlite.write { db in
                for change in changes { try db.execute(sql: change.sql, arguments: StatementArguments(change.arguments)) }
            }
            try pg.inTransaction(writing: true) {
                for change in changes { try pg.execute(sql: change.sql, values: change.arguments) }
                // The substring counts chosen after the first rows and again later; the triggers keep them between.
                if round == 0 || round == 6 { try search.refreshSubstringCounts(pg) }
            }
            #expect(try search.check(pg) == [], "round \(round)")
            if round == 0 {
                #expect(try pg.fetchRows(sql: "SELECT DISTINCT substring FROM films_substring_counts", values: []).count > 5)
            }

            let texts = (0..<16).map { index in
                index % 5 == 0 ? String(1990 + Int(random.next() % 4))
                    : RandomTexts.text(maxPieces: 2, &random) + (random.next() % 3 == 0 ? " " + RandomTexts.text(maxPieces: 1, &random) : "")
            } + ["", "x", "a b", "mac 3", "a 1991", "199 e", "3 1990 ra", "3", "2007", "599", "mac a", "pro p"]
            try FoldingReference.prepare(
                films.values.flatMap { [$0.title, $0.director] } + texts.flatMap { SearchQuery($0).terms.map(\.text) })
            for text in texts where failures == 0 {
                let query = SearchQuery(text)
                let scope: String? = random.next() % 3 == 0 ? Self.kinds[Int(random.next() % 3)] : nil
                let (order, orderName) = Self.orders[Int(random.next() % 2)]
                let expected = Self.reference(films, query, scope: scope, byYear: orderName == "year")
                let (limit, offset) = (1 + Int(random.next() % 8), Int(random.next() % 4))
                let expectedPage = Array(expected.dropFirst(offset).prefix(limit))
                if !expectedPage.isEmpty { nonEmpty += 1 }
                let context = "seed \(Self.seed) round \(round) \(String(reflecting: text)) scope \(scope ?? "-") \(orderName) \(limit)@\(offset)"
                let scopeValue: DatabaseValue? = scope.map { .text($0) }

                let fromSQLite = try sqlite.read { db in
                    try Self.description.page(
                        query, scope: scopeValue, order: order, limit: limit, offset: offset, selection: "films.id", db
                    ) { try $0.decode(Int64.self, at: 0) }
                }
                for strategy in Self.strategies {
                    let fromPostgreSQL = try pg.inTransaction(writing: false) {
                        let decode = { (row: [DatabaseValue]) -> Int64 in if case .integer(let id) = row[0] { id } else { -1 } }
                        return try strategy.map {
                            try search.page(
                                query, scope: scopeValue, order: order, limit: limit, offset: offset, selection: "films.id",
                                forcing: $0, pg, decode: decode)
                        } ?? search.page(
                            query, scope: scopeValue, order: order, limit: limit, offset: offset, selection: "films.id", pg,
                            decode: decode)
                    }
                    if fromPostgreSQL.records != expectedPage || fromPostgreSQL.totalCount != expected.count {
                        failures += 1
                        Issue.record("""
                            PostgreSQL \(strategy.map { "\($0)" } ?? "planned"): \(fromPostgreSQL.records) of \(fromPostgreSQL.totalCount), \
                            expected \(expectedPage) of \(expected.count) — \(context)
                            """)
                    }
                }
                if fromSQLite.records != expectedPage || fromSQLite.totalCount != expected.count {
                    failures += 1
                    Issue.record("SQLite: \(fromSQLite.records) of \(fromSQLite.totalCount), expected \(expectedPage) — \(context)")
                }
                let ids = try search.matchIDs(query, scope: scopeValue, pg).sorted()
                let counts = try search.countsPerScope(query, pg)
                let expectedCounts = Dictionary(
                    Self.reference(films, query, scope: nil, byYear: false).map { (DatabaseValue.text(films[$0]!.kind), 1) },
                    uniquingKeysWith: +)
                let count = try search.count(query, scope: scopeValue, pg)
                if ids != expected.sorted() || counts != expectedCounts || count != expected.count {
                    failures += 1
                    Issue.record("PostgreSQL ids \(ids), counts \(counts), expected \(expected.sorted()), \(expectedCounts) — \(context)")
                }
            }
        }
        #expect(nonEmpty > 60, "the random searches find rows")
    }

    /// The totals that kept counts hold are read from them, never counted over the rows: a term
    /// inside another is dropped (`max a` is `max`'s substring count), and one numeric term's total is
    /// its text's substring count plus its year's rows, less those holding both. The kept counts of
    /// one scope are then raised by 100 behind the triggers' back, so that a total read from them shows it.
    @Test func keptCountsGiveTheTotals() throws {
        let schema = try SearchSchema()
        let search = PostgreSQLTextSearch(Self.description)
        let pg = try schema.connect(creating: Self.postgreSQLTable, installing: search)
        let films: [(String, Int, String)] = [
            ("max 1991", 1991, "drama"), ("max power", 1991, "comedy"), ("1991 max", 2000, "drama"), ("mini", 1991, "drama"),
            ("other", 2000, "comedy"),
        ]
        for (index, film) in films.enumerated() {
            try pg.execute(
                sql: "INSERT INTO films VALUES (?, ?, ?, 'ann', 'ann', ?, ?)",
                values: [.integer(Int64(index + 1)), .text(film.0), .text(film.0), .integer(Int64(film.1)), .text(film.2)])
        }
        try pg.inTransaction(writing: true) { try search.refreshSubstringCounts(pg) }
        let order = Self.orders[0].0
        func total(_ text: String, _ scope: String? = nil) throws -> Int {
            try pg.inTransaction(writing: false) {
                try search.page(SearchQuery(text), scope: scope.map { .text($0) }, order: order, limit: 10, selection: "films.id", pg) { $0 }
                    .totalCount
            }
        }
        #expect(try [total("max a"), total("1991"), total("1991", "drama"), total("199"), total("1991 max")] == [3, 4, 3, 2, 3])
        try pg.execute(sql: "UPDATE films_substring_counts SET count = count + 100 WHERE substring IN ('max', '1991') AND scope = 'drama'")
        #expect(try [total("max a"), total("1991"), total("1991", "drama"), total("1991 max")] == [103, 104, 103, 3])
    }

    /// A long term with a frequent character: the long term's `pg_trgm` index finds the rows and the
    /// character is checked on them, the grams index not read; the page is the reference's.
    @Test func frequentCharacterIsCheckedOnTheLongTermsRows() throws {
        let schema = try SearchSchema()
        let search = PostgreSQLTextSearch(Self.description)
        let pg = try schema.connect(creating: Self.postgreSQLTable, installing: search)
        let titles = (0..<20).map { "cc \($0)" } + ["panel c", "panel", "pan el c"]
        for (index, title) in titles.enumerated() {
            try pg.execute(
                sql: "INSERT INTO films VALUES (?, ?, ?, 'ann', 'ann', 1991, 'drama')",
                values: [.integer(Int64(index + 1)), .text(title), .text(title)])
        }
        let (ids, scans) = try pg.inTransaction(writing: false) {
            try pg.execute(sql: "SET LOCAL enable_seqscan = off", values: [])
            let page = try search.page(SearchQuery("panel c"), order: Self.orders[0].0, limit: 10, selection: "films.id", pg) { $0 }
            let scans = try pg.fetchRows(
                sql: "SELECT pg_stat_get_xact_numscans(to_regclass(?)), pg_stat_get_xact_numscans(to_regclass(?))",
                values: [.text("films_title_folded_trigram_index"), .text(search.gramsIndex)])[0]
            return (page.records.map { $0[0] } + [.integer(Int64(page.totalCount))], scans)
        }
        #expect(ids == [.integer(21), .integer(1)])
        #expect(scans[0] != .integer(0) && scans[1] == .integer(0), "\(scans)")
    }

    /// A search that no kept count totals plans each of its statements without PostgreSQL's parallel
    /// workers, and leaves the session's setting as it was, also while its rows are decoded; a search
    /// with a kept count leaves the setting alone too. Each statement the first ran (``StatementLog``)
    /// is explained after it with parallel plans made free, under which a plain count plans them.
    @Test func searchesCountedOverRowsRunSerially() throws {
        let schema = try SearchSchema()
        let search = PostgreSQLTextSearch(Self.description)
        let pg = try schema.connect(creating: Self.postgreSQLTable, installing: search)
        for (index, title) in ["max 1991", "max power", "mini"].enumerated() {
            try pg.execute(
                sql: "INSERT INTO films VALUES (?, ?, ?, 'ann', 'ann', 1991, 'drama')",
                values: [.integer(Int64(index + 1)), .text(title), .text(title)])
        }
        let setting = "SELECT current_setting('max_parallel_workers_per_gather')"
        let explain = { (sql: String, values: [DatabaseValue]) in
            try pg.fetchRows(sql: "EXPLAIN " + sql, values: values).map { "\($0[0])" }.joined(separator: "\n")
        }
        for text in ["max p", "ma"] {
            let log = StatementLog(pg)
            let (seen, after, plans, plain) = try pg.inTransaction(writing: false) {
                try pg.execute(
                    sql: """
                        SET LOCAL max_parallel_workers_per_gather = 3; SET LOCAL parallel_setup_cost = 0;
                        SET LOCAL parallel_tuple_cost = 0; SET LOCAL min_parallel_table_scan_size = 0;
                        SET LOCAL min_parallel_index_scan_size = 0
                        """, values: [])
                var seen: Set<DatabaseValue> = []
                _ = try search.page(SearchQuery(text), order: Self.orders[0].0, limit: 10, selection: "films.id", log) { _ in
                    seen.insert(try pg.fetchRows(sql: setting, values: [])[0][0])
                }
                let plans = try log.statements.map(explain)
                let plain = try explain("SELECT count(*) FROM films WHERE strpos(title_folded, 'max') > 0", [])
                return (seen, try pg.fetchRows(sql: setting, values: [])[0][0], plans, plain)
            }
            #expect(seen == [.text("3")] && after == .text("3"), "\(text)")
            #expect(plain.contains("Gather"), "\(plain)")
            if text == "max p" { #expect(!plans.isEmpty && plans.allSatisfy { !$0.contains("Gather") }, "\(plans)") }
        }
    }

    /// A bulk build (the structures installed over rows loaded before, as after `COPY`) and a bulk
    /// load (`load(_:columns:_:meanwhile:)` into the installed empty table, the substring counts'
    /// second pass reading the texts from its temporary file) hold what the triggers keep when the
    /// same rows arrive one by one, and the triggers then keep it.
    @Test func bulkBuildAndLoadEqualTheTriggers() throws {
        let schema = try SearchSchema()
        let (triggers, bulk, loaded) = (try schema.connect(), try schema.connect(), try schema.connect())
        let search = PostgreSQLTextSearch(Self.description)
        let (t, b, l) = (schema.name + "_triggers", schema.name + "_bulk", schema.name + "_loaded")
        try triggers.execute(sql: "CREATE SCHEMA \(t); CREATE SCHEMA \(b); CREATE SCHEMA \(l)")
        defer { try? triggers.execute(sql: "DROP SCHEMA \(t) CASCADE; DROP SCHEMA \(b) CASCADE; DROP SCHEMA \(l) CASCADE") }
        try triggers.execute(sql: "SET search_path = \(t), public; \(Self.postgreSQLTable) \(search.installSQL)")
        try bulk.execute(sql: "SET search_path = \(b), public; \(Self.postgreSQLTable)")
        try loaded.execute(sql: "SET search_path = \(l), public; \(Self.postgreSQLTable) \(search.installSQL)")
        var random = SplitMix64(seed: Self.seed)
        let rows: [[DatabaseValue]] = (1...200).map { id in
            let (title, director) = (RandomTexts.text(&random), RandomTexts.text(maxPieces: 2, &random))
            return [.integer(Int64(id)), .text(title), .text(TextFolding.fold(title)), .text(director), .text(TextFolding.fold(director)),
                    .integer(1990 + Int64(id % 4)), .text(Self.kinds[id % 3])]
        }
        let columns = ["id", "title", "title_folded", "director", "director_folded", "year", "kind"]
        try triggers.copy(into: "films", columns: columns, rows: rows)
        try bulk.copy(into: "films", columns: columns, rows: rows)
        try bulk.execute(sql: search.installSQL)
        var next = rows.makeIterator()
        // What runs on the connection while the substring counts' second pass reads the texts back
        // from its temporary file (a bulk load builds the indexes there) sees every row.
        var seenMeanwhile: DatabaseValue?
        _ = try loaded.inTransaction {
            try search.load({ next.next() }, columns: columns, loaded) {
                try loaded.execute(sql: "CREATE INDEX films_by_year ON films (year)")
                seenMeanwhile = try loaded.scalar(sql: "SELECT count(*) FROM films")
            }
        }
        #expect(seenMeanwhile == .integer(Int64(rows.count)))
        let changes = """
            UPDATE films SET title_folded = 'デジタル', kind = 'drama' WHERE id % 7 = 0;
            UPDATE films SET director_folded = title_folded || ' ' || director_folded WHERE id % 11 = 0;
            DELETE FROM films WHERE id % 5 = 0;
            """
        let counts = "SELECT gram, scope, count FROM films_gram_counts WHERE count > 0 ORDER BY 1, 2"
        let substrings = "SELECT substring, scope, count FROM films_substring_counts ORDER BY 1, 2"
        try bulk.inTransaction { try search.refreshSubstringCounts(bulk) }
        #expect(try loaded.fetchAll(sql: counts) == bulk.fetchAll(sql: counts))
        #expect(try loaded.fetchAll(sql: substrings) == bulk.fetchAll(sql: substrings))
        #expect(try search.check(loaded) == [])
        for db in [triggers, bulk, loaded] { try db.execute(sql: changes) }
        #expect(try triggers.fetchAll(sql: counts).count > 100)
        #expect(try triggers.fetchAll(sql: counts) == bulk.fetchAll(sql: counts))
        #expect(try triggers.fetchAll(sql: counts) == loaded.fetchAll(sql: counts))
        #expect(try loaded.fetchAll(sql: substrings).count > 0)
        for db in [triggers, bulk, loaded] { #expect(try search.check(db) == []) }
        try bulk.execute(sql: """
            UPDATE films_gram_counts SET count = count + 1 WHERE gram = 'a'; DROP INDEX films_search_grams_index;
            DROP TRIGGER films_gram_counts_keep_rows ON films;
            """)
        #expect(try search.check(bulk).count == 3)
    }

    /// The check names each missing trigger by what it keeps (the substring counts' as well as the
    /// grams'), and `uninstallSQL` drops every trigger `installSQL` made.
    @Test func checkNamesMissingTriggersAndUninstallDropsThem() throws {
        let schema = try SearchSchema()
        let search = PostgreSQLTextSearch(Self.description)
        let pg = try schema.connect(creating: Self.postgreSQLTable, installing: search)
        let triggers = "SELECT tgname::text FROM pg_trigger WHERE tgrelid = 'films'::regclass AND NOT tgisinternal ORDER BY 1"
        #expect(try pg.fetchAll(sql: triggers).count == 6)
        #expect(try search.check(pg) == [])
        try pg.execute(sql: "DROP TRIGGER films_substring_counts_keep_texts ON films")
        #expect(try search.check(pg) == ["the triggers that keep films_substring_counts are missing"])
        try pg.execute(sql: "DROP TRIGGER films_gram_counts_keep_rows ON films")
        #expect(try search.check(pg) == [
            "the triggers that keep films_gram_counts are missing",
            "the triggers that keep films_substring_counts are missing",
        ])
        try pg.execute(sql: search.uninstallSQL)
        #expect(try pg.fetchAll(sql: triggers) == [])
    }

    /// Rows one statement adds to a table that has rows, or deletes, change each count they share
    /// once, by their number, not once a row: a count changed once a row left a version per row
    /// that each later row's lookup walked past until the transaction ended (W1b on PostgreSQL).
    /// The counts stay those of the rows.
    @Test func oneStatementChangesEachGramCountOnce() throws {
        let schema = try SearchSchema()
        let search = PostgreSQLTextSearch(Self.description)
        let pg = try schema.connect(creating: Self.postgreSQLTable, installing: search)
        let columns = ["id", "title", "title_folded", "director", "director_folded", "year", "kind"]
        let film = { (id: Int) -> [DatabaseValue] in
            [.integer(Int64(id)), .text("Ran"), .text("ran"), .text("Kurosawa"), .text("kurosawa"), .integer(1985), .text("drama")]
        }
        try pg.copy(into: "films", columns: columns, rows: [film(1)])
        // The grams of the texts, by their definition: each substring of 1 or 2 characters.
        let grams = Set(["ran", "kurosawa"].flatMap { text in
            let scalars = Array(text)
            return scalars.indices.flatMap { i in [String(scalars[i])] + (i + 1 < scalars.count ? [String(scalars[i...i + 1])] : []) }
        })
        // The rows of the gram counts a statement inserted or updated: the server's counts of this
        // session's changes not yet reported, before and after it.
        func countChanges(_ statement: () throws -> Void) throws -> Int64 {
            let changes = "SELECT n_tup_ins + n_tup_upd FROM pg_stat_xact_user_tables WHERE relid = 'films_gram_counts'::regclass"
            return try pg.inTransaction {
                guard case .integer(let before) = try pg.scalar(sql: changes) else { return -1 }
                try statement()
                guard case .integer(let after) = try pg.scalar(sql: changes) else { return -1 }
                return after - before
            }
        }
        let added = try countChanges { _ = try pg.copy(into: "films", columns: columns, rows: (2...51).map(film)) }
        #expect(added == Int64(grams.count))
        #expect(try search.check(pg) == [])
        let deleted = try countChanges { try pg.execute(sql: "DELETE FROM films WHERE id > 1") }
        #expect(deleted == Int64(grams.count))
        #expect(try search.check(pg) == [])
    }

    /// By the definition of a text's grams (its substrings of 1 or 2 characters, Unicode scalars):
    /// the grams function's keys are grams of the text, and hold each of its pairs that lacks the
    /// separator; the gram counts (kept by the trigger) hold a row's grams. On random texts and on
    /// edge cases, separators among them.
    @Test func gramsAreEverySubstringOfOneOrTwoCharacters() throws {
        let schema = try SearchSchema()
        let pg = try schema.connect(creating: Self.postgreSQLTable, installing: PostgreSQLTextSearch(Self.description))
        var random = SplitMix64(seed: Self.seed)
        let texts = (0..<200).map { _ in RandomTexts.text(&random) } + [
            "", "a", "ab", "abc", "a\u{2}b", "\u{2}\u{2}", "東京タワー", "\u{10FFFF}\u{1F600}", "\u{1}", "a\u{1}", "\u{1}ab\u{1}\u{1}cd",
            "ab\u{1}cde\u{1}",
        ]
        for (first, second) in zip(texts, texts.reversed()) {
            // By their scalars: Swift compares texts by canonical equivalence.
            var grams: Set<[UInt32]> = []
            var pairs: Set<[UInt32]> = []
            for text in [first, second] {
                let scalars = text.unicodeScalars.map(\.value)
                for start in scalars.indices {
                    grams.insert([scalars[start]])
                    guard start + 1 < scalars.count else { continue }
                    let pair = Array(scalars[start...(start + 1)])
                    grams.insert(pair)
                    if !pair.contains(1) { pairs.insert(pair) }
                }
            }
            let context = "\(String(reflecting: first)), \(String(reflecting: second))"
            let keys = try pg.fetchRows(
                sql: "SELECT unnest(films_search_grams(CAST(? AS text)) || films_search_grams(CAST(? AS text)))",
                values: [.text(first), .text(second)]
            ).map { row -> [UInt32] in if case .text(let key) = row[0] { key.unicodeScalars.map(\.value) } else { [0] } }
            #expect(Set(keys).subtracting([[]]).isSubset(of: grams), "\(context)")
            #expect(pairs.isSubset(of: Set(keys)), "\(context)")
            try pg.execute(
                sql: "INSERT INTO films VALUES (1, '', ?, '', ?, 1990, 'drama')", values: [.text(first), .text(second)])
            let counted = try pg.fetchRows(sql: "SELECT gram FROM films_gram_counts WHERE count > 0", values: [])
                .map { row -> [UInt32] in if case .text(let gram) = row[0] { gram.unicodeScalars.map(\.value) } else { [0] } }
            try pg.execute(sql: "DELETE FROM films")
            #expect(Set(counted) == grams, "\(context)")
        }
    }

    /// A bulk load's gram counter (`GramTally`, its keys read back by `gram(_:)`) against the
    /// definition: each gram of a row (a substring of 1 or 2 Unicode scalars of one of its texts,
    /// none across two texts) counted once per row that holds it. On random rows and on edge cases:
    /// a gram repeated in a text and in two texts of a row, NULL and empty texts, the largest scalars.
    @Test func gramTallyCountsEachGramOncePerRow() {
        var random = SplitMix64(seed: Self.seed)
        let extras: [[String?]] = [
            ["aaa", "aa", nil], ["ab", "ab", "ba"], ["", nil, "a"], ["\u{10FFFF}\u{1F600}\u{10FFFF}", "東京タワー", "x"], [nil, nil, nil],
        ]
        let rows = extras + (0..<300).map { round in
            (0..<3).map { place -> String? in round % 5 == place ? nil : RandomTexts.text(&random) }
        }
        var tally = GramTally()
        var expected: [[UInt32]: Int] = [:]
        let scalars = RowScalars()
        for texts in rows {
            scalars.load(texts)
            tally.add(scalars)
            var grams: Set<[UInt32]> = []
            for case let text? in texts {
                let values = text.unicodeScalars.map(\.value)
                for start in values.indices {
                    grams.insert([values[start]])
                    if start + 1 < values.count { grams.insert([values[start], values[start + 1]]) }
                }
            }
            for gram in grams { expected[gram, default: 0] += 1 }
        }
        let counted = tally.counts.map { (PostgreSQLTextSearch.gram($0.key).unicodeScalars.map(\.value), $0.count) }
        #expect(Dictionary(counted, uniquingKeysWith: +) == expected)
        #expect(counted.count == expected.count, "each gram under one key")
    }

    /// Terms of 1-2 characters, alone and together, find exactly the films whose texts hold them
    /// (the reference), through the grams index and every page strategy, in texts that hold the
    /// grams function's separator (a term that holds it, a control character, matches nothing).
    @Test func shortTermsWithSeparatorsAreExact() throws {
        let schema = try SearchSchema()
        let search = PostgreSQLTextSearch(Self.description)
        let pg = try schema.connect(creating: Self.postgreSQLTable, installing: search)
        let alphabet = ["a", "b", "\u{1}", "東", " "]
        var random = SplitMix64(seed: Self.seed)
        var films: [Int64: Film] = [:]
        for id in Int64(1)...60 {
            let text = { (count: Int) in (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined() }
            let film = Film(title: text(1 + Int(random.next() % 5)), director: text(Int(random.next() % 3)), year: 1990, kind: Self.kinds[Int(id % 3)])
            try pg.execute(
                sql: "INSERT INTO films VALUES (?, ?, ?, ?, ?, 1990, ?)",
                values: [.integer(id), .text(film.title), .text(film.title), .text(film.director), .text(film.director), .text(film.kind)])
            films[id] = film
        }
        let singles = alphabet.filter { $0 != " " }
        let terms = singles + singles.flatMap { first in singles.map { first + $0 } }
        let queries = terms + terms.indices.filter { $0 % 3 == 0 }.map { terms[$0] + " " + terms[($0 * 7) % terms.count] } + ["\u{1}ab"]
        let order = Self.orders[0].0
        for text in queries {
            let query = SearchQuery(text)
            // Every text is folded already: a term is in a text when its scalars are.
            let holds = { (text: String, term: String) in
                let (scalars, needle) = (Array(text.unicodeScalars), Array(term.unicodeScalars))
                return scalars.count >= needle.count && (0...(scalars.count - needle.count)).contains { Array(scalars[$0..<($0 + needle.count)]) == needle }
            }
            let expected = films.filter { _, film in
                query.terms.allSatisfy { $0.canMatchText && (holds(film.title, $0.folded) || holds(film.director, $0.folded)) }
            }
                .sorted { a, b in
                    let (x, y) = ([Array(a.value.kind.utf8), Array(a.value.title.utf8)], [Array(b.value.kind.utf8), Array(b.value.title.utf8)])
                    if x != y { return x.lexicographicallyPrecedes(y) { $0.lexicographicallyPrecedes($1) } }
                    return a.key < b.key
                }.map(\.key)
            let found = try search.matchIDs(query, pg).sorted()
            #expect(found == expected.sorted(), "\(String(reflecting: text)) \(query.terms.map(\.folded)) \(found) \(expected.sorted())")
            for (strategy, page) in try Self.pagesByStrategy(search, query, order: order, limit: 5, pg) {
                #expect(page.records == Array(expected.prefix(5)) && page.totalCount == expected.count, "\(String(reflecting: text)) \(strategy)")
            }
        }
    }

    /// The first `limit` ids of `query`'s page in `order`, and its total, read by the planner's choice
    /// and by each forced strategy (``strategies``), each named.
    static func pagesByStrategy(
        _ search: PostgreSQLTextSearch, _ query: SearchQuery, order: SearchOrder, limit: Int, _ pg: PostgreSQLConnection
    ) throws -> [(strategy: String, page: SearchPage<Int64>)] {
        let decode = { (row: [DatabaseValue]) -> Int64 in if case .integer(let id) = row[0] { id } else { -1 } }
        return try strategies.map { strategy in
            let page = try pg.inTransaction(writing: false) {
                try strategy.map {
                    try search.page(query, order: order, limit: limit, selection: "films.id", forcing: $0, pg, decode: decode)
                } ?? search.page(query, order: order, limit: limit, selection: "films.id", pg, decode: decode)
            }
            return (strategy.map { "\($0)" } ?? "planned", page)
        }
    }

    /// A schema of its own with the films' table, the search installed and ``plannedFilms(_:)`` in it.
    static func planned() throws -> (SearchSchema, PostgreSQLTextSearch, PostgreSQLConnection, [Int64: Film]) {
        let schema = try SearchSchema()
        let search = PostgreSQLTextSearch(Self.description)
        let pg = try schema.connect(creating: Self.postgreSQLTable, installing: search)
        return (schema, search, pg, try plannedFilms(pg))
    }

    /// Films whose texts are folded already (ASCII), for the plan's tests: `e` in 51 of 60, `a` in 57,
    /// `xl` (and `x`) in 6, `xle` in 4; each inserted with the search installed (the triggers count them).
    static func plannedFilms(_ pg: PostgreSQLConnection) throws -> [Int64: Film] {
        var films: [Int64: Film] = [:]
        for id in Int64(1)...60 {
            let title = (id % 10 == 0 ? "xl" : "ab") + (id % 6 == 0 ? "" : "e") + (id % 4 == 0 ? "a" : "")
            let film = Film(title: title, director: id % 7 == 0 ? "ed" : "no", year: 1990, kind: Self.kinds[Int(id % 3)])
            try pg.execute(
                sql: "INSERT INTO films VALUES (?, ?, ?, ?, ?, 1990, ?)",
                values: [.integer(id), .text(film.title), .text(film.title), .text(film.director), .text(film.director), .text(film.kind)])
            films[id] = film
        }
        return films
    }

    /// The ids of `films` (texts folded already) whose texts hold every term of `query`, in list order.
    static func plainReference(_ films: [Int64: Film], _ query: SearchQuery) -> [Int64] {
        films.filter { _, film in query.terms.allSatisfy { film.title.contains($0.folded) || film.director.contains($0.folded) } }
            .sorted { a, b in
                let (x, y) = ([Array(a.value.kind.utf8), Array(a.value.title.utf8)], [Array(b.value.kind.utf8), Array(b.value.title.utf8)])
                if x != y { return x.lexicographicallyPrecedes(y) { $0.lexicographicallyPrecedes($1) } }
                return a.key < b.key
            }.map(\.key)
    }

    /// A one-character term in more than `frequentCharacterRatio` times the rows of a rarer term is
    /// checked with `strpos` on the rows the other terms' keys find, not looked up through every gram
    /// that holds it: the plan the executor estimates from the gram counts takes that branch (its
    /// condition looks up only the other characters in the gram counts), and the page, total and
    /// ids equal the definition whichever strategy reads the page. `e a` (neither frequent) is the
    /// control.
    @Test func aFrequentCharacterBesideARarerTermIsCheckedOnTheRows() throws {
        let (schema, search, pg, films) = try Self.planned()
        defer { withExtendedLifetime(schema) {} }
        let order = Self.orders[0].0
        let cases: [(text: String, frequent: Set<String>, characterLookups: Int)] = [
            ("xl e", ["e"], 0), ("x e", ["e"], 1), ("e x", ["e"], 1), ("xle a", ["a"], 0), ("e a", [], 2),
        ]
        for (text, frequent, characterLookups) in cases {
            let query = SearchQuery(text)
            let expected = Self.plainReference(films, query)
            #expect(!expected.isEmpty, "\(text)")
            let plan = try pg.inTransaction(writing: false) {
                try search.estimated(PostgreSQLSearchPlan(query, search, scope: nil), query, costs: .standard, pg)
            }
            #expect(plan.frequentCharacters == frequent, "\(text)")
            let condition = plan.condition(alias: "films")
            #expect(condition.sql.components(separatedBy: "strpos(gram").count - 1 == characterLookups, "\(text): \(condition.sql)")
            let found = try pg.fetchRows(sql: "SELECT id FROM films WHERE \(condition.sql)", values: condition.arguments.values)
                .map { row -> Int64 in if case .integer(let id) = row[0] { id } else { -1 } }
            #expect(found.sorted() == expected.sorted(), "\(text)")
            #expect(try search.matchIDs(query, pg).sorted() == expected.sorted(), "\(text)")
            for (strategy, page) in try Self.pagesByStrategy(search, query, order: order, limit: 3, pg) {
                #expect(page.records == Array(expected.prefix(3)) && page.totalCount == expected.count, "\(text) \(strategy)")
            }
        }
    }

    /// Rows found through the grams index or a number column (a numeric term joined) are found by
    /// a bitmap scan whose own condition is what the indexes find: a frequent character is checked
    /// beside the other terms, not inside that `OR`, where PostgreSQL evaluated the whole `OR` again
    /// on each row, the grams' expression with it. The total is the definition's.
    @Test func candidatesCheckAFrequentCharacterOutsideTheIndexedOr() throws {
        let (schema, search, pg, films) = try Self.planned()
        defer { withExtendedLifetime(schema) {} }
        let query = SearchQuery("xl 1990 e")
        let (plan, explained) = try pg.inTransaction(writing: false) {
            try pg.execute(sql: "SET LOCAL enable_seqscan = off", values: [])
            let plan = try search.estimated(PostgreSQLSearchPlan(query, search, scope: nil), query, costs: .standard, pg)
            let condition = plan.condition(alias: "films")
            let explained = try pg.fetchRows(
                sql: "EXPLAIN SELECT count(*) FROM films WHERE \(condition.sql)", values: condition.arguments.values
            ).map { row in if case .text(let line) = row[0] { line } else { "" } }
            return (plan, explained)
        }
        #expect(plan.frequentCharacters == ["e"] && plan.checksCandidates && !plan.joinedNumbers.isEmpty)
        #expect(explained.contains { $0.contains("BitmapOr") }, "\(explained)")
        let filters = explained.filter { $0.contains("Filter: ") }
        #expect(!filters.isEmpty && !filters.contains { $0.contains("regexp_replace") || $0.contains(search.gramsFunction) }, "\(filters)")
        let expected = films.values.filter { $0.title.contains("xl") && ($0.title.contains("e") || $0.director.contains("e")) }.count
        #expect(try pg.inTransaction(writing: false) { try search.count(query, pg) } == expected)
    }

    /// Dense matches expected in list order are walked in the statement that counts them: the page
    /// and total equal the definition's, whether the walk holds the page, finds part of it (its
    /// total then plans the rest) or finds none (counted alone), over costs that make the walk's
    /// budget short or long, at several limits and offsets. One match sorts first (`aa xl e`), the
    /// others last (`ドラマ`), so that a short walk finds part of a page of two or more. The
    /// statements each page ran (``StatementLog``) show that each of the three happened: the walk's
    /// statement (its count's subquery `AS counted`), then nothing, another read of the page, or a
    /// count of the matches alone and then the page.
    @Test func aWalkThatCountsGivesTheDefinitionsPage() throws {
        let schema = try SearchSchema()
        let search = PostgreSQLTextSearch(Self.description)
        let pg = try schema.connect(creating: Self.postgreSQLTable, installing: search)
        var films: [Int64: Film] = [:]
        for id in Int64(1)...60 {
            let (title, kind) = id > 50 ? ("xl e", "ドラマ") : id % 3 == 0 ? ("xl", "comedy") : id == 7 ? ("xle", "drama")
                : id == 1 ? ("aa xl e", "comedy") : ("ab e", "comedy")
            films[id] = Film(title: title, director: "no", year: 1990, kind: kind)
            try pg.execute(
                sql: "INSERT INTO films VALUES (?, ?, ?, 'no', 'no', 1990, ?)", values: [.integer(id), .text(title), .text(title), .text(kind)])
        }
        try pg.execute(sql: "ANALYZE films")
        let query = SearchQuery("xl e")
        let expected = Self.plainReference(films, query)
        #expect(expected.count == 12)
        let decode = { (row: [DatabaseValue]) -> Int64 in if case .integer(let id) = row[0] { id } else { -1 } }
        var outcomes: Set<String> = []
        for entriesPerRowRead in [1, 2, 5, 30, 1_000] {
            let costs = SearchCosts(denseRows: 1, commonRows: 100_000, onePassRows: 0, entriesPerRowRead: entriesPerRowRead, fewRows: 1_000)
            for (limit, offset) in [(1, 0), (3, 0), (2, 1), (5, 8), (20, 0), (3, 11), (0, 0)] {
                let log = StatementLog(pg)
                let page = try pg.inTransaction(writing: false) {
                    try search.page(query, order: Self.orders[0].0, limit: limit, offset: offset, selection: "films.id", costs: costs, log, decode: decode)
                }
                #expect(page.records == Array(expected.dropFirst(offset).prefix(limit)), "\(entriesPerRowRead) \(limit) \(offset)")
                #expect(page.totalCount == expected.count, "\(entriesPerRowRead) \(limit) \(offset)")
                let statements = log.statements.map(\.sql)
                guard let walk = statements.firstIndex(where: { $0.contains(" AS counted ") }) else { continue }
                let after = statements[(walk + 1)...]
                outcomes.insert(after.isEmpty ? "held the page" : after.first!.contains("SELECT count(*) FROM films WHERE") ? "found none" : "found part")
            }
        }
        #expect(outcomes == ["held the page", "found part", "found none"])
    }

    /// The gram counts decide which rows hold a single character: with the gram `xl` deleted from
    /// them, a search of `x` (in no other key of these films) misses every film; `check(_:)` reports
    /// one wrong count per scope that holds `xl`, and `gramCountsFillSQL` counts every row again,
    /// after which the search finds them all.
    @Test func aLostGramCountMissesRowsUntilCountedAgain() throws {
        let (schema, search, pg, films) = try Self.planned()
        defer { withExtendedLifetime(schema) {} }
        let query = SearchQuery("x")
        let expected = Self.plainReference(films, query)
        #expect(try search.check(pg) == [] && search.matchIDs(query, pg).sorted() == expected.sorted())
        try pg.execute(sql: "DELETE FROM films_gram_counts WHERE gram = 'xl'")
        #expect(try search.matchIDs(query, pg) == [])
        let scopes = Set(films.values.filter { $0.title.contains("xl") }.map(\.kind)).count
        #expect(try search.check(pg) == ["\(scopes) gram counts of films_gram_counts differ from the rows'"])
        try pg.inTransaction(writing: true) { try pg.execute(sql: search.gramCountsFillSQL) }
        #expect(try search.check(pg) == [] && search.matchIDs(query, pg).sorted() == expected.sorted())
    }

    /// The executor's facts for a page without a kept count carry the matches expected (the rarest
    /// term's rows times the other's share of the table's rows, by the definition, from the films'
    /// counts) when the page is in list order over the whole table, and none in another order,
    /// within a scope or with a numeric term.
    @Test func expectedMatchesReachThePlannersFacts() throws {
        let (schema, search, pg, films) = try Self.planned()
        defer { withExtendedLifetime(schema) {} }
        try pg.execute(sql: "ANALYZE films")
        let (listOrder, yearOrder) = (Self.orders[0].0, Self.orders[1].0)
        func facts(_ text: String, scope: DatabaseValue?, order: SearchOrder) throws -> PageFacts {
            let query = SearchQuery(text)
            return try pg.inTransaction(writing: false) {
                let plan = try search.estimated(PostgreSQLSearchPlan(query, search, scope: scope), query, costs: .standard, pg)
                let rows = try pg.fetchRows(sql: "SELECT " + search.rowEstimate.sql, values: search.rowEstimate.arguments.values)[0][0]
                return search.pageFacts(plan, total: nil, order: order, limit: 50, offset: 0, rows: PostgreSQLTextSearch.rows(rows))
            }
        }
        let rows = { (term: String) in films.values.filter { $0.title.contains(term) || $0.director.contains(term) }.count }
        for (text, terms) in [("xl e", ["xl", "e"]), ("x a", ["x", "a"]), ("e a", ["e", "a"])] {
            let counts = terms.map(rows).sorted()
            let listed = try facts(text, scope: nil, order: listOrder)
            #expect(listed.scopeRows == films.count, "\(text)")
            #expect(listed.driverRows == counts[0], "\(text)")
            #expect(listed.expectedMatches == Int(Double(counts[0]) * min(1, Double(counts[1]) / Double(films.count))), "\(text)")
        }
        #expect(try facts("xl e", scope: nil, order: yearOrder).expectedMatches == nil)
        #expect(try facts("xl e", scope: .text("drama"), order: listOrder).expectedMatches == nil)
        #expect(try facts("1990 e", scope: nil, order: listOrder).expectedMatches == nil)
    }

    /// The ids of the films that match, in the order's: by the definition, on texts folded by the reference.
    static func reference(_ films: [Int64: Film], _ query: SearchQuery, scope: String?, byYear: Bool) -> [Int64] {
        let matching = films.filter { _, film in
            (scope == nil || film.kind == scope) && query.terms.allSatisfy { term in
                let needle = Array(FoldingReference.folded(term.text).utf8)
                return [film.title, film.director].contains { FilmSearchTests.contains(Array(FoldingReference.folded($0).utf8), needle) }
                    || term.number == Double(film.year)
            }
        }
        return matching.sorted { a, b in
            if byYear { return (a.value.year, a.key) < (b.value.year, b.key) }
            let (x, y) = (Array(a.value.kind.utf8), Array(b.value.kind.utf8))
            if x != y { return x.lexicographicallyPrecedes(y) }
            let (s, t) = (Array(FoldingReference.folded(a.value.title).utf8), Array(FoldingReference.folded(b.value.title).utf8))
            if s != t { return s.lexicographicallyPrecedes(t) }
            return a.key < b.key
        }.map(\.key)
    }
}

/// A connection that runs each statement on a real one and keeps its SQL and values, in order: which
/// statements a search ran, to tell which of its paths it took and how PostgreSQL plans them.
final class StatementLog: SQLConnection {
    let connection: PostgreSQLConnection
    private(set) var statements: [(sql: String, values: [DatabaseValue])] = []

    init(_ connection: PostgreSQLConnection) { self.connection = connection }

    var dialect: SQLDialect { connection.dialect }
    var isInsideTransaction: Bool { connection.isInsideTransaction }

    func execute(sql: String, values: [DatabaseValue]) throws {
        statements.append((sql, values))
        try connection.execute(sql: sql, values: values)
    }

    func forEachRow(sql: String, values: [DatabaseValue], _ body: (_ columnNames: [String], _ row: [DatabaseValue]) throws -> Void) throws {
        statements.append((sql, values))
        try connection.forEachRow(sql: sql, values: values, body)
    }

    func inTransaction<T>(writing: Bool, _ body: () throws -> T) throws -> T { try connection.inTransaction(writing: writing, body) }
    func tableNames() throws -> [String] { try connection.tableNames() }
    func columnNames(ofTable table: String) throws -> [String] { try connection.columnNames(ofTable: table) }

    func copy(into table: String, columns: [String], nextRow: () throws -> [DatabaseValue]?) throws -> Int {
        try connection.copy(into: table, columns: columns, nextRow: nextRow)
    }
}

/// A schema of its own on the shared test primary, dropped at the end; `pg_trgm` is created once in
/// `public`, which the schema's connections also search.
final class SearchSchema: Sendable {
    let servers: PostgreSQLServers
    let name: String
    let url: String

    private static let extensionCreated: Result<Void, any Error> = Result {
        let admin = try PostgreSQLConnection(url: try PostgreSQLServers.shared().primary)
        try admin.execute(sql: "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
    }

    init() throws {
        try Self.extensionCreated.get()
        servers = try PostgreSQLServers.shared()
        name = "search_" + UUID().uuidString.lowercased().replacing("-", with: "")
        try PostgreSQLConnection(url: servers.primary).execute(sql: "CREATE SCHEMA \(name)")
        url = servers.primary + (servers.primary.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(name)%2Cpublic"
    }

    deinit {
        try? PostgreSQLConnection(url: servers.primary).execute(sql: "DROP SCHEMA \(name) CASCADE")
    }

    func connect() throws -> PostgreSQLConnection { try PostgreSQLConnection(url: url) }

    /// A connection to the schema, with `table` created there and `search` installed on it.
    func connect(creating table: String, installing search: PostgreSQLTextSearch) throws -> PostgreSQLConnection {
        let pg = try connect()
        try pg.execute(sql: table)
        try pg.execute(sql: search.installSQL)
        return pg
    }
}
