/// A key press, or text committed at once (an input method's conversion, a paste), as the screen
/// model sees it.
enum Key: Hashable, Sendable {
    /// Printable text: one key, or several characters committed together.
    case text(String)
    case enter, tab, backTab, escape, backspace, delete
    case up, down, left, right, pageUp, pageDown, home, end
    /// A letter with Ctrl (`control("u")` for Ctrl-U), lowercase.
    case control(Character)
    /// A character with Alt (sent as Escape then the character).
    case alt(Character)
}
