/// What differs between the SQL of the two engines, for SQL generated once for both: the store's
/// fragments are written for SQLite (`?` placeholders, `IS`, `1`/`0`) and spelled for an engine here.
///
/// ```swift
/// let dialect = SQLDialect.postgreSQL
/// dialect.numberingPlaceholders("SELECT name FROM product WHERE id = ? AND price > ?")
/// // SELECT name FROM product WHERE id = $1 AND price > $2
/// dialect.isNotDistinct("section", "?")   // section IS NOT DISTINCT FROM ?
/// dialect.orderTerm("price", descending: false)   // price COLLATE "C" … NULLS FIRST (SQLite's order)
/// ```
///
/// Each setting gives SQLite's meaning on PostgreSQL, so that a request sorts, compares and pages
/// alike on both: text in byte order (SQLite's BINARY collation), NULL lowest, booleans stored as
/// integers 0 and 1. What both spell alike needs no setting: `INSERT … ON CONFLICT (columns) DO
/// UPDATE SET column = excluded.column` (SQLite 3.24 took PostgreSQL's syntax), `RETURNING`, CTEs.
public enum SQLDialect: Sendable, Hashable {
    /// SQLite 3.40 or later.
    case sqlite
    /// PostgreSQL 15 or later (or an engine that speaks its SQL, such as Citus).
    case postgreSQL

    /// `sql` with each `?` placeholder spelled for the engine: kept for SQLite, `$1`, `$2`… in order
    /// for PostgreSQL. Question marks inside string literals, quoted identifiers and comments are
    /// left alone; every other `?` is a placeholder (write PostgreSQL's `jsonb ?` operator as
    /// `jsonb_exists`).
    public func numberingPlaceholders(_ sql: String) -> String {
        guard self == .postgreSQL, sql.utf8.contains(UInt8(ascii: "?")) else { return sql }
        var result: [UInt8] = []
        result.reserveCapacity(sql.utf8.count + 8)
        var number = 0
        var bytes = sql.utf8.makeIterator()
        var pending: UInt8? = nil
        func next() -> UInt8? {
            if let byte = pending { pending = nil; return byte }
            return bytes.next()
        }
        while let byte = next() {
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                // A literal or quoted identifier, to its closing quote (a doubled quote stays inside).
                result.append(byte)
                while let inner = next() {
                    result.append(inner)
                    if inner == byte { break }
                }
            case UInt8(ascii: "-"):
                result.append(byte)
                guard let following = next() else { break }
                if following == UInt8(ascii: "-") {
                    result.append(following)
                    while let inner = next() {
                        result.append(inner)
                        if inner == UInt8(ascii: "\n") { break }
                    }
                } else {
                    pending = following
                }
            case UInt8(ascii: "/"):
                result.append(byte)
                guard let following = next() else { break }
                if following == UInt8(ascii: "*") {
                    result.append(following)
                    var previous: UInt8 = 0
                    while let inner = next() {
                        result.append(inner)
                        if previous == UInt8(ascii: "*") && inner == UInt8(ascii: "/") { break }
                        previous = inner
                    }
                } else {
                    pending = following
                }
            case UInt8(ascii: "?"):
                number += 1
                result.append(UInt8(ascii: "$"))
                result.append(contentsOf: String(number).utf8)
            default:
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `lhs` equals `rhs`, NULL equal to NULL: SQLite's `IS`, PostgreSQL's `IS NOT DISTINCT FROM`.
    public func isNotDistinct(_ lhs: String, _ rhs: String) -> String {
        switch self {
        case .sqlite: "\(lhs) IS \(rhs)"
        case .postgreSQL: "\(lhs) IS NOT DISTINCT FROM \(rhs)"
        }
    }

    /// A `?` placeholder for `value` that gives the engine its type: `?` on SQLite, whose values carry
    /// their type; on PostgreSQL a cast to the column type of its kind (`CAST(? AS bigint)`), where an
    /// untyped parameter takes its type from the SQL around it, which may have none (two parameters
    /// as the branches of a `CASE` would be text). A NULL or a blob (bound as `bytea`) stays `?`.
    public func typedPlaceholder(for value: DatabaseValue) -> String {
        guard self == .postgreSQL else { return "?" }
        switch value {
        case .integer: return "CAST(? AS \(columnType(.integer)))"
        case .real: return "CAST(? AS \(columnType(.real)))"
        case .text: return "CAST(? AS \(columnType(.text)))"
        case .null, .blob: return "?"
        }
    }

    /// A boolean literal. Booleans are stored as integers 0 and 1 on both engines (a `boolean`
    /// column on PostgreSQL reads back as 0 or 1 too), so the literal is for conditions only.
    public func boolean(_ value: Bool) -> String {
        switch self {
        case .sqlite: value ? "1" : "0"
        case .postgreSQL: value ? "TRUE" : "FALSE"
        }
    }

    /// An ORDER BY term for `expression` in SQLite's order: text by bytes (PostgreSQL's `COLLATE
    /// "C"`; its default collation follows the locale) and NULL before every value ascending, after
    /// every value descending (PostgreSQL's default is the reverse). Give `isText` false for a
    /// number, which takes no collation.
    public func orderTerm(_ expression: String, descending: Bool, isText: Bool = true) -> String {
        switch self {
        case .sqlite:
            return descending ? "\(expression) DESC" : expression
        case .postgreSQL:
            let collated = isText ? "\(expression) COLLATE \"C\"" : expression
            return descending ? "\(collated) DESC NULLS LAST" : "\(collated) ASC NULLS FIRST"
        }
    }

    /// The column type of a 64-bit integer key the engine numbers on insert: SQLite's rowid alias,
    /// PostgreSQL's identity column.
    public var integerPrimaryKey: String {
        switch self {
        case .sqlite: "INTEGER PRIMARY KEY"
        case .postgreSQL: "bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
        }
    }

    /// A statement that makes the keys the engine numbers next follow the largest key in `table`,
    /// run after rows were added with keys of their own (an import that keeps a file's ids): nil for
    /// SQLite, whose rowid is one more than the largest already. PostgreSQL's identity sequence does
    /// not see such keys and would hand them out again; the statement moves it up to the largest key,
    /// never down (a concurrent transaction may hold keys it gave).
    public func keyCatchUp(table: String, column: String = "id") -> String? {
        switch self {
        case .sqlite:
            return nil
        case .postgreSQL:
            let sequence = "pg_get_serial_sequence('\(table)', '\(column)')"
            return """
                SELECT setval(\(sequence), max(\(column))) FROM \(table)
                HAVING max(\(column)) > coalesce(pg_sequence_last_value(\(sequence)::regclass), 0)
                """
        }
    }

    /// What ends a `SELECT` of rows that its writing transaction then changes from the values read, so
    /// that no other writer changes them in between: `FOR UPDATE` on PostgreSQL (the rows stay locked
    /// until the transaction ends); nothing on SQLite, whose writing transaction holds the database.
    public var lockingReadSuffix: String {
        switch self {
        case .sqlite: ""
        case .postgreSQL: " FOR UPDATE"
        }
    }

    /// The column types of the five kinds of `DatabaseValue`, as a table declares them.
    public func columnType(_ kind: ColumnKind) -> String {
        switch (self, kind) {
        case (.sqlite, .integer): "INTEGER"
        case (.sqlite, .real): "REAL"
        case (.sqlite, .text): "TEXT"
        case (.sqlite, .blob): "BLOB"
        case (.postgreSQL, .integer): "bigint"
        case (.postgreSQL, .real): "double precision"
        case (.postgreSQL, .text): "text"
        case (.postgreSQL, .blob): "bytea"
        }
    }

    /// A statement that, run first in a transaction, makes the transactions that run it with the same
    /// `name` take turns until they end; nil for SQLite, whose writing transactions take turns already.
    /// PostgreSQL's is a transaction-level advisory lock on a hash of `name`.
    ///
    /// Related PostgreSQL documentation: <https://www.postgresql.org/docs/15/explicit-locking.html#ADVISORY-LOCKS>
    public func transactionLock(named name: String) -> String? {
        switch self {
        case .sqlite: nil
        case .postgreSQL: "SELECT pg_advisory_xact_lock(hashtext('\(name.replacing("'", with: "''"))'))"
        }
    }

