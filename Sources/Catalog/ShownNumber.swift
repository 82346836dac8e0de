import RecordFormats

/// How the catalog shows its numbers in tables and detail views.
public enum ShownNumber {
    /// `1299.5` → `1,299.50`: an amount of money, grouped, with cents.
    public static func amount(_ value: Double) -> String {
        let cents = Int64((value * 100).rounded())
        var whole = String(cents / 100)
        var grouped = ""
        while whole.count > 3 {
            grouped = "," + String(whole.suffix(3)) + grouped  // `String + Substring` is generic: a run-time conformance lookup
            whole = String(whole.dropLast(3))
        }
        let fraction = cents % 100
        return whole + grouped + "." + (fraction < 10 ? "0" : "") + String(fraction)
    }

    /// `6.1` → `6.1"`: a screen diagonal, with up to ``Phone/screenDecimals`` decimals.
    public static func inches(_ inches: Double) -> String {
        var text = FixedPoint.text(inches, decimals: Phone.screenDecimals)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "\""
    }
}
