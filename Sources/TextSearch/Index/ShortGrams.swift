/// The distinct 1- and 2-scalar grams of a row's texts, computed in Swift exactly as the SQL of
/// ``SearchDescription/triggersSQL`` computes them, for a bulk build (``SearchDescription/build(forRowsAfter:_:)``).
///
/// The SQL counts with `length()` and cuts with `substr()`, which both end a TEXT at its first NUL
/// character, so a text is read up to its first U+0000 (``RowScalars``). A gram is held as its scalars' values
/// (`second` 0 for a 1-scalar gram: no gram holds U+0000), whose order is the order of their UTF-8
/// bytes, the BINARY order SQLite sorts tokens in.
struct ShortGrams {
    /// A 1- or 2-scalar gram: its first scalar's value and its second's, or 0.
    struct Gram: Hashable, Comparable {
        let first: UInt32
        let second: UInt32

        static func < (lhs: Gram, rhs: Gram) -> Bool { lhs.key < rhs.key }

        /// The gram's order as one number.
        var key: UInt64 { UInt64(first) << 32 | UInt64(second) }

        /// Whether the gram holds a space (U+0020), which the grams index leaves out.
        var holdsSpace: Bool { first == Self.space || second == Self.space }

        /// The gram as text.
        var text: String {
            var text = String(Unicode.Scalar(first)!)
            if second != 0 { text.unicodeScalars.append(Unicode.Scalar(second)!) }
            return text
        }

        static let space: UInt32 = 0x20
    }

    /// The distinct grams of the texts, ascending.
    private(set) var grams: [Gram] = []

    /// The grams of a row's texts: sorted as numbers (``Gram/key``), then the repeats left out (the
    /// `import` rows of Ingest, Benchmarks/README.md).
    init(_ texts: RowScalars) {
        var keys: [UInt64] = []
        keys.reserveCapacity(2 * texts.values.count)
        var previous = RowScalars.textEnd
        for value in texts.values {
            if value != RowScalars.textEnd {
                keys.append(Gram(first: value, second: 0).key)
                if previous != RowScalars.textEnd { keys.append(Gram(first: previous, second: value).key) }
            }
            previous = value
        }
        keys.sort()
        grams.reserveCapacity(keys.count)
        for index in keys.indices where index == 0 || keys[index - 1] != keys[index] {
            grams.append(Gram(first: UInt32(keys[index] >> 32), second: UInt32(truncatingIfNeeded: keys[index])))
        }
    }

    /// The row's document in the grams index (``SearchDescription/gramsDocument(of:)``): the `hex()`
    /// of each gram's UTF-8 bytes, for the grams without a space, then `x` and `scopeHex` (the `hex()`
    /// of the scope value, nil when NULL), space-separated. Hex keeps the bytes' order, and `x` sorts
    /// after every hex digit, so the tokens are in ascending order.
    func document(scopeHex: String?) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(grams.count * 5 + (scopeHex?.utf8.count ?? 0) + 2)
        for gram in grams where !gram.holdsSpace {
            if !bytes.isEmpty { bytes.append(Self.separator) }
            Self.appendHex(of: gram.first, to: &bytes)
            if gram.second != 0 { Self.appendHex(of: gram.second, to: &bytes) }
        }
        if let scopeHex {
            if !bytes.isEmpty { bytes.append(Self.separator) }
            bytes.append(Self.scopeMark)
            bytes.append(contentsOf: scopeHex.utf8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let separator = UInt8(ascii: " ")
    private static let scopeMark = UInt8(ascii: "x")
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Appends the upper-case hex of the scalar's UTF-8 bytes, as SQLite's `hex()` writes them.
    private static func appendHex(of value: UInt32, to bytes: inout [UInt8]) {
        for unit in UTF8.encode(Unicode.Scalar(value)!)! {
            bytes.append(hexDigits[Int(unit >> 4)])
            bytes.append(hexDigits[Int(unit & 0x0F)])
        }
    }
}
