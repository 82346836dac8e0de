/// The one grammar numbers are read with, in every format: JSON's
/// (`-? digits (. digits)? ([eE] [+-]? digits)?`), except that leading zeros are allowed in CSV and TSV
/// cells.
enum NumberSyntax {
    /// Whether `text` (UTF-8) is a number in that grammar.
    static func isJSONNumber(_ text: some Sequence<UInt8>, allowingLeadingZeros: Bool = false) -> Bool {
        var bytes = text.makeIterator()
        var byte = bytes.next()
        func digits() -> Int {
            var count = 0
            while let digit = byte, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) {
                count += 1
                byte = bytes.next()
            }
            return count
        }
        if byte == UInt8(ascii: "-") { byte = bytes.next() }
        let leadsWithZero = byte == UInt8(ascii: "0")
        let whole = digits()
        guard whole > 0, allowingLeadingZeros || !leadsWithZero || whole == 1 else { return false }
        if byte == UInt8(ascii: ".") {
            byte = bytes.next()
            guard digits() > 0 else { return false }
        }
        if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            byte = bytes.next()
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { byte = bytes.next() }
            guard digits() > 0 else { return false }
        }
        return byte == nil
    }

    /// Whether `text` is a whole number: `-?` digits.
    static func isInteger(_ text: String.UTF8View) -> Bool {
        let digits = text.first == UInt8(ascii: "-") ? text.dropFirst() : text[...]
        return !digits.isEmpty && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
