#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RecordFormats
import SQLiteStore

/// What an attribute's column is, as the table generated from the declaration declares it
/// (``EntityTable``) and as opening a store checks it.
public struct ColumnDefinition: Sendable, Equatable {
    /// The column's type; nil until the declaration resolves it from the template's value (an
    /// enumeration's raw value), see `resolved(template:)`.
    public internal(set) var type: ColumnType?
    /// Whether the column may hold NULL (the attribute is an `Optional`).
    public internal(set) var isOptional: Bool
    /// Whether the table's `UNIQUE` keeps two rows from holding the same value.
    public let isUnique: Bool
    /// The column's `DEFAULT`, if any.
    public let defaultValue: DatabaseValue?
    /// An SQL condition on the column that the table's `CHECK` enforces.
    public let sqlCheck: String?

    /// The definition with its type known: a type that ``StoredKind`` does not know (an enumeration)
    /// takes the kind of the template's value, and a template value of NULL makes it optional (an
    /// optional enumeration's template must be nil).
    func resolved(template: DatabaseValue) -> ColumnDefinition {
        guard type == nil else { return self }
        var definition = self
        switch template {
        case .integer: definition.type = .integer
        case .real: definition.type = .real
        case .text: definition.type = .text
        case .blob: definition.type = .blob
        case .null:
            definition.type = .any
            definition.isOptional = true
        }
        return definition
    }
}

/// The type of a column of a generated table, the same on every engine that has it.
public enum ColumnType: String, Sendable, Equatable {
    /// Text (`String`, a raw value that is text).
    case text = "TEXT"
    /// A whole number (`Int`, `Int64`, `Bool` as 0 or 1).
    case integer = "INTEGER"
    /// A floating-point number (`Double`, `Date` as seconds since 1970).
    case real = "REAL"
    /// Bytes (`Data`).
    case blob = "BLOB"
    /// Any value (a type whose values the library cannot tell).
    case any = "ANY"
}

/// The library's storable types, told apart by their metatype alone (no dynamic cast, which scans the
/// binary's conformance records the first time): what column and file field they make.
@usableFromInline
struct StoredKind: Sendable {
    let columnType: ColumnType
    /// How files write and read it: a `Bool` as true or false, a `Date` as ISO 8601 text.
    let fileKind: FieldKind
    let isOptional: Bool

    /// The kind of `Value`, or nil for a type of another module (an enumeration).
    @usableFromInline
    init?<Value>(_ type: Value.Type) {
        let known: [(Any.Type, Any.Type, ColumnType, FieldKind)] = [
            (String.self, String?.self, .text, .text), (Int.self, Int?.self, .integer, .integer),
            (Int64.self, Int64?.self, .integer, .integer), (Int32.self, Int32?.self, .integer, .integer),
            (Bool.self, Bool?.self, .integer, .boolean), (Double.self, Double?.self, .real, .decimal),
            (Date.self, Date?.self, .real, .date), (Data.self, Data?.self, .blob, .text),
        ]
        for (plain, optional, columnType, fileKind) in known {
            if ObjectIdentifier(type) == ObjectIdentifier(plain) {
                (self.columnType, self.fileKind, isOptional) = (columnType, fileKind, false)
                return
            }
            if ObjectIdentifier(type) == ObjectIdentifier(optional) {
                (self.columnType, self.fileKind, isOptional) = (columnType, fileKind, true)
                return
            }
        }
        return nil
    }
}
