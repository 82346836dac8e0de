import CSQLite
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rows waiting to be inserted into one table by one statement, kept in one byte buffer, then inserted
/// in the order of a key: the queue behind ``BulkInsert/insertInKeyOrder(_:keyAt:sql:)``.
///
/// Rows arrive in any order of their key (names read from a file). Inserted as they come, each goes to
/// a random place of the key's unique index, and of every index that begins with a column ordered like
/// it; once those indexes outgrow the page cache, each insert reads pages back and writes others out.
/// Inserted in key order, the same rows go through each such index once, from its first page to its last.
///
/// A row's rowid is given when it is queued: one above the previous row's, the rowids SQLite would
/// have given the rows inserted one by one as they came. A queue that looks its keys up in the table
/// (``storedKeySQL``) gives them when it inserts the rows: one above the previous row's among those
/// whose key the table did not hold.
final class KeyOrderedRows {
    /// The INSERT whose first parameter is the rowid and the others the row's values.
    let sql: String
    /// The query that finds a queued key in the table when the rows are inserted (its one parameter
    /// the key, its first column the rowid of the row that holds it), and what a row whose key it
    /// finds does instead of being inserted; nil when the caller checked each key as it was queued.
    let storedKeySQL: String?
    let whenStored: ((_ values: [DatabaseValue], _ rowID: Int64) throws -> Void)?
    /// The number of values of each row, and the index of its key among them.
    let valueCount: Int
    let keyIndex: Int
    /// The rowid of the first row.
    private(set) var firstRowID: Int64 = 0
    /// The rows' values, each encoded by ``append(_:to:)``, one row after the other.
    private var bytes: [UInt8] = []
    /// Each row's values and key, as offsets in ``bytes`` (below 2 GiB: SQLite's values are at most
    /// 1 GB, and the queue is inserted once it holds ``BulkInsert/keyOrderedBytes``), in the order
    /// rows were queued.
    private var rows: [(start: Int32, key: Int32)] = []
    /// A row by the hash of its key, for telling whether a key is queued.
    private var rowsByKeyHash: [Int: Int32] = [:]

    init(
        sql: String, valueCount: Int, keyIndex: Int, storedKeySQL: String? = nil,
        whenStored: ((_ values: [DatabaseValue], _ rowID: Int64) throws -> Void)? = nil
    ) {
        precondition(keyIndex >= 0 && keyIndex < valueCount, "the key is one of the values")
        self.sql = sql
        self.storedKeySQL = storedKeySQL
        self.whenStored = whenStored
        self.valueCount = valueCount
        self.keyIndex = keyIndex
    }

    /// The number of rows queued.
    var count: Int { rows.count }
    /// The bytes the queued rows take.
    var byteCount: Int { bytes.count }

    /// The rowid the next row gets.
    var nextRowID: Int64 { firstRowID + Int64(rows.count) }

    /// Starts a new batch whose first row gets `rowID`; the queue must be empty.
    func start(at rowID: Int64) {
        precondition(rows.isEmpty, "a batch starts empty")
        firstRowID = rowID
    }

    /// Queues a row with the next rowid; false, with nothing queued, when a row with another key of
    /// the same hash is queued (the caller inserts the queue first).
    func append(_ values: [DatabaseValue]) -> Bool {
        precondition(values.count == valueCount, "every row has \(valueCount) values")
        let start = bytes.count
        var key = start
        for (index, value) in values.enumerated() {
            if index == keyIndex { key = bytes.count }
            Self.append(value, to: &bytes)
        }
        let hash = keyHash(at: key)
        if rowsByKeyHash[hash] != nil {
            bytes.removeSubrange(start...)
            return false
        }
        rowsByKeyHash[hash] = Int32(rows.count)
        rows.append((start: Int32(start), key: Int32(key)))
        return true
    }

    /// Whether a queued row's key is `key` (the same type and bytes).
    func contains(key: DatabaseValue) -> Bool {
        let start = bytes.count
        Self.append(key, to: &bytes)
        defer { bytes.removeSubrange(start...) }
        guard let row = rowsByKeyHash[keyHash(at: start)] else { return false }
        return bytes.withUnsafeBytes { Self.compare($0, Int(rows[Int(row)].key), start) } == 0
    }