    /// An expression written for SQLite with the functions PostgreSQL names otherwise renamed there:
    /// `instr(a, b)` is `strpos(a, b)` (the same arguments and result), `char(n)` is `chr(n)`. Names
    /// inside quotes are left alone.
    public func renamingFunctions(_ expression: String) -> String {
        guard self == .postgreSQL, expression.contains("(") else { return expression }
        let renamed = ["instr": "strpos", "char": "chr"]
        var result = ""
        var word = ""
        var quote: Character?
        for character in expression {
            if let open = quote {
                result.append(character)
                if character == open { quote = nil }
                continue
            }
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
                continue
            }
            result += character == "(" ? renamed[word.lowercased()] ?? word : word
            word = ""
            result.append(character)
            if character == "'" || character == "\"" { quote = character }
        }
        return result + word
    }

    /// What a column holds.
    public enum ColumnKind: Sendable, Hashable {
        case integer, real, text, blob
    }

    /// What ends a `CREATE TABLE` after its closing parenthesis: SQLite's `STRICT` (its columns then
    /// hold their declared type only, as PostgreSQL's always do); nothing on PostgreSQL, which has
    /// neither `STRICT` nor `WITHOUT ROWID`.
    public var strictTableSuffix: String {
        switch self {
        case .sqlite: " STRICT"
        case .postgreSQL: ""
        }
    }
}
