import SQLiteStore

/// The texts an ``EntityImporter`` stored as unique keys into a table that was empty when it began,
/// as a Bloom filter: a key it says is absent is in no stored row, so that most new records are told
/// apart from the stored ones without a lookup in the key's index. Past the page cache, that index is
/// read at random places, one lookup per record (Ingest, Benchmarks/README.md).
///
/// It answers only for text keys, compared by their bytes (the BINARY collation of a declared
/// column); once a key of another type is stored, it no longer answers (``mayHold(_:)`` is always
/// true), as SQLite may store that key as a text. A class: its bits are changed in place.
final class InsertedKeys {
    /// The filter's bits: 2^24 (2 MiB). A million keys leave about one chance in 1,000 that a new key
    /// is taken for a stored one (which then costs the lookup); ten million, most.
    private static let bitCount = 1 << 24
    /// The bits set per key, all in one block of ``blockBits``.
    private static let hashCount = 7
    /// The bits of a block: 512, a cache line, so that a key's bits cost one miss rather than one
    /// each (the filter is larger than a core's cache), for a few more false answers than bits
    /// spread over the whole filter.
    private static let blockBits = 512
    /// The bits, made at the first key.
    private var words: [UInt64] = []
    private var answers = true

    /// Whether a stored row may have `key`: false only when none has.
    func mayHold(_ key: DatabaseValue) -> Bool {
        guard answers, case .text(let text) = key else { return true }
        guard !words.isEmpty else { return false }
        var found = true
        forEachBit(of: text) { found = found && words[$0 >> 6] & (1 << UInt64($0 & 63)) != 0 }
        return found
    }

    /// Records that a stored row has `key`.
    func insert(_ key: DatabaseValue) {
        guard answers else { return }
        guard case .text(let text) = key else {
            answers = false
            words = []
            return
        }
        if words.isEmpty { words = [UInt64](repeating: 0, count: Self.bitCount / 64) }
        forEachBit(of: text) { words[$0 >> 6] |= 1 << UInt64($0 & 63) }
    }

    /// The key's bits: a block chosen by its hash, and bits in it by two more hashes combined
    /// (double hashing), all from one hash of its bytes.
    private func forEachBit(of text: String, _ body: (Int) -> Void) {
        var hasher = Hasher()
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        let hash = UInt64(bitPattern: Int64(hasher.finalize()))
        let mask = UInt64(Self.blockBits - 1)
        let (first, second) = (hash & mask, hash >> 9 & mask | 1)
        let block = Int((hash >> 18) % UInt64(Self.bitCount / Self.blockBits)) * Self.blockBits
        for index in 0..<UInt64(Self.hashCount) {
            body(block + Int((first &+ index &* second) & mask))
        }
    }
}