    /// Inserts the queued rows through `db` in the order of their keys, or in the order they were
    /// queued (`inKeyOrder` false: rows that go through insert triggers, which log them in that
    /// order), then empties the queue. With ``storedKeySQL``, each key is looked up first, in the
    /// same order, and the rows whose key the table holds are not inserted.
    ///
    /// - Returns: the rows whose key the table holds, in the order they were queued, with the rowid
    ///   of the row that holds it (for ``whenStored``).
    /// - Throws: ``DatabaseError``; the queue is emptied then too.
    func insertAll(_ db: Database, inKeyOrder: Bool) throws -> [(values: [DatabaseValue], rowID: Int64)] {
        defer { removeAll() }
        guard !rows.isEmpty else { return [] }
        let queuedOrder = 0..<Int32(rows.count)
        // Through pointers: the sort compares each row's key about log2(count) times.
        let order = !inKeyOrder ? Array(queuedOrder) : bytes.withUnsafeBytes { raw in
            rows.withUnsafeBufferPointer { rows in
                queuedOrder.sorted { Self.compare(raw, Int(rows[Int($0)].key), Int(rows[Int($1)].key)) < 0 }
            }
        }
        let stored = try storedKeyRowIDs(order, db)
        // Each row's rowid: one above the previous row's among those inserted, in the order they came.
        var rowIDs: [Int64]?
        if !stored.isEmpty {
            var next = firstRowID
            rowIDs = (0..<rows.count).map { row in
                defer { if stored[Int32(row)] == nil { next += 1 } }
                return next
            }
        }
        let statement = try db.cachedStatement(sql: sql)
        let handle = statement.sqliteStatement
        let parameters = Int(sqlite3_bind_parameter_count(handle))
        guard parameters == valueCount + 1 else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "expected the rowid and \(valueCount) values, got \(parameters) parameters", sql: sql)
        }
        try bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            for row in order where stored[row] == nil {
                sqlite3_reset(handle)
                try check(sqlite3_bind_int64(handle, 1, rowIDs?[Int(row)] ?? firstRowID + Int64(row)), statement, db)
                var offset = Int(rows[Int(row)].start)
                for parameter in stride(from: 2, through: parameters, by: 1) {
                    try check(Self.bind(base, &offset, to: handle, at: Int32(parameter)), statement, db)
                }
                let code = sqlite3_step(handle)
                guard code == SQLITE_DONE else {
                    sqlite3_reset(handle)
                    sqlite3_clear_bindings(handle)
                    throw statement.stepError(code, [])
                }
            }
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        return stored.sorted { $0.key < $1.key }.map { row, rowID in (values: values(of: Int(row)), rowID: rowID) }
    }

    /// The rowid of the row of the table that holds each queued row's key, by the queued row, when
    /// the queue looks its keys up (``storedKeySQL``): looked up in `order`, the order the rows go in,
    /// so that the lookups read the key's index once from its first page to its last, as the inserts
    /// that follow do.
    private func storedKeyRowIDs(_ order: [Int32], _ db: Database) throws -> [Int32: Int64] {
        guard let storedKeySQL else { return [:] }
        let statement = try db.cachedStatement(sql: storedKeySQL)
        let handle = statement.sqliteStatement
        var stored: [Int32: Int64] = [:]
        try bytes.withUnsafeBufferPointer { buffer in
            defer {
                sqlite3_reset(handle)
                sqlite3_clear_bindings(handle)
            }
            for row in order {
                sqlite3_reset(handle)
                var offset = Int(rows[Int(row)].key)
                try check(Self.bind(buffer.baseAddress!, &offset, to: handle, at: 1), statement, db)
                let code = sqlite3_step(handle)
                if code == SQLITE_ROW {
                    stored[row] = sqlite3_column_int64(handle, 0)
                } else if code != SQLITE_DONE {
                    throw statement.stepError(code, [])
                }
            }
        }
        return stored
    }

    /// The values of queued row `row`, decoded.
    private func values(of row: Int) -> [DatabaseValue] {
        bytes.withUnsafeBytes { raw in
            var offset = Int(rows[row].start)
            return (0..<valueCount).map { _ in
                let value = Self.value(raw, at: offset)
                offset = value.payload + value.length
                let payload = UnsafeRawBufferPointer(rebasing: raw[value.payload..<value.payload + value.length])
                switch value.tag {
                case .null: return .null
                case .integer: return .integer(payload.loadUnaligned(as: Int64.self))
                case .real: return .real(payload.loadUnaligned(as: Double.self))
                case .text: return .text(String(decoding: payload, as: UTF8.self))
                case .blob: return .blob(Data(payload))
                }
            }
        }
    }

    private func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
        rowsByKeyHash.removeAll(keepingCapacity: true)
    }

    private func check(_ code: Int32, _ statement: Statement, _ db: Database) throws {
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
        }
    }

    // MARK: - Encoding

    private enum Tag: UInt8 {
        case null, integer, real, text, blob
    }

    /// Appends a value: its ``Tag``, then 8 bytes for an integer or a real, or the length (4 bytes) and
    /// the bytes of a text or a blob.
    private static func append(_ value: DatabaseValue, to bytes: inout [UInt8]) {
        switch value {
        case .null:
            bytes.append(Tag.null.rawValue)
        case .integer(let integer):
            bytes.append(Tag.integer.rawValue)
            withUnsafeBytes(of: integer) { bytes.append(contentsOf: $0) }
        case .real(let real):
            bytes.append(Tag.real.rawValue)
            withUnsafeBytes(of: real) { bytes.append(contentsOf: $0) }
        case .text(var text):
            bytes.append(Tag.text.rawValue)
            text.withUTF8 { utf8 in
                withUnsafeBytes(of: UInt32(utf8.count)) { bytes.append(contentsOf: $0) }
                bytes.append(contentsOf: utf8)
            }
        case .blob(let data):
            bytes.append(Tag.blob.rawValue)
            withUnsafeBytes(of: UInt32(data.count)) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: data)
        }
    }

    /// The value encoded at `offset` of `raw` (``bytes``): its tag, and where its payload starts and
    /// how long it is.
    private static func value(_ raw: UnsafeRawBufferPointer, at offset: Int) -> (tag: Tag, payload: Int, length: Int) {
        let tag = Tag(rawValue: raw[offset])!
        switch tag {
        case .null: return (tag, offset + 1, 0)
        case .integer, .real: return (tag, offset + 1, 8)
        case .text, .blob: return (tag, offset + 5, Int(raw.loadUnaligned(fromByteOffset: offset + 1, as: UInt32.self)))
        }
    }

    private func keyHash(at offset: Int) -> Int {
        bytes.withUnsafeBytes { raw in
            let key = Self.value(raw, at: offset)
            var hasher = Hasher()
            hasher.combine(key.tag.rawValue)
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[key.payload..<key.payload + key.length]))
            return hasher.finalize()
        }
    }

    /// The order of two keys encoded in `raw` (``bytes``), as SQLite orders values with the BINARY
    /// collation: NULL, then numbers by value, then texts and then blobs by their bytes. Negative,
    /// zero or positive.
    private static func compare(_ raw: UnsafeRawBufferPointer, _ left: Int, _ right: Int) -> Int {
        let (a, b) = (value(raw, at: left), value(raw, at: right))
        switch (a.tag, b.tag) {
        case (.null, .null): return 0
        case (.integer, .integer):
            let (x, y) = (raw.loadUnaligned(fromByteOffset: a.payload, as: Int64.self), raw.loadUnaligned(fromByteOffset: b.payload, as: Int64.self))
            return x < y ? -1 : x == y ? 0 : 1
        case (.integer, .real), (.real, .integer), (.real, .real):
            let (x, y) = (number(raw, a), number(raw, b))
            return x < y ? -1 : x == y ? 0 : 1
        case (.text, .text), (.blob, .blob):
            let order = memcmp(raw.baseAddress! + a.payload, raw.baseAddress! + b.payload, min(a.length, b.length))
            return order != 0 ? Int(order) : a.length - b.length
        default:
            return rank(a.tag) - rank(b.tag)
        }
    }

    private static func number(_ raw: UnsafeRawBufferPointer, _ value: (tag: Tag, payload: Int, length: Int)) -> Double {
        value.tag == .integer
            ? Double(raw.loadUnaligned(fromByteOffset: value.payload, as: Int64.self))
            : raw.loadUnaligned(fromByteOffset: value.payload, as: Double.self)
    }

    /// SQLite's order of storage classes: NULL, numbers, text, blob.
    private static func rank(_ tag: Tag) -> Int {
        switch tag {
        case .null: 0
        case .integer, .real: 1
        case .text: 2
        case .blob: 3
        }
    }

    /// Binds the value encoded at `offset` to parameter `index`, pointing into the buffer (which stays
    /// unchanged until the statement is reset), and moves `offset` past it.
    private static func bind(_ base: UnsafePointer<UInt8>, _ offset: inout Int, to handle: SQLiteStatement, at index: Int32) -> Int32 {
        let raw = UnsafeRawPointer(base)
        let tag = Tag(rawValue: base[offset])!
        offset += 1
        switch tag {
        case .null:
            return sqlite3_bind_null(handle, index)
        case .integer:
            defer { offset += 8 }
            return sqlite3_bind_int64(handle, index, raw.loadUnaligned(fromByteOffset: offset, as: Int64.self))
        case .real:
            defer { offset += 8 }
            return sqlite3_bind_double(handle, index, raw.loadUnaligned(fromByteOffset: offset, as: Double.self))
        case .text, .blob:
            let length = Int(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let payload = raw + offset + 4
            offset += 4 + length
            if tag == .text {
                return sqlite3_bind_text(handle, index, payload.assumingMemoryBound(to: CChar.self), Int32(length), nil)
            }
            return length == 0 ? sqlite3_bind_zeroblob(handle, index, 0) : sqlite3_bind_blob(handle, index, payload, Int32(length), nil)
        }
    }
}
