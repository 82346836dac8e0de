/// Turns the bytes a terminal sends in raw mode into ``Key``s: UTF-8 text (kept whole when a burst
/// of it arrives, as an input method commits it), control keys, and the escape sequences of the
/// cursor and editing keys (both the `CSI` and the `SS3` forms, xterm and rxvt/linux variants).
///
/// Bytes of an unfinished sequence (a UTF-8 character or an escape sequence cut by a read) wait for
/// the next ``decode(_:)``; a lone Escape is reported by ``flush()``, which the driver calls when no
/// more input follows quickly.
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// The keys in `bytes`, appended to what an earlier call left unfinished.
    mutating func decode(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        var text: [UInt8] = []
        func flushText() {
            if !text.isEmpty {
                keys.append(.text(String(decoding: text, as: UTF8.self)))
                text = []
            }
        }
        while index < pending.count {
            let byte = pending[index]
            if byte >= 0x20 && byte != 0x7F {
                let length = Self.utf8Length(byte)
                guard index + length <= pending.count else { break }
                text += pending[index..<index + length]
                index += length
                continue
            }
            if byte == 0x1B {
                guard let (key, length) = Self.escapeSequence(pending[(index + 1)...]) else { break }
                flushText()
                if let key { keys.append(key) }
                index += 1 + length
                continue
            }
            flushText()
            keys.append(Self.controlKey(byte))
            index += 1
        }
        flushText()
        pending.removeFirst(index)
        return keys
    }

    /// Whether bytes of an unfinished key wait for more.
    var hasPendingBytes: Bool { !pending.isEmpty }

    /// What is left unfinished, reported as keys: a lone Escape is the Escape key.
    mutating func flush() -> [Key] {
        defer { pending = [] }
        guard !pending.isEmpty else { return [] }
        if pending == [0x1B] { return [.escape] }
        if pending.first == 0x1B { return [.escape] + KeyDecoder().decodeAll(Array(pending.dropFirst())) }
        return [.text(String(decoding: pending, as: UTF8.self))]
    }

    private func decodeAll(_ bytes: [UInt8]) -> [Key] {
        var decoder = self
        return decoder.decode(bytes) + decoder.flush()
    }

    /// The length of the UTF-8 sequence that `lead` starts (1 for a stray continuation byte, which
    /// then decodes to U+FFFD).
    private static func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...0xF7: 4
        case 0xE0...0xEF: 3
        case 0xC0...0xDF: 2
        default: 1
        }
    }

    private static func controlKey(_ byte: UInt8) -> Key {
        switch byte {
        case 0x0D, 0x0A: .enter
        case 0x09: .tab
        case 0x7F, 0x08: .backspace
        case 0x00: .control(" ")
        default: .control(Character(Unicode.Scalar(byte + 0x60)))
        }
    }

    /// The key of the escape sequence after an Escape byte, and how many bytes it took; nil when the
    /// sequence is unfinished. A nil key is a sequence we do not use (it is skipped).
    private static func escapeSequence(_ rest: ArraySlice<UInt8>) -> (Key?, Int)? {
        guard let first = rest.first else { return nil }
        if first == 0x1B { return (.escape, 0) }  // Escape pressed twice: the first one alone
        if first != UInt8(ascii: "[") && first != UInt8(ascii: "O") {
            // Alt + a character: Escape then its UTF-8 bytes.
            let length = utf8Length(first)
            guard rest.count >= length else { return nil }
            let bytes = Array(rest.prefix(length))
            if first < 0x20 || first == 0x7F { return (.escape, 0) }
            return (String(decoding: bytes, as: UTF8.self).first.map { .alt(Character($0.lowercased())) }, length)
        }
        // CSI or SS3: parameters (digits and ';') then one final byte in 0x40...0x7E.
        var length = 1
        var parameters = ""
        for byte in rest.dropFirst() {
            length += 1
            if (0x40...0x7E).contains(byte) {
                return (key(final: byte, parameters: parameters), length)
            }
            parameters.append(Character(Unicode.Scalar(byte)))
            if length > 16 { return (nil, length) }  // not a key sequence: skip it
        }
        return nil
    }

    private static func key(final: UInt8, parameters: String) -> Key? {
        switch Character(Unicode.Scalar(final)) {
        case "A": .up
        case "B": .down
        case "C": .right
        case "D": .left
        case "H": .home
        case "F": .end
        case "Z": .backTab
        case "~":
            switch parameters.split(separator: ";").first ?? "" {
            case "1", "7": .home
            case "4", "8": .end
            case "3": .delete
            case "5": .pageUp
            case "6": .pageDown
            default: nil
            }
        default: nil
        }
    }
}
