/// One field of a record type as the data formats see it: its name (the JSON property name and the
/// CSV/TSV column), its kind, how to get its value from a record and how to set it on one.
///
/// ```swift
/// struct Film { var id: Int64?; var title: String; var minutes: Int }
/// let fields: [RecordField<Film>] = [
///     .optionalInteger("id", \.id),
///     .text("title", \.title),
///     .integer("minutes", \.minutes),
/// ]
/// ```
public struct RecordField<Record>: Sendable {
    /// The field's name in every format.
    public let name: String
    /// How its value is written and read.
    public let kind: FieldKind
    /// Whether a record may leave it out (a missing JSON property, null, or an empty cell).
    public let isOptional: Bool
    /// The record's value; nil for an optional field without one.
    public let value: @Sendable (Record) -> FieldValue?
    /// Sets a value read from input on a record; throws when the value is not acceptable, and the
    /// reader reports the error at the value's line and column.
    public let assign: @Sendable (inout Record, FieldValue) throws -> Void

    /// A field from its parts.
    public init(
        name: String, kind: FieldKind, isOptional: Bool = false, value: @escaping @Sendable (Record) -> FieldValue?,
        assign: @escaping @Sendable (inout Record, FieldValue) throws -> Void
    ) {
        self.name = name
        self.kind = kind
        self.isOptional = isOptional
        self.value = value
        self.assign = assign
    }

    /// A required text field stored at `keyPath`; `check` may reject or normalise the text.
    public static func text(
        _ name: String, _ keyPath: WritableKeyPath<Record, String> & Sendable, check: @escaping @Sendable (String) throws -> String = { $0 }
    ) -> RecordField {
        RecordField(name: name, kind: .text, value: { .text($0[keyPath: keyPath]) }) { record, value in
            guard case .text(let text) = value else { return }
            record[keyPath: keyPath] = try check(text)
        }
    }

    /// A required whole-number field stored at `keyPath`.
    public static func integer(_ name: String, _ keyPath: WritableKeyPath<Record, Int> & Sendable) -> RecordField {
        RecordField(name: name, kind: .integer, value: { .integer(Int64($0[keyPath: keyPath])) }) { record, value in
            guard case .integer(let number) = value else { return }
            guard let int = Int(exactly: number) else { throw FieldValueError("\(number) does not fit") }
            record[keyPath: keyPath] = int
        }
    }

    /// An optional whole-number field stored at `keyPath`, such as a row id.
    public static func optionalInteger(_ name: String, _ keyPath: WritableKeyPath<Record, Int64?> & Sendable) -> RecordField {
        RecordField(name: name, kind: .integer, isOptional: true, value: { $0[keyPath: keyPath].map(FieldValue.integer) }) {
            record, value in
            guard case .integer(let number) = value else { return }
            record[keyPath: keyPath] = number
        }
    }

    /// A required number field stored at `keyPath`.
    public static func decimal(_ name: String, _ keyPath: WritableKeyPath<Record, Double> & Sendable) -> RecordField {
        RecordField(name: name, kind: .decimal, value: { .decimal($0[keyPath: keyPath]) }) { record, value in
            guard case .decimal(let number) = value else { return }
            record[keyPath: keyPath] = number
        }
    }

    /// A required text field holding a `RawRepresentable` value (an enumeration) stored at `keyPath`;
    /// `parse` reads the text (throwing for an unknown one).
    public static func text<Value: RawRepresentable>(
        _ name: String, _ keyPath: WritableKeyPath<Record, Value> & Sendable, parse: @escaping @Sendable (String) throws -> Value
    ) -> RecordField where Value.RawValue == String, Value: SendableMetatype {
        RecordField(name: name, kind: .text, value: { .text($0[keyPath: keyPath].rawValue) }) { record, value in
            guard case .text(let text) = value else { return }
            record[keyPath: keyPath] = try parse(text)
        }
    }
}

/// A value a field cannot take, as a field's `assign` may throw it.
public struct FieldValueError: Error, CustomStringConvertible {
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
