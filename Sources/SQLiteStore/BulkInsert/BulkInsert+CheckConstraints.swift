extension BulkInsert {
    /// The `CHECK` constraints of a `CREATE TABLE` statement, in its order (the order SQLite tests
    /// them in): each one's expression, and its name as SQLite's error gives it: the `CONSTRAINT`
    /// name before it in its column or table constraint, else the expression's text.
    ///
    /// The statement is read as SQLite's tokenizer reads it: strings, quoted names and comments are
    /// skipped whole, and `CHECK`, a reserved word, is a constraint wherever else it stands.
    ///
    /// SQLite verifies the constraints itself only at a higher cost, and without naming the row and
    /// constraint that fail: checking them as the rows go in, or `PRAGMA quick_check` of the table
    /// after them, costs `seed --count` more CPU than one query of these expressions (Ingest,
    /// Benchmarks/README.md, "What changed": the `CHECK` verification).
    static func checkConstraints(of createTable: String) -> [(name: String, expression: String)] {
        let sql = Array(createTable.utf8)
        let tokens = Self.tokens(sql)
        func text(_ range: Range<Int>) -> String { String(decoding: sql[range], as: UTF8.self) }
        func isWord(_ token: Range<Int>, _ word: String) -> Bool { text(token).uppercased() == word }
        var checks: [(name: String, expression: String)] = []
        var depth = 0
        // SQLite keeps a `CONSTRAINT` name for the constraints after it until the next comma.
        var constraintName: String?
        var next = 0
        while next < tokens.count {
            let token = tokens[next]
            next += 1
            switch sql[token.lowerBound] {
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth -= 1
            case UInt8(ascii: ","): if depth == 1 { constraintName = nil }
            default:
                if isWord(token, "CONSTRAINT"), next < tokens.count {
                    constraintName = Self.dequoted(text(tokens[next]))
                    next += 1
                } else if isWord(token, "CHECK"), next < tokens.count, sql[tokens[next].lowerBound] == UInt8(ascii: "(") {
                    let open = tokens[next].upperBound
                    var nesting = 0
                    repeat {
                        if sql[tokens[next].lowerBound] == UInt8(ascii: "(") { nesting += 1 }
                        if sql[tokens[next].lowerBound] == UInt8(ascii: ")") { nesting -= 1 }
                        next += 1
                    } while nesting > 0 && next < tokens.count
                    var expression = open..<tokens[next - 1].lowerBound
                    while let first = expression.first, Self.isSpace(sql[first]) { expression = (first + 1)..<expression.upperBound }
                    while let last = expression.last, Self.isSpace(sql[last]) { expression = expression.lowerBound..<last }
                    checks.append((name: constraintName ?? text(expression), expression: text(expression)))
                }
            }
        }
        return checks
    }

    /// The byte ranges of the tokens of `sql`, without spaces and comments: a word, a string or
    /// quoted name (whole), or one other byte.
    private static func tokens(_ sql: [UInt8]) -> [Range<Int>] {
        var tokens: [Range<Int>] = []
        var index = 0
        func at(_ offset: Int) -> UInt8? { index + offset < sql.count ? sql[index + offset] : nil }
        while index < sql.count {
            let byte = sql[index]
            let start = index
            if isSpace(byte) {
                index += 1
                continue
            } else if byte == UInt8(ascii: "-"), at(1) == UInt8(ascii: "-") {
                while index < sql.count, sql[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            } else if byte == UInt8(ascii: "/"), at(1) == UInt8(ascii: "*") {
                index += 2
                while index < sql.count, !(sql[index] == UInt8(ascii: "*") && at(1) == UInt8(ascii: "/")) { index += 1 }
                index = min(index + 2, sql.count)
                continue
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "`") {
                // A doubled quote inside stands for one.
                index += 1
                while index < sql.count {
                    if sql[index] == byte {
                        if at(1) == byte { index += 2; continue }
                        index += 1
                        break
                    }
                    index += 1
                }
            } else if byte == UInt8(ascii: "[") {
                while index < sql.count, sql[index] != UInt8(ascii: "]") { index += 1 }
                index = min(index + 1, sql.count)
            } else if isWordByte(byte) {
                while index < sql.count, isWordByte(sql[index]) { index += 1 }
            } else {
                index += 1
            }
            tokens.append(start..<index)
        }
        return tokens
    }

    /// Whether SQLite reads `byte` as a space (`sqlite3Isspace`).
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// Whether `byte` belongs to a word (a name, a keyword or a number), as SQLite's tokenizer reads one.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// A name without its quotes, as SQLite reads it (`sqlite3Dequote`).
    private static func dequoted(_ name: String) -> String {
        guard let first = name.first, "'\"`[".contains(first), name.count >= 2 else { return name }
        let inner = String(name.dropFirst().dropLast())
        return first == "[" ? inner : inner.replacing(String(repeating: first, count: 2), with: String(first))
    }
}
