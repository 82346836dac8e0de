import CSQLite

/// An SQLite result code, primary or extended.
///
/// A struct rather than an enum because extended codes are open-ended. Match a primary code against
/// an extended one with `~=`, as in `catch DatabaseError.SQLITE_CONSTRAINT`:
///
/// ```swift
/// do { try db.execute(sql: "INSERT INTO t(id) VALUES (1)") }
/// catch let error as DatabaseError where ResultCode.SQLITE_CONSTRAINT ~= error.resultCode { … }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/rescode.html>
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code, as SQLite returns it.
    public let rawValue: Int32

    /// Creates a result code from its numeric value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code: the low eight bits of an extended code.
    public var primaryResultCode: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// Whether this is an extended code (it carries more than the primary code).
    public var isExtended: Bool { rawValue > 0xFF }

    /// The symbolic name, such as `SQLITE_CONSTRAINT_UNIQUE`, or the number when the code is unknown.
    public var name: String {
        Self.names[rawValue] ?? Self.names[rawValue & 0xFF].map { "\($0) (\(rawValue))" } ?? "code \(rawValue)"
    }

    /// SQLite's English description of the code, such as "constraint failed".
    public var explanation: String { String(cString: sqlite3_errstr(rawValue)) }

    public var description: String { name }

    /// True when `pattern` equals `code`, or is the primary code of the extended `code`.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.isExtended ? pattern == code : pattern == code.primaryResultCode
    }
}

