/// 64-bit FNV-1a of a text's UTF-8 bytes: a short, stable fingerprint of SQL (a migration's checksum,
/// a trigger's name), not a cryptographic hash.
///
/// Related: <http://www.isthe.com/chongo/tech/comp/fnv/>
package enum FNV1a {
    /// The hash as 16 lowercase hexadecimal digits.
    ///
    /// The bytes are read from the text's contiguous UTF-8 (`withUTF8`), not through its `utf8` view,
    /// which costs many times more per byte, and every process that opens a database checksums the
    /// migration files (W7).
    package static func hexadecimal(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var text = text
        text.withUTF8 { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
