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
    /// Whether the input has no bytes after those buffered.
    private var inputEnded = false
    /// The arrays of the last row, which the next one reuses (no allocation per row once the last
    /// row is released), and the last object's keys (``ObjectParser/Key``).
    private var names: [String] = []
    private var cells: [Cell] = []
    private var columns: [Int] = []
    private var keys: [ObjectParser.Key] = []

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

    /// Reads an object, its `{` next: parsed whole from the bytes in memory (``ObjectParser``), after
    /// reading more input when it goes on past them.
    private func readObject() throws -> CellRow {
        guard try input.peek() == UInt8(ascii: "{") else {
            throw failure(isArray ? "expected an object ({ … }) for each record" : "expected one object ({ … }) per line")
        }
        while true {
            var row: CellRow?
            var buffered = 0
            do {
                try input.consumeBuffered { bytes in
                    buffered = bytes.count
                    var parser = ObjectParser(bytes: bytes, isWhole: inputEnded, line: line, column: column)
                    swap(&parser.names, &names)
                    swap(&parser.cells, &cells)
                    swap(&parser.columns, &columns)
                    swap(&parser.keys, &keys)
                    row = try parser.object()
                    swap(&parser.names, &names)
                    swap(&parser.cells, &cells)
                    swap(&parser.columns, &columns)
                    swap(&parser.keys, &keys)
                    (line, column) = (parser.line, parser.column(at: parser.index))
                    return parser.index
                }
                return row!
            } catch is ObjectParser.NeedsMore {
                if buffered >= ValueLimit.maximumRecordBytes {
                    throw failure("a record longer than \(ValueLimit.maximumRecordBytes / 1024 / 1024) MiB (is a brace not closed?)")
                }
                if try !input.readMore() { inputEnded = true }
            }
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

/// One JSON object parsed from bytes in memory, with its line and column kept in local variables
/// rather than a byte at a time through the input: the `import` rows of Ingest, Benchmarks/README.md.
/// Its errors are those of a reader going byte by byte, with the same lines and columns. When the
/// object goes on past the bytes, it throws ``NeedsMore`` (the reader reads more and parses again).
private struct ObjectParser {
    /// The object goes on past the bytes given.
    struct NeedsMore: Error {}

    /// A key of the last object, by its place: its bytes between the quotes as written, and its text.
    /// A key written the same way in the next object is that text again, without decoding it.
    struct Key {
        let bytes: [UInt8]
        let name: String
        /// Its UTF-8 continuation bytes (columns count characters).
        let continuations: Int
    }

    let bytes: UnsafeBufferPointer<UInt8>
    /// Whether the input ends with `bytes`: then running out of them is an error, not ``NeedsMore``.
    let isWhole: Bool
    var index = 0
    var line: Int
    /// The column of byte `i` is `lineColumn + (i - lineStart) - continuations`, where
    /// `continuations` counts the UTF-8 continuation bytes from `lineStart` up to the bytes read.
    private var lineStart = 0
    private var lineColumn: Int
    private var continuations = 0
    var names: [String] = []
    var cells: [Cell] = []
    var columns: [Int] = []
    var keys: [Key] = []
    /// A text's bytes as its escapes stand for them.
    private var unescaped: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, isWhole: Bool, line: Int, column: Int) {
        self.bytes = bytes
        self.isWhole = isWhole
        self.line = line
        lineColumn = column
    }

    func column(at index: Int) -> Int { lineColumn + (index - lineStart) - continuations }

    /// The column after the byte at `index` is read.
    private func column(after index: Int) -> Int { column(at: index) + (ASCII.startsCharacter(bytes[index]) ? 1 : 0) }

    private func failure(_ reason: String, column: Int? = nil) -> RecordReadError {
        RecordReadError(line: line, column: column ?? self.column(at: index), reason: reason)
    }

    /// The next byte, not consumed; at the end of the bytes, ``NeedsMore`` or, at the end of the
    /// input, `error`.
    private func peek(orAtEnd error: @autoclosure () -> RecordReadError) throws -> UInt8 {
        guard index < bytes.count else { throw isWhole ? error() : NeedsMore() }
        return bytes[index]
    }

    private mutating func skipWhiteSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case ASCII.lineFeed:
                index += 1
                line += 1
                (lineStart, lineColumn, continuations) = (index, 1, 0)
            case ASCII.space, ASCII.tab, ASCII.carriageReturn:
                index += 1
            default:
                return
            }
        }
    }

    /// The object whose `{` is next.
    mutating func object() throws -> CellRow {
        let objectLine = line
        index += 1
        names.removeAll(keepingCapacity: true)
        cells.removeAll(keepingCapacity: true)
        columns.removeAll(keepingCapacity: true)
        skipWhiteSpace()
        if try peek(orAtEnd: failure("expected a field name in quotes")) == UInt8(ascii: "}") {
            index += 1
            return CellRow(line: objectLine, namesLine: objectLine, names: [], cells: [], columns: [])
        }
        while true {
            skipWhiteSpace()
            let keyColumn = column(at: index)
            guard try peek(orAtEnd: failure("expected a field name in quotes")) == ASCII.quote else {
                throw failure("expected a field name in quotes")
            }
            let name = try key(at: names.count)
            if names.contains(name) {
                throw RecordReadError(line: line, column: keyColumn, field: name, reason: "the field appears twice in the record")
            }
            skipWhiteSpace()
            let colon = try peek(orAtEnd: failure("expected : after the field name"))
            index += 1
            guard colon == UInt8(ascii: ":") else {
                throw failure("expected : after the field name", column: column(after: index - 1))
            }
            skipWhiteSpace()
            columns.append(column(at: index))
            names.append(name)
            cells.append(try value(name))
            skipWhiteSpace()
            let after = try peek(orAtEnd: failure("expected , or } after a value"))
            index += 1
            switch after {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return CellRow(line: objectLine, namesLine: objectLine, names: names, cells: cells, columns: columns)
            default: throw failure("expected , or } after a value", column: column(after: index - 1))
            }
        }
    }

    /// The key whose opening quote is next, the `place`-th of its object: the last object's key
    /// there when it is written the same way.
    private mutating func key(at place: Int) throws -> String {
        let start = index + 1
        if place < keys.count {
            let known = keys[place]
            let end = start + known.bytes.count
            if end < bytes.count, bytes[end] == ASCII.quote,
               known.bytes.elementsEqual(UnsafeBufferPointer(rebasing: bytes[start..<end])) {
                index = end + 1
                continuations += known.continuations
                return known.name
            }
        }
        let continuationsBefore = continuations
        let name = try string()
        let key = Key(bytes: Array(bytes[start..<(index - 1)]), name: name, continuations: continuations - continuationsBefore)
        if place < keys.count { keys[place] = key } else if place == keys.count { keys.append(key) }
        return name
    }

    private mutating func value(_ name: String) throws -> Cell {
        switch try peek(orAtEnd: failure("the record is not closed (a missing })")) {
        case ASCII.quote:
            return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = index
            while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
            if index == bytes.count, !isWhole { throw NeedsMore() }
            let literal = UnsafeBufferPointer(rebasing: bytes[start..<index])
            guard NumberSyntax.isJSONNumber(literal) else {
                throw RecordReadError(
                    line: line, column: column(at: start), field: name,
                    reason: "\(String(decoding: literal, as: UTF8.self)) is not a JSON number")
            }
            return .number(String(decoding: literal, as: UTF8.self))
        case UInt8(ascii: "t"): try word("true"); return .boolean(true)
        case UInt8(ascii: "f"): try word("false"); return .boolean(false)
        case UInt8(ascii: "n"): try word("null"); return .null
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            throw RecordReadError(line: line, column: column(at: index), field: name, reason: "expected text or a number, not an object or array")
        default:
            throw failure("expected a value")
        }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    private mutating func word(_ word: StaticString) throws {
        for expected in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard try peek(orAtEnd: failure("expected a value")) == expected else { throw failure("expected a value") }
            index += 1
        }
    }

    /// The bytes from `index` up to the next quote, backslash or control character (or the end),
    /// counting their continuation bytes; whether they are all ASCII.
    private mutating func plainRun() -> (end: Int, isASCII: Bool) {
        var end = index
        var high: UInt8 = 0
        while end < bytes.count {
            let byte = bytes[end]
            if byte == ASCII.quote || byte == ASCII.backslash || byte < 0x20 { break }
            high |= byte
            if !ASCII.startsCharacter(byte) { continuations += 1 }
            end += 1
        }
        return (end, high < 0x80)
    }

    /// A text, its opening quote next.
    private mutating func string() throws -> String {
        let (startLine, startColumn) = (line, column(at: index))
        func noClosingQuote() -> RecordReadError {
            RecordReadError(line: startLine, column: startColumn, reason: "the text that starts here has no closing quote")
        }
        func invalid() -> RecordReadError { RecordReadError(line: startLine, column: startColumn, reason: "the text is not valid UTF-8") }
        index += 1
        // Plain text, the most common: decoded from the bytes where they are.
        let start = index
        let (end, isASCII) = plainRun()
        if end - start > ValueLimit.maximumBytes { throw ValueLimit.error(line: startLine, column: startColumn) }
        index = end
        if try peek(orAtEnd: noClosingQuote()) == ASCII.quote {
            index += 1
            guard let text = UTF8Text.string(validating: UnsafeBufferPointer(rebasing: bytes[start..<end]), isASCII: isASCII) else {
                throw invalid()
            }
            return text
        }
        unescaped.removeAll(keepingCapacity: true)
        unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
        while true {
            let byte = try peek(orAtEnd: noClosingQuote())
            index += 1
            switch byte {
            case ASCII.quote:
                guard let text = UTF8Text.string(validating: unescaped) else { throw invalid() }
                return text
            case ASCII.backslash:
                try readEscape()
            case 0..<0x20:
                throw failure("a control character inside text (write a line break as \\n)", column: column(after: index - 1))
            default:
                index -= 1
                let (end, _) = plainRun()
                unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
            }
            if unescaped.count > ValueLimit.maximumBytes { throw ValueLimit.error(line: startLine, column: startColumn) }
        }
    }

    /// An escape, after its backslash.
    private mutating func readEscape() throws {
        let escapeColumn = column(at: index - 1)
        func loneSurrogate() -> RecordReadError {
            RecordReadError(line: line, column: escapeColumn, reason: "a \\u escape of half a character (a lone surrogate)")
        }
        let byte = try peek(orAtEnd: failure("the text has no closing quote"))
        index += 1
        switch byte {
        case ASCII.quote, ASCII.backslash, UInt8(ascii: "/"): unescaped.append(byte)
        case UInt8(ascii: "b"): unescaped.append(0x08)
        case UInt8(ascii: "f"): unescaped.append(0x0C)
        case UInt8(ascii: "n"): unescaped.append(ASCII.lineFeed)
        case UInt8(ascii: "r"): unescaped.append(ASCII.carriageReturn)
        case UInt8(ascii: "t"): unescaped.append(ASCII.tab)
        case UInt8(ascii: "u"):
            var value = try readHex4()
            if (0xD800..<0xDC00).contains(value) {
                for expected in [ASCII.backslash, UInt8(ascii: "u")] {
                    guard try peek(orAtEnd: loneSurrogate()) == expected else { throw loneSurrogate() }
                    index += 1
                }
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw loneSurrogate() }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(value) else { throw loneSurrogate() }
            UTF8.encode(scalar) { unescaped.append($0) }
        default:
            throw RecordReadError(line: line, column: escapeColumn, reason: "unknown escape in text")
        }
    }

    private mutating func readHex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = try peek(orAtEnd: failure("expected four hexadecimal digits after \\u"))
            index += 1
            guard let digit = Self.hexValue(byte) else {
                throw failure("expected four hexadecimal digits after \\u", column: column(after: index - 1))
            }
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
}
