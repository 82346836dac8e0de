import SQLiteStore

/// How a request sectioned by an attribute groups rows, and what it calls each section.
///
/// A section's name follows from its key alone (the value of its SQL expression), so that a section
/// keeps its identity while rows come and go.
public struct AttributeSections: Sendable {
    let expression: @Sendable (_ column: String, _ sortExpression: String) -> String
    let name: @Sendable (_ key: DatabaseValue, _ isFolded: Bool) -> String

    /// The character between a folded text and its stored value in the key of a `.value` section
    /// (U+0001): it sorts before any character of a folded text, which holds no control characters
    /// (names are checked for them), so keys sort as the folded text, then as the stored value.
    static let foldedKeySeparator: Character = "\u{1}"

    /// Sections by the value as stored, named by `name` (by default the value as text; NULL is ``).
    /// A `Bool` attribute's value is given to `name` as the text `false` or `true`, as files write
    /// it, not as the 0 or 1 it is stored as.
    ///
    /// A folded text's sections are in the order of its folded text, as its rows are (`Apple`, `apple`
    /// and `Äpple` are three sections, next to each other, before `banana`); spellings that fold alike
    /// follow each other by their UTF-8 bytes. Their key is the folded text, U+0001, then the stored
    /// value, and `name` is given the stored value.
    public static func value(named name: @escaping @Sendable (DatabaseValue) -> String = Self.text) -> AttributeSections {
        AttributeSections(
            expression: { column, sortExpression in
                column == sortExpression ? column : "\(sortExpression) || char(1) || \(column)"
            },
            name: { key, isFolded in name(isFolded ? storedValue(inFoldedKey: key) : key) })
    }

    /// Sections by the value as stored, named by the value as text.
    public static var value: AttributeSections { .value() }

    /// Sections by the first character of the folded text, named by it uppercased: `Émile` and `eve`
    /// share `E`. For a folded text attribute; an emoji flag files under its first regional indicator
    /// (SQLite's `substr` counts Unicode scalars).
    public static var initial: AttributeSections {
        AttributeSections(
            expression: { _, sortExpression in "substr(\(sortExpression), 1, 1)" }, name: { key, _ in Self.text(key).uppercased() })
    }

    /// These sections for a `Bool` attribute: the key 0 or 1 it is stored as named as `false` or
    /// `true` (see ``value(named:)``).
    var namingBooleans: AttributeSections {
        AttributeSections(expression: expression) { [name] key, isFolded in
            guard case .integer(let value) = key else { return name(key, isFolded) }
            return name(.text(value == 0 ? "false" : "true"), isFolded)
        }
    }

    /// A value as section name text: text as is, NULL as ``, other values as they print.
    @Sendable public static func text(_ value: DatabaseValue) -> String {
        switch value {
        case .null: ""
        case .text(let text): text
        default: value.description
        }
    }

    /// The stored value in the key of a folded text's `.value` section: what follows the separator.
    private static func storedValue(inFoldedKey key: DatabaseValue) -> DatabaseValue {
        guard case .text(let text) = key, let separator = text.firstIndex(of: foldedKeySeparator) else { return key }
        return .text(String(text[text.index(after: separator)...]))
    }
}
