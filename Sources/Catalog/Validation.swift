#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RecordFormats
import SQLiteStore

/// Checks on values users type, shared by every way records come in (CLI, seed files, library calls).
enum Validation {
    /// The longest name accepted, in characters.
    static let maximumNameLength = 200
    /// The years accepted for introduction or release.
    static let years = 1900...2100
    /// The highest price or size accepted.
    static let maximumAmount = 1_000_000_000.0

    /// A name with its surrounding white space and newlines removed (`WhiteSpace.spacesAndNewlines`).
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)`` for an empty or overlong name, or
    ///   one holding control characters or U+FFFD (the trace of text that was not UTF-8).
    static func name(_ text: String, field: String = "name") throws -> String {
        let trimmed = text.trimming(.spacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw CatalogError.invalidValue(field: field, value: text, reason: "must not be empty")
        }
        // A character is at least one UTF-8 byte: the count of characters is needed only above that.
        guard trimmed.utf8.count <= maximumNameLength || trimmed.count <= maximumNameLength else {
            throw CatalogError.invalidValue(
                field: field, value: text, reason: "longer than \(maximumNameLength) characters")
        }
        guard !trimmed.unicodeScalars.contains(where: isControl) else {
            throw CatalogError.invalidValue(field: field, value: text, reason: "contains control characters")
        }
        // U+FFFD is what decoding puts in place of bytes that are not UTF-8 (an argument or a file in
        // another encoding): the text the user meant is already lost.
        guard !trimmed.unicodeScalars.contains("\u{FFFD}") else {
            throw CatalogError.invalidValue(field: field, value: text, reason: "is not valid UTF-8 text (it holds U+FFFD)")
        }
        return trimmed
    }

    /// Whether a scalar is a control character (general category Cc): U+0000 to U+001F and U+007F
    /// to U+009F, a range Unicode's stability policy keeps fixed.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// A year within ``years``.
    static func year(_ year: Int, field: String) throws -> Int {
        guard years.contains(year) else {
            throw CatalogError.invalidValue(
                field: field, value: String(year), reason: "expected a year from \(years.lowerBound) to \(years.upperBound)")
        }
        return year
    }

    /// A finite, non-negative amount no larger than ``maximumAmount``, with at most `decimals` decimals:
    /// what is shown (with that many decimals) and searched is then exactly what is stored.
    static func amount(_ value: Double, field: String, decimals: Int) throws -> Double {
        guard value.isFinite, value >= 0, value <= maximumAmount else {
            throw CatalogError.invalidValue(
                field: field, value: FieldValue.decimal(value).text, reason: "expected a number from 0 to \(Int(maximumAmount))")
        }
        // A decimal such as 599.99 is not exact in binary: scaled, it lands within a few ulps of a whole
        // number, while one more decimal (599.999) lands a tenth or more away.
        let scaled = value * pow(10, Double(decimals))
        guard abs(scaled - scaled.rounded()) <= 4 * scaled.ulp else {
            throw CatalogError.invalidValue(field: field, value: FieldValue.decimal(value).text, reason: decimalsReason(decimals))
        }
        return value
    }

    /// Why an amount with too many decimals is refused.
    static func decimalsReason(_ decimals: Int) -> String {
        "at most \(decimals) decimal\(decimals == 1 ? "" : "s") (what is shown, stored and searched), and from 0 to \(Int(maximumAmount))"
    }
}
