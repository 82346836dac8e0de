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
