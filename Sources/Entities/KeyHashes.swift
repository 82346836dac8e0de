import SQLiteStore

/// The 32-bit hashes of the unique keys an ``EntityCopyImporter`` has streamed into a bulk load:
/// 4-8 bytes a key, where a `Set` of the keys would hold each key's text too, and 64-bit hashes
/// twice that (the load's peak memory; W1b on PostgreSQL). A key whose hash is there is a key
/// streamed already but for about n²/2³³ of n keys (some 116 of a million); the importer holds such
/// a record back and stores it by its key after the load: the same rows either way, a new row's id
/// coming after the streamed rows' ids.
///
/// A text key is hashed by its UTF-8 bytes, as PostgreSQL compares a unique text column (`COLLATE
/// "C"` or not, it compares equal only texts of equal bytes).
struct KeyHashes {
    private var hashes = Set<UInt32>()

    /// Adds the hash of `key`: false when it was there already.
    mutating func insert(_ key: DatabaseValue) -> Bool {
        hashes.insert(Self.hash(key)).inserted
    }

    private static func hash(_ key: DatabaseValue) -> UInt32 {
        var hasher = Hasher()
        if case .text(var text) = key {
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        } else {
            key.hash(into: &hasher)
        }
        return UInt32(truncatingIfNeeded: hasher.finalize())
    }
}
