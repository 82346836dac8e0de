import SQLiteStore

extension DatabaseValue {
    /// Compares two values as SQLite's `ORDER BY` does with the BINARY collation: NULL first, then
    /// numbers (integers and reals compared by value), then text (by UTF-8 bytes), then blobs (by bytes).
    ///
    /// - Returns: a negative number, zero or a positive number.
    static func sqliteOrder(_ lhs: DatabaseValue, _ rhs: DatabaseValue) -> Int {
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.integer(let a), .integer(let b)): return a < b ? -1 : a == b ? 0 : 1
        case (.integer(let a), .real(let b)): return compare(Double(a), b)
        case (.real(let a), .integer(let b)): return compare(a, Double(b))
        case (.real(let a), .real(let b)): return compare(a, b)
        case (.integer, _), (.real, _): return -1
        case (_, .integer), (_, .real): return 1
        case (.text(let a), .text(let b)): return compareBytes(a.utf8, b.utf8)
        case (.text, .blob): return -1
        case (.blob, .text): return 1
        case (.blob(let a), .blob(let b)): return compareBytes(a, b)
        }
    }

    private static func compare(_ a: Double, _ b: Double) -> Int { a < b ? -1 : a == b ? 0 : 1 }

    private static func compareBytes<C: Collection<UInt8>>(_ a: C, _ b: C) -> Int {
        var left = a.makeIterator()
        var right = b.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x < y ? -1 : 1
            default: continue
            }
        }
    }
}
