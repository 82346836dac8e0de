import SQLiteStore

/// The 64-bit hashes of the unique keys an ``EntityCopyImporter`` has streamed into a bulk load, in
/// an open-addressing table: 8-16 bytes a key, where a `Set` of the keys would hold each key's text
/// too (the load's memory stays bounded; W1b on PostgreSQL). A key whose hash is there is almost
/// always a key streamed already; the importer holds such a record back and stores it by its key
/// after the load, exactly either way.
///
/// A text key is hashed by its UTF-8 bytes, as PostgreSQL compares a unique text column (`COLLATE
/// "C"` or not, it compares equal only texts of equal bytes).
struct KeyHashes {
    /// The hashes, 0 for an empty slot; a power of two of them.
    private var slots = [UInt64](repeating: 0, count: 1 << 10)
    private var count = 0

    /// Adds the hash of `key`: false when it was there already.
    mutating func insert(_ key: DatabaseValue) -> Bool {
        if count * 4 >= slots.count * 3 { grow() }
        let inserted = Self.insert(Self.hash(key), into: &slots)
        if inserted { count += 1 }
        return inserted
    }

    private mutating func grow() {
        var larger = [UInt64](repeating: 0, count: slots.count * 2)
        for hash in slots where hash != 0 { _ = Self.insert(hash, into: &larger) }
        slots = larger
    }

    private static func insert(_ hash: UInt64, into slots: inout [UInt64]) -> Bool {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            if slots[slot] == hash { return false }
            slot = (slot + 1) & mask
        }
        slots[slot] = hash
        return true
    }

    /// The key's hash, never 0.
    private static func hash(_ key: DatabaseValue) -> UInt64 {
        var hasher = Hasher()
        if case .text(var text) = key {
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        } else {
            key.hash(into: &hasher)
        }
        let hash = UInt64(bitPattern: Int64(hasher.finalize()))
        return hash == 0 ? 1 : hash
    }
}
