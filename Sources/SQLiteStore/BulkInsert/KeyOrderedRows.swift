import CSQLite
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
/// have given the rows inserted one by one as they came.
final class KeyOrderedRows {
    /// The INSERT whose first parameter is the rowid and the others the row's values.
    let sql: String
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

    init(sql: String, valueCount: Int, keyIndex: Int) {
        precondition(keyIndex >= 0 && keyIndex < valueCount, "the key is one of the values")
        self.sql = sql
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
    /// order), then empties the queue.
    ///
    /// - Throws: ``DatabaseError``; the queue is emptied then too.
    func insertAll(_ db: Database, inKeyOrder: Bool) throws {
        defer { removeAll() }
        guard !rows.isEmpty else { return }
        let queuedOrder = 0..<Int32(rows.count)
        // Through pointers: the sort compares each row's key about log2(count) times.
        let order = !inKeyOrder ? Array(queuedOrder) : bytes.withUnsafeBytes { raw in
            rows.withUnsafeBufferPointer { rows in
                queuedOrder.sorted { Self.compare(raw, Int(rows[Int($0)].key), Int(rows[Int($1)].key)) < 0 }
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
            for row in order {
                sqlite3_reset(handle)
                try check(sqlite3_bind_int64(handle, 1, firstRowID + Int64(row)), statement, db)
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
