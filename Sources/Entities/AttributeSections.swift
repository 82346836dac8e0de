import SQLiteStore

/// How a request sectioned by an attribute groups rows, and what it calls each section.
///
/// A section's name follows from its key alone (the value of its SQL expression), so that a section
/// keeps its identity while rows come and go.
public struct AttributeSections: Sendable {
    let expression: @Sendable (_ column: String, _ sortExpression: String) -> String
    let name: @Sendable (DatabaseValue) -> String

    /// Sections by the value as stored, named by `name` (by default the value as text; NULL is ``).
    public static func value(named name: @escaping @Sendable (DatabaseValue) -> String = Self.text) -> AttributeSections {
        AttributeSections(expression: { column, _ in column }, name: name)
    }

    /// Sections by the value as stored, named by the value as text.
    public static var value: AttributeSections { .value() }

    /// Sections by the first character of the folded text, named by it uppercased: `Émile` and `eve`
    /// share `E`. For a folded text attribute; an emoji flag files under its first regional indicator
    /// (SQLite's `substr` counts Unicode scalars).
    public static var initial: AttributeSections {
        AttributeSections(expression: { _, sortExpression in "substr(\(sortExpression), 1, 1)" }, name: { Self.text($0).uppercased() })
    }

    /// A value as section name text: text as is, NULL as ``, other values as they print.
    @Sendable public static func text(_ value: DatabaseValue) -> String {
        switch value {
        case .null: ""
        case .text(let text): text
        default: value.description
        }
    }
}
