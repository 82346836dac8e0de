/// JSON records: an array of objects (`json`) or one object per line (`jsonl`), read one object at a
/// time. Values are strings, numbers, `true`, `false` or `null`; an object or array as a value, a key
/// given twice, or anything after the array is an error.
final class JSONRowSource: RowSource {
    /// Nil: each JSON object names its own fields.
    var columnNames: [String]? { nil }
    private let input: ByteInput
    private let isArray: Bool
    private var line = 1
    private var column = 1
    private var hasStarted = false
    private var hasEnded = false
    private var bytes: [UInt8] = []
    /// The fields of the last object read: the next object's arrays are made that large at once,
    /// not grown one field at a time (the `import` rows of Ingest, Benchmarks/README.md).
    private var lastFieldCount = 0

    init(input: ByteInput, format: DataFormat) throws {
        precondition(format == .json || format == .jsonl)
        self.input = input
        isArray = format == .json
        try ByteOrderMark.skip(input)
    }

    func nextRow() throws -> CellRow? {
        guard !hasEnded else { return nil }
        try skipWhiteSpace()
        if isArray {
            if !hasStarted {
                hasStarted = true
                if try input.peek() == nil { throw failure("the file is empty: expected a JSON array of objects ([ … ])") }
                guard try consume() == UInt8(ascii: "[") else { throw failure("expected a JSON array of objects ([ … ])") }
                try skipWhiteSpace()
                if try input.peek() == UInt8(ascii: "]") {
                    _ = try consume()
                    return try end()
                }
            } else {
                switch try consume() {
                case UInt8(ascii: ","): try skipWhiteSpace()
                case UInt8(ascii: "]"): return try end()
                case nil: throw failure("the array is not closed (a missing ])")
                default: throw failure("expected , or ] after a record")
                }
            }
        } else if try input.peek() == nil {
            hasEnded = true
            return nil
        } else {
            let row = try readObject()
            try endLine()
            return row
        }
        return try readObject()
    }

    /// After an object of JSON lines: only spaces, tabs and a carriage return may follow it on its line.
    private func endLine() throws {
        while let byte = try input.peek(), byte == ASCII.space || byte == ASCII.tab || byte == ASCII.carriageReturn {
            _ = try consume()
        }
        if let byte = try input.peek(), byte != ASCII.lineFeed {
            throw failure("unexpected text after the record: JSON lines hold one object per line")
        }
    }

    /// After the array: only white space may follow.
    private func end() throws -> CellRow? {
        hasEnded = true
        try skipWhiteSpace()
        if try input.peek() != nil { throw failure("unexpected text after the array") }
        return nil
    }