extension ResultCode {
    // The primary result codes, named as in <sqlite3.h>.
    public static let SQLITE_OK = ResultCode(rawValue: 0)
    public static let SQLITE_ERROR = ResultCode(rawValue: 1)
    public static let SQLITE_INTERNAL = ResultCode(rawValue: 2)
    public static let SQLITE_PERM = ResultCode(rawValue: 3)
    public static let SQLITE_ABORT = ResultCode(rawValue: 4)
    public static let SQLITE_BUSY = ResultCode(rawValue: 5)
    public static let SQLITE_LOCKED = ResultCode(rawValue: 6)
    public static let SQLITE_NOMEM = ResultCode(rawValue: 7)
    public static let SQLITE_READONLY = ResultCode(rawValue: 8)
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: 9)
    public static let SQLITE_IOERR = ResultCode(rawValue: 10)
    public static let SQLITE_CORRUPT = ResultCode(rawValue: 11)
    public static let SQLITE_NOTFOUND = ResultCode(rawValue: 12)
    public static let SQLITE_FULL = ResultCode(rawValue: 13)
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: 14)
    public static let SQLITE_PROTOCOL = ResultCode(rawValue: 15)
    public static let SQLITE_EMPTY = ResultCode(rawValue: 16)
    public static let SQLITE_SCHEMA = ResultCode(rawValue: 17)
    public static let SQLITE_TOOBIG = ResultCode(rawValue: 18)
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: 19)
    public static let SQLITE_MISMATCH = ResultCode(rawValue: 20)
    public static let SQLITE_MISUSE = ResultCode(rawValue: 21)
    public static let SQLITE_NOLFS = ResultCode(rawValue: 22)
    public static let SQLITE_AUTH = ResultCode(rawValue: 23)
    public static let SQLITE_FORMAT = ResultCode(rawValue: 24)
    public static let SQLITE_RANGE = ResultCode(rawValue: 25)
    public static let SQLITE_NOTADB = ResultCode(rawValue: 26)
    public static let SQLITE_NOTICE = ResultCode(rawValue: 27)
    public static let SQLITE_WARNING = ResultCode(rawValue: 28)
    public static let SQLITE_ROW = ResultCode(rawValue: 100)
    public static let SQLITE_DONE = ResultCode(rawValue: 101)

    // Extended result codes the library and its users match on, named as in <sqlite3.h>.
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: 5 | (2 << 8))
    public static let SQLITE_BUSY_TIMEOUT = ResultCode(rawValue: 5 | (3 << 8))
    public static let SQLITE_IOERR_SHORT_READ = ResultCode(rawValue: 10 | (2 << 8))
    /// The `-shm` file could not be grown: "may indicate that the underlying filesystem volume is out of
    /// space" (<https://www.sqlite.org/rescode.html#ioerr_shmsize>).
    public static let SQLITE_IOERR_SHMSIZE = ResultCode(rawValue: 10 | (19 << 8))
    public static let SQLITE_CANTOPEN_ISDIR = ResultCode(rawValue: 14 | (2 << 8))
    public static let SQLITE_READONLY_DIRECTORY = ResultCode(rawValue: 8 | (6 << 8))
    public static let SQLITE_CORRUPT_VTAB = ResultCode(rawValue: 11 | (1 << 8))
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: 19 | (1 << 8))
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: 19 | (3 << 8))
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: 19 | (5 << 8))
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: 19 | (6 << 8))
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: 19 | (7 << 8))
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: 19 | (8 << 8))
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode(rawValue: 19 | (10 << 8))
    public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode(rawValue: 19 | (12 << 8))

    private static let names: [Int32: String] = [
        0: "SQLITE_OK", 1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT",
        5: "SQLITE_BUSY", 6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT",
        10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL",
        14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL", 16: "SQLITE_EMPTY", 17: "SQLITE_SCHEMA",
        18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT", 20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE",
        22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 24: "SQLITE_FORMAT", 25: "SQLITE_RANGE", 26: "SQLITE_NOTADB",
        27: "SQLITE_NOTICE", 28: "SQLITE_WARNING", 100: "SQLITE_ROW", 101: "SQLITE_DONE",
        5 | (1 << 8): "SQLITE_BUSY_RECOVERY", 5 | (2 << 8): "SQLITE_BUSY_SNAPSHOT",
        5 | (3 << 8): "SQLITE_BUSY_TIMEOUT", 6 | (1 << 8): "SQLITE_LOCKED_SHAREDCACHE",
        8 | (1 << 8): "SQLITE_READONLY_RECOVERY", 8 | (2 << 8): "SQLITE_READONLY_CANTLOCK",
        8 | (3 << 8): "SQLITE_READONLY_ROLLBACK", 8 | (4 << 8): "SQLITE_READONLY_DBMOVED",
        8 | (5 << 8): "SQLITE_READONLY_CANTINIT", 8 | (6 << 8): "SQLITE_READONLY_DIRECTORY",
        10 | (1 << 8): "SQLITE_IOERR_READ", 10 | (2 << 8): "SQLITE_IOERR_SHORT_READ",
        10 | (3 << 8): "SQLITE_IOERR_WRITE", 10 | (4 << 8): "SQLITE_IOERR_FSYNC",
        10 | (13 << 8): "SQLITE_IOERR_FSTAT", 10 | (15 << 8): "SQLITE_IOERR_LOCK",
        10 | (18 << 8): "SQLITE_IOERR_SHMOPEN", 10 | (19 << 8): "SQLITE_IOERR_SHMSIZE",
        10 | (20 << 8): "SQLITE_IOERR_SHMLOCK", 10 | (21 << 8): "SQLITE_IOERR_SHMMAP",
        11 | (1 << 8): "SQLITE_CORRUPT_VTAB", 14 | (1 << 8): "SQLITE_CANTOPEN_NOTEMPDIR",
        14 | (2 << 8): "SQLITE_CANTOPEN_ISDIR", 14 | (3 << 8): "SQLITE_CANTOPEN_FULLPATH",
        19 | (1 << 8): "SQLITE_CONSTRAINT_CHECK", 19 | (2 << 8): "SQLITE_CONSTRAINT_COMMITHOOK",
        19 | (3 << 8): "SQLITE_CONSTRAINT_FOREIGNKEY", 19 | (4 << 8): "SQLITE_CONSTRAINT_FUNCTION",
        19 | (5 << 8): "SQLITE_CONSTRAINT_NOTNULL", 19 | (6 << 8): "SQLITE_CONSTRAINT_PRIMARYKEY",
        19 | (7 << 8): "SQLITE_CONSTRAINT_TRIGGER", 19 | (8 << 8): "SQLITE_CONSTRAINT_UNIQUE",
        19 | (9 << 8): "SQLITE_CONSTRAINT_VTAB", 19 | (10 << 8): "SQLITE_CONSTRAINT_ROWID",
        19 | (12 << 8): "SQLITE_CONSTRAINT_DATATYPE",
    ]
}
