import SQLiteStore

/// The 64-bit hashes of the unique keys an ``EntityCopyImporter`` has streamed into a bulk load:
/// 8-16 bytes a key, where a `Set` of the keys would hold each key's text too (the load's memory
/// stays bounded; W1b on PostgreSQL). A key whose hash is there is almost always a key streamed
/// already; the importer holds such a record back and stores it by its key after the load, exactly
/// either way.
///
/// A text key is hashed by its UTF-8 bytes, as PostgreSQL compares a unique text column (`COLLATE
/// "C"` or not, it compares equal only texts of equal bytes).
struct KeyHashes {
    private var hashes = Set<UInt64>()

    /// Adds the hash of `key`: false when it was there already.
    mutating func insert(_ key: DatabaseValue) -> Bool {
        hashes.insert(Self.hash(key)).inserted
    }

    private static func hash(_ key: DatabaseValue) -> UInt64 {
        var hasher = Hasher()
        if case .text(var text) = key {
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        } else {
            key.hash(into: &hasher)
        }
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }
}
