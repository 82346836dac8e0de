#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers written with a fixed count of decimals, as C's `printf("%.*f")` writes them (and
/// Foundation's `String(format: "%.2f", …)` did, which this replaces so that the package needs no
/// Foundation): the value's exact binary fraction rounded to `decimals` digits, half to even, with
/// `.` as the decimal point whatever the process's locale.
///
/// For the package's modules (record fields, the catalog's shown numbers, progress lines), not for
/// embedders.
package enum FixedPoint {
    /// `value` with `decimals` digits after the point (none and no point when `decimals` is 0).
    ///
    /// ```swift
    /// FixedPoint.text(6.1, decimals: 2)     // "6.10"
    /// FixedPoint.text(2.675, decimals: 2)   // "2.67": the Double is 2.67499999999999982236431605997495353221893310546875
    /// FixedPoint.text(-0.001, decimals: 2)  // "-0.00"
    /// ```
    package static func text(_ value: Double, decimals: Int) -> String {
        precondition(decimals >= 0, "a count of decimals is not negative")
        // printf reads the decimal point from the thread's locale: this thread uses "C" meanwhile.
        let previous = uselocale(cLocale)
        defer { uselocale(previous) }
        let arguments: [any CVarArg] = [Int32(decimals), value]
        let length = Int(withVaList(arguments) { vsnprintf(nil, 0, format, $0) })
        var bytes = [CChar](repeating: 0, count: length + 1)
        _ = withVaList(arguments) { vsnprintf(&bytes, bytes.count, format, $0) }
        return String(decoding: bytes[..<length].lazy.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static let format = "%.*f"

    /// The "C" locale's number formatting, made once and never changed (`nonisolated(unsafe)`: a
    /// `locale_t` is a C pointer, which Swift cannot know is safe to share).
    nonisolated(unsafe) private static let cLocale = newlocale(LC_NUMERIC_MASK, "C", nil)
}
