import StoreCore
import Testing

/// The dialect's spellings, and that PostgreSQL orders and compares as SQLite does with them.
@Suite struct SQLDialectTests {
    @Test func placeholdersAreNumberedOutsideLiteralsIdentifiersAndComments() {
        let sql = #"SELECT '?', "a?b", x FROM t -- why?"# + "\n" + #"WHERE a = ? /* ? */ AND b IN (?, ?) AND c = 'it''s ?'"#
        #expect(SQLDialect.postgreSQL.numberingPlaceholders(sql)
            == #"SELECT '?', "a?b", x FROM t -- why?"# + "\n" + #"WHERE a = $1 /* ? */ AND b IN ($2, $3) AND c = 'it''s ?'"#)
        #expect(SQLDialect.sqlite.numberingPlaceholders(sql) == sql)
        #expect(SQLDialect.postgreSQL.numberingPlaceholders("a - b / c = ?") == "a - b / c = $1")
    }

    /// Text in byte order, NULL lowest, and `IS`'s NULL-equality, checked on each engine against the
    /// definition (bytes compared, NULL first ascending).
    @Test(arguments: Engine.allCases)
    func ordersAndComparesAsSQLiteDoes(engine: Engine) throws {
        try engine.withFreshDatabase { db in
            let dialect = db.dialect
            try db.execute(sql: "CREATE TABLE t(s \(dialect.columnType(.text)))", values: [])
            let values: [String?] = ["b", "B", "a", "É", "é", "e", nil, "Z", "aa", ""]
            for value in values { try db.execute(sql: "INSERT INTO t VALUES (?)", values: [value.map { .text($0) } ?? .null]) }
            let byBytes = values.compactMap { $0 }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            #expect(try db.texts("SELECT s FROM t ORDER BY \(dialect.orderTerm("s", descending: false))") == ["NULL"] + byBytes)
            #expect(try db.texts("SELECT s FROM t ORDER BY \(dialect.orderTerm("s", descending: true))") == byBytes.reversed() + ["NULL"])
            let nulls = try db.fetchRows(sql: "SELECT count(*) FROM t WHERE \(dialect.isNotDistinct("s", "?"))", values: [.null])
            #expect(nulls == [[.integer(1)]])
            let trueRows = try db.fetchRows(sql: "SELECT count(*) FROM t WHERE \(dialect.boolean(true))", values: [])
            #expect(trueRows == [[.integer(Int64(values.count))]])
        }
    }
}
