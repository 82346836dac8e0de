/// An order-independent fingerprint of a set of (text, id) pairs: their number and the wrapping sum
/// of each pair's 64-bit FNV-1a hash. Equal sets give equal digests; different ones collide with a
/// chance of about 2⁻⁶⁴. How ``SearchDescription/indexProblems(foldedFrom:_:)`` compares the grams
/// index with what the texts give without holding either in memory.
struct SearchIndexDigest: Equatable {
    private(set) var count = 0
    private var sum: UInt64 = 0

    mutating func add(_ text: String, _ id: Int64) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        var value = UInt64(bitPattern: id)
        for _ in 0..<8 {
            hash ^= value & 0xff
            hash &*= 0x0000_0100_0000_01b3
            value >>= 8
        }
        count += 1
        sum &+= hash
    }
}