    private func readObject() throws -> CellRow {
        let objectLine = line
        guard try input.peek() == UInt8(ascii: "{") else {
            throw failure(isArray ? "expected an object ({ … }) for each record" : "expected one object ({ … }) per line")
        }
        _ = try consume()
        var names: [String] = []
        var cells: [Cell] = []
        var columns: [Int] = []
        names.reserveCapacity(lastFieldCount)
        cells.reserveCapacity(lastFieldCount)
        columns.reserveCapacity(lastFieldCount)
        try skipWhiteSpace()
        if try input.peek() == UInt8(ascii: "}") {
            _ = try consume()
            return CellRow(line: objectLine, namesLine: objectLine, names: [], cells: [], columns: [])
        }
        while true {
            try skipWhiteSpace()
            let keyColumn = column
            guard try input.peek() == ASCII.quote else { throw failure("expected a field name in quotes") }
            let name = try readString()
            if names.contains(name) {
                throw RecordReadError(line: line, column: keyColumn, field: name, reason: "the field appears twice in the record")
            }
            try skipWhiteSpace()
            guard try consume() == UInt8(ascii: ":") else { throw failure("expected : after the field name") }
            try skipWhiteSpace()
            columns.append(column)
            names.append(name)
            cells.append(try readValue(name))
            try skipWhiteSpace()
            switch try consume() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"):
                lastFieldCount = names.count
                return CellRow(line: objectLine, namesLine: objectLine, names: names, cells: cells, columns: columns)
            default: throw failure("expected , or } after a value")
            }
        }
    }

    private func readValue(_ name: String) throws -> Cell {
        guard let byte = try input.peek() else { throw failure("the record is not closed (a missing })") }
        switch byte {
        case ASCII.quote:
            return .string(try readString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = column
            bytes.removeAll(keepingCapacity: true)
            while let next = try input.peek(), Self.isNumberByte(next) { bytes.append(try consume()!) }
            let literal = String(decoding: bytes, as: UTF8.self)
            guard NumberSyntax.isJSONNumber(literal.utf8) else {
                throw RecordReadError(line: line, column: start, field: name, reason: "\(literal) is not a JSON number")
            }
            return .number(literal)
        case UInt8(ascii: "t"): try expectWord("true"); return .boolean(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .boolean(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            throw RecordReadError(line: line, column: column, field: name, reason: "expected text or a number, not an object or array")
        default:
            throw failure("expected a value")
        }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    private func expectWord(_ word: String) throws {
        for expected in word.utf8 {
            guard try input.peek() == expected else { throw failure("expected a value") }
            _ = try consume()
        }
    }

    /// Reads a string literal, the opening quote next.
    private func readString() throws -> String {
        let (startLine, startColumn) = (line, column)
        _ = try consume()
        bytes.removeAll(keepingCapacity: true)
        while true {
            // The bytes up to the next quote, backslash or control character, at once.
            try input.consumeRun(while: { $0 != ASCII.quote && $0 != ASCII.backslash && $0 >= 0x20 }) { run in
                for byte in run where ASCII.startsCharacter(byte) { column += 1 }
                bytes.append(contentsOf: run)
            }
            if bytes.count > ValueLimit.maximumBytes { throw ValueLimit.error(line: startLine, column: startColumn) }
            guard let byte = try input.next() else {
                throw RecordReadError(line: startLine, column: startColumn, reason: "the text that starts here has no closing quote")
            }
            if ASCII.startsCharacter(byte) { column += 1 }
            switch byte {
            case ASCII.quote:
                guard let text = UTF8Text.string(validating: bytes) else {
                    throw RecordReadError(line: startLine, column: startColumn, reason: "the text is not valid UTF-8")
                }
                return text
            case ASCII.backslash:
                try readEscape()
            case 0..<0x20:
                throw failure("a control character inside text (write a line break as \\n)")
            default:
                bytes.append(byte)
                if bytes.count > ValueLimit.maximumBytes { throw ValueLimit.error(line: startLine, column: startColumn) }
            }
        }
    }

    private func readEscape() throws {
        let escapeColumn = column - 1
        guard let byte = try consume() else { throw failure("the text has no closing quote") }
        switch byte {
        case ASCII.quote, ASCII.backslash, UInt8(ascii: "/"): bytes.append(byte)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(ASCII.lineFeed)
        case UInt8(ascii: "r"): bytes.append(ASCII.carriageReturn)
        case UInt8(ascii: "t"): bytes.append(ASCII.tab)
        case UInt8(ascii: "u"):
            var value = try readHex4()
            if (0xD800..<0xDC00).contains(value) {
                guard try consume() == ASCII.backslash, try consume() == UInt8(ascii: "u") else {
                    throw RecordReadError(line: line, column: escapeColumn, reason: "a \\u escape of half a character (a lone surrogate)")
                }
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else {
                    throw RecordReadError(line: line, column: escapeColumn, reason: "a \\u escape of half a character (a lone surrogate)")
                }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw RecordReadError(line: line, column: escapeColumn, reason: "a \\u escape of half a character (a lone surrogate)")
            }
            bytes.append(contentsOf: String(scalar).utf8)
        default:
            throw RecordReadError(line: line, column: escapeColumn, reason: "unknown escape in text")
        }
    }

    private func readHex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try consume(), let digit = Self.hexValue(byte) else { throw failure("expected four hexadecimal digits after \\u") }
            value = value << 4 | digit
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private func skipWhiteSpace() throws {
        while let byte = try input.peek() {
            switch byte {
            case ASCII.lineFeed:
                _ = try input.next()
                line += 1
                column = 1
            case ASCII.space, ASCII.tab, ASCII.carriageReturn:
                _ = try input.next()
                column += 1
            default:
                return
            }
        }
    }

    private func consume() throws -> UInt8? {
        guard let byte = try input.next() else { return nil }
        if ASCII.startsCharacter(byte) { column += 1 }
        return byte
    }

    private func failure(_ reason: String) -> RecordReadError {
        RecordReadError(line: line, column: column, reason: reason)
    }
}
