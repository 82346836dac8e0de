/// A small, fast, seeded random number generator (Steele, Lea and Flood's SplitMix64), so that every
/// run generates the same catalogs and queries.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let word = vocabulary.randomElement(using: &random)
/// ```
///
/// Not the library's `Catalog.SplitMix64`: `BenchmarkSupport` is shared by the raw-C and GRDB
/// contenders, and importing `Catalog` here would put the store's CSQLite module map of `<sqlite3.h>`
/// beside GRDB's in their modules (see Package.swift). The algorithm and constants are the same.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence depends only on `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A 64-bit FNV-1a hash, stable across runs (unlike `Hasher`): fingerprints of results and schemas.
public struct Fingerprint: Sendable, Equatable, CustomStringConvertible {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    /// A fingerprint read back from its ``value`` (a child process's report).
    public init(rawValue: UInt64) {
        value = rawValue
    }

    public mutating func combine(_ integer: Int64) {
        withUnsafeBytes(of: integer.littleEndian) { for byte in $0 { combine(byte: byte) } }
    }

    public mutating func combine(_ text: String) {
        for byte in text.utf8 { combine(byte: byte) }
        combine(byte: 0xFF)  // not a UTF-8 byte: separates "ab","c" from "a","bc"
    }

    private mutating func combine(byte: UInt8) {
        value ^= UInt64(byte)
        value &*= 0x0000_0100_0000_01b3
    }

    public var description: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
