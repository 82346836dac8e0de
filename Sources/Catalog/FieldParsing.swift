import SQLiteStore

/// Reads the numbers users type for a record's fields, strictly: plain decimal digits only.
///
/// Swift's `Int(_:)` and `Double(_:)` accept more than a person means by a number (`+2007`, `0x10`,
/// `1e3`, `nan`, `inf`), so user text goes through these instead. Range checks stay with the records'
/// validation (``Product/validated()``, ``Phone/validated()``).
///
/// ```swift
/// let price = try FieldParsing.amount("599.00", field: "price", decimals: 2)   // 599.0
/// let year = try FieldParsing.year("2007")                         // 2007
/// ```
public enum FieldParsing {
    /// The longest text read as a number; longer text is rejected before it is parsed.
    static let maximumLength = 24

    /// A year: one to nine ASCII digits, with surrounding spaces allowed.
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)`` for anything else.
    public static func year(_ text: String, field: String = "year") throws -> Int {
        let digits = text.trimming(.spaces)
        guard (1...9).contains(digits.utf8.count), digits.utf8.allSatisfy(isDigit), let year = Int(digits) else {
            throw CatalogError.invalidValue(field: field, value: text, reason: "expected a year such as 2007")
        }
        return year
    }

    /// An amount such as `599` or `599.00`: ASCII digits with an optional fraction after one dot, of at
    /// most `decimals` digits once trailing zeros are dropped (`599.990` is `599.99`). `example` is
    /// the well-formed value the error shows (a price by default; `6.1` for a screen).
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)`` for anything else, including signs,
    ///   exponents, hexadecimal, `nan`, `inf`, and more decimals than are kept, shown and searched.
    public static func amount(_ text: String, field: String, decimals: Int, example: String = "599.00") throws -> Double {
        let number = text.trimming(.spaces)
        let parts = number.utf8.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard number.utf8.count <= maximumLength,
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) }),
              let value = Double(number), value.isFinite else {
            throw CatalogError.invalidValue(field: field, value: text, reason: "expected a number such as \(example)")
        }
        let fraction = parts.count == 2 ? parts[1].reversed().drop { $0 == UInt8(ascii: "0") }.count : 0
        guard fraction <= decimals else {
            throw CatalogError.invalidValue(field: field, value: text, reason: Validation.decimalsReason(decimals))
        }
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
