/// Values bound to a statement's parameters: positional (`?`, `?NNN`) or named (`:name`, `@name`, `$name`).
///
/// ```swift
/// try db.execute(sql: "INSERT INTO t(a, b) VALUES (?, ?)", arguments: [1, "one"])
/// try db.execute(sql: "INSERT INTO t(a, b) VALUES (:a, :b)", arguments: ["a": 1, "b": "one"])
/// ```
///
/// Values are always bound, never spliced into SQL text.
public struct StatementArguments: Sendable, Hashable, CustomStringConvertible,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// Values for positional parameters, in order.
    public var values: [DatabaseValue]
    /// Values for named parameters, by name without the leading `:`, `@` or `$`.
    public var namedValues: [String: DatabaseValue]

    /// Positional arguments.
    public init(_ values: [any DatabaseValueConvertible]) {
        self.values = values.map(\.databaseValue)
        self.namedValues = [:]
    }

    /// Positional arguments, already converted.
    public init(values: [DatabaseValue]) {
        self.values = values
        self.namedValues = [:]
    }

    /// Named arguments.
    public init(named: [String: any DatabaseValueConvertible]) {
        self.values = []
        self.namedValues = named.mapValues(\.databaseValue)
    }

    public init(arrayLiteral elements: (any DatabaseValueConvertible)...) {
        self.init(elements)
    }

    public init(dictionaryLiteral elements: (String, any DatabaseValueConvertible)...) {
        self.values = []
        self.namedValues = Dictionary(elements.map { ($0.0, $0.1.databaseValue) }, uniquingKeysWith: { $1 })
    }

    /// Whether there is no argument at all.
    public var isEmpty: Bool { values.isEmpty && namedValues.isEmpty }

    /// Appends the arguments of `other`: positional values after these, named values merged.
    public static func + (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        result.values += rhs.values
        result.namedValues.merge(rhs.namedValues) { $1 }
        return result
    }

    /// Appends the arguments of `other` in place.
    public static func += (lhs: inout StatementArguments, rhs: StatementArguments) {
        lhs = lhs + rhs
    }

    public var description: String {
        if namedValues.isEmpty { return "[" + values.map(\.description).joined(separator: ", ") + "]" }
        let named = namedValues.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        return "[" + (values.map(\.description) + named).joined(separator: ", ") + "]"
    }
}
