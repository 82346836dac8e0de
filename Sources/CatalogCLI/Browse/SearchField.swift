/// The text of the search field and its cursor, edited by grapheme cluster: what a user sees as one
/// character (`é` written as `e` + U+0301, `👍🏽`, a Hangul syllable) moves and deletes as one.
struct SearchField: Hashable, Sendable {
    /// The text typed.
    private(set) var text: String
    /// The cursor, as the number of grapheme clusters before it.
    private(set) var cursor: Int

    /// A field holding `text`, the cursor at its end.
    init(_ text: String = "") {
        self.text = text
        cursor = text.count
    }

    /// Inserts `typed` (a key or a whole text committed by an input method) at the cursor, which then
    /// follows it. Control characters are dropped; line breaks and tabs become spaces.
    mutating func insert(_ typed: String) {
        var clean = ""
        for character in typed {
            if character == "\n" || character == "\r\n" || character == "\r" || character == "\t" {
                clean.append(" ")
            } else if !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                clean.append(character)
            }
        }
        guard !clean.isEmpty else { return }
        let before = text.count
        text.insert(contentsOf: clean, at: index(cursor))
        // A combining mark typed after a letter joins it: count what was added, not what was typed.
        cursor += text.count - before
    }

    /// Deletes the grapheme cluster before the cursor.
    mutating func deleteBackward() {
        guard cursor > 0 else { return }
        text.remove(at: index(cursor - 1))
        cursor -= 1
    }

    /// Deletes the grapheme cluster under the cursor.
    mutating func deleteForward() {
        guard cursor < text.count else { return }
        text.remove(at: index(cursor))
    }

    /// Empties the field (Ctrl-U).
    mutating func clear() {
        text = ""
        cursor = 0
    }

    /// Moves the cursor one grapheme cluster left or right.
    mutating func moveCursor(by offset: Int) {
        cursor = min(max(cursor + offset, 0), text.count)
    }

    /// Moves the cursor to the start or the end of the text.
    mutating func moveCursor(toEnd: Bool) {
        cursor = toEnd ? text.count : 0
    }

    /// Replaces the text, the cursor at its end.
    mutating func replace(with newText: String) {
        self = SearchField(newText)
    }

    /// The terminal columns before the cursor.
    var cursorColumn: Int { DisplayWidth.of(text[..<index(cursor)]) }

    private func index(_ offset: Int) -> String.Index {
        text.index(text.startIndex, offsetBy: offset)
    }
}
