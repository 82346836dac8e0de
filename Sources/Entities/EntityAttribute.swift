import FetchedResults
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RecordFormats
import SQLiteStore

/// One stored property of a declared entity: its key path, its name in files and on the command line,
/// its column, and how it is validated, folded, sorted, sectioned, searched and shown.
///
/// ```swift
/// .text("title", \.title, folded: true, searched: true, sections: .initial, check: Film.checkTitle)
/// .value("year", \.year, searchedAsNumber: true, title: "YEAR")
/// ```
///
/// Everything an entity's code would otherwise say about a property a second time (its SQL for
/// predicates, sorts and sections, its decoding, its place in INSERT and UPDATE, its search role, its
/// header in a table) is derived from the attribute by ``EntityDeclaration``.
public struct EntityAttribute<Entity>: Sendable {
    /// The property's name in seed, import and export files and in messages (`yearIntroduced`).
    public let name: String
    /// The column holding the value (`year_introduced`).
    public let column: String
    /// For text compared ignoring case, diacritics and width: the column holding its folded form
    /// (`name_folded`), written with every value; it sorts and is searched in place of ``column``.
    public let foldedColumn: String?
    /// Whether a search's terms are looked for in the folded text.
    public let isSearchedText: Bool
    /// Whether a search's numeric terms are compared with the value.
    public let isSearchedAsNumber: Bool
    /// The column's title in tables (`YEAR`).
    public let title: String
    /// The field's label in detail views (`year introduced`).
    public let label: String
    /// The column's width, in terminal columns, in lists laid out in fixed columns (`catalog browse`):
    /// the width its shown values usually need; longer ones are cut.
    public let width: Int
    /// How rows are grouped into sections when this attribute is a request's section key path.
    public let sections: AttributeSections
    /// The property.
    public let keyPath: PartialKeyPath<Entity> & Sendable
    /// What the column is, as the generated table declares it (see ``EntityTable``): its type, whether
    /// it may be NULL, its default, its CHECK and whether it is UNIQUE.
    public let columnDefinition: ColumnDefinition
    /// The parent table this attribute's id refers to, for a reference (``reference(_:_:to:column:onDelete:title:label:width:)``).
    public let reference: Reference?

    let write: ColumnWrite<Entity>
    let read: ColumnRead
    let check: @Sendable (inout Entity) throws -> Void
    let show: @Sendable (Entity) -> String
    let showInDetail: @Sendable (Entity) -> String
    /// How the data formats write and read the attribute (seed, import and export files).
    let fileField: @Sendable (_ template: Entity) -> RecordField<Entity>
    let readText: @Sendable (inout Entity, String) throws -> Void

    /// The columns written for the attribute: its column, then its folded column if it has one.
    public var storedColumns: [String] { [column] + (foldedColumn.map { [$0] } ?? []) }

    /// The attribute's value in `entity`, as shown in a table cell.
    public func shownValue(of entity: Entity) -> String { show(entity) }

    /// The attribute's value in `entity`, as shown in a detail view.
    public func detailValue(of entity: Entity) -> String { showInDetail(entity) }

    /// Sets the attribute of `entity` from text as a person types it (a command-line option): text as
    /// it is; another value as the attribute's `parse` reads it, or else as its column would hold the
    /// text read as a number (`2007`, `5.5`) or as text. The attribute's check runs when the entity is
    /// written, not here.
    ///
    /// - Throws: what `parse` throws; `FieldValueError` for text no value of the type reads from.
    public func set(fromText text: String, on entity: inout Entity) throws { try readText(&entity, text) }

    /// How predicates, sort descriptors and sections read the attribute in SQL.
    var entityColumn: EntityColumn {
        // Quoted, so that a column may have any name, an SQL keyword's (`order`) too.
        let quoted = SQLText.identifier(column)
        let sortExpression = SQLText.identifier(foldedColumn ?? column)
        // A type left to resolve from the template may turn out optional (see ColumnDefinition).
        let canBeNull = columnDefinition.isOptional || columnDefinition.type == nil
        return EntityColumn(
            column, sortedBy: sortExpression, sectionedBy: sections.expression(quoted, sortExpression), canBeNull: canBeNull)
    }

    /// The name of the section whose key (the value of ``entityColumn``'s section expression) is `key`.
    func sectionName(forKey key: DatabaseValue) -> String { sections.name(key, foldedColumn != nil) }
}

extension EntityAttribute {
    /// A text attribute.
    ///
    /// - Parameters:
    ///   - name: the property's name in files and messages.
    ///   - keyPath: the property.
    ///   - column: its column; by default ``ColumnNames/column(forName:)`` of `name` (`operatingSystem` →
    ///     `operating_system`, `recipeID` → `recipe_id`).
    ///   - folded: whether the text is compared ignoring case, diacritics and width: its folded form is
    ///     stored in `<column>_folded`, which sorts it and which a search looks in.
    ///   - searched: whether a search looks for its terms in the folded text (requires `folded`).
    ///   - sections: how a section by this attribute groups and names rows.
    ///   - title: its title in tables; by default `name`, uppercased.
    ///   - label: its label in detail views; by default `name` in words (`operatingSystem` →
    ///     `operating system`).
    ///   - width: its width in lists laid out in fixed columns; by default the title's.
    ///   - optionalInFiles: whether a seed or import file may leave it out, the record then keeping
    ///     the template's value (for an attribute added after files were written).
    ///   - check: validates (and may normalise, such as trim) a value before it is written, and as a
    ///     file is read; throws to refuse it.
    ///   - unique: whether no two rows may hold the same text (the table's `UNIQUE`): the key that
    ///     imports update rows by.
    ///   - default: the column's default, for rows stored before the attribute was added.
    ///   - sqlCheck: an SQL condition on the column that the table's `CHECK` enforces
    ///     (`length(title) > 0`), beside `check`, for writers other than this library.
    public static func text(
        _ name: String, _ keyPath: WritableKeyPath<Entity, String> & Sendable, column: String? = nil,
        folded: Bool = false, searched: Bool = false, sections: AttributeSections = .value, title: String? = nil,
        label: String? = nil, width: Int? = nil, optionalInFiles: Bool = false,
        check: @escaping @Sendable (String) throws -> String = { $0 }, unique: Bool = false, default: String? = nil,
        sqlCheck: String? = nil
    ) -> EntityAttribute {
        precondition(!searched || folded, "a searched text attribute must be folded: search compares folded text")
        let column = column ?? snakeCase(name)
        let title = title ?? name.uppercased()
        return EntityAttribute(
            name: name, column: column, foldedColumn: folded ? column + "_folded" : nil, isSearchedText: searched,
            isSearchedAsNumber: false, title: title, label: label ?? words(name), width: width ?? title.count,
            sections: sections,
            keyPath: keyPath,
            columnDefinition: ColumnDefinition(
                type: .text, isOptional: false, isUnique: unique, defaultValue: `default`.map(DatabaseValue.text), sqlCheck: sqlCheck),
            reference: nil,
            write: ColumnWrite { [property = PropertyAccess.read(keyPath)] entity, fold, values in
                let text = property(entity)
                values.append(.text(text))
                if folded { values.append(.text(fold(text))) }
            },
            read: ColumnReads.read(keyPath),
            check: { entity in entity[keyPath: keyPath] = try check(entity[keyPath: keyPath]) },
            show: { $0[keyPath: keyPath] }, showInDetail: { $0[keyPath: keyPath] },
            fileField: { _ in
                let write = PropertyAccess.write(keyPath)
                return RecordField(name: name, kind: .text, isOptional: optionalInFiles, value: { .text($0[keyPath: keyPath]) }) {
                    entity, value in
                    guard case .text(let text) = value else { return }
                    write(&entity, try check(text))
                }
            },
            readText: { entity, text in entity[keyPath: keyPath] = text })
    }

    /// An attribute of any other storable type: a number, a date, an optional, an enumeration. A type
    /// that reads straight from a statement's column (`Int`, `Int64`, `Double`, `String`, `Bool`) is
    /// read that way, without an intermediate `DatabaseValue`, and so is an enumeration whose raw
    /// value is one of them (its optional too).
    ///
    /// In files its kind follows from its type: text (`String`), a whole number (`Int`, `Int64`,
    /// `Int32`), a number (`Double`), a boolean (`Bool`: `true`, `false`, `yes`, `no`, `1`, `0`, in any
    /// ASCII case), a date (`Date`: ISO 8601 with an offset or `Z`, or seconds since 1970), and an
    /// `Optional` of any of them (an empty cell or JSON `null` for nil); another type (an
    /// enumeration) takes the kind of the template's value. A file's text is read with `parse` when
    /// given (an enumeration read in any case, say), otherwise as the kind says.
    ///
    /// - Parameters:
    ///   - name: the property's name in files and messages.
    ///   - keyPath: the property.
    ///   - column: its column; by default ``ColumnNames/column(forName:)`` of `name` (`yearIntroduced` →
    ///     `year_introduced`, `isbnURL` → `isbn_url`).
    ///   - searchedAsNumber: whether a search's numeric terms (`2007`, `599`) are compared with it.
    ///   - sections: how a section by this attribute groups and names rows.
    ///   - title: its title in tables; by default `name`, uppercased.
    ///   - label: its label in detail views; by default `name` in words (`yearIntroduced` →
    ///     `year introduced`).
    ///   - width: its width in lists laid out in fixed columns; by default the title's.
    ///   - optionalInFiles: whether a seed or import file may leave it out, the record then keeping
    ///     the template's value (for an attribute added after files were written).
    ///   - parse: reads the value from a file's text; throws to refuse it.
    ///   - check: validates (and may normalise) a value before it is written, and as a file is read;
    ///     throws to refuse it.
    ///   - shown: the value as a table cell shows it; by default its description.
    ///   - shownInDetail: the value as a detail view shows it; by default as `shown` does.
    ///   - unique: whether no two rows may hold the same value (the table's `UNIQUE`): the key that
    ///     imports update rows by.
    ///   - default: the column's default, for rows stored before the attribute was added.
    ///   - sqlCheck: an SQL condition on the column that the table's `CHECK` enforces
    ///     (`price >= 0`), beside `check`, for writers other than this library.
    @inlinable  // its column's read (`ColumnReads`) is specialized where the entity is declared
    public static func value<Value: DatabaseValueConvertible>(
        _ name: String, _ keyPath: WritableKeyPath<Entity, Value> & Sendable, column: String? = nil,
        searchedAsNumber: Bool = false, sections: AttributeSections = .value, title: String? = nil,
        label: String? = nil, width: Int? = nil, optionalInFiles: Bool = false,
        parse: (@Sendable (String) throws -> Value)? = nil,
        check: @escaping @Sendable (Value) throws -> Value = { $0 },
        shown: @escaping @Sendable (Value) -> String = { String(describing: $0) },
        shownInDetail: (@Sendable (Value) -> String)? = nil, unique: Bool = false, default: Value? = nil,
        sqlCheck: String? = nil
    ) -> EntityAttribute {
        value(
            name, keyPath, column: column, searchedAsNumber: searchedAsNumber, sections: sections, title: title, label: label,
            width: width, optionalInFiles: optionalInFiles, parse: parse, check: check, shown: shown,
            shownInDetail: shownInDetail, unique: unique, default: `default`?.databaseValue, sqlCheck: sqlCheck,
            read: ColumnReads.read(keyPath))
    }

    /// The public `value(…)` with its column's read, made where the entity is declared.
    @usableFromInline
    static func value<Value: DatabaseValueConvertible>(
        _ name: String, _ keyPath: WritableKeyPath<Entity, Value> & Sendable, column: String?, searchedAsNumber: Bool,
        sections: AttributeSections, title: String?, label: String?, width: Int?, optionalInFiles: Bool,
        parse: (@Sendable (String) throws -> Value)?, check: @escaping @Sendable (Value) throws -> Value,
        shown: @escaping @Sendable (Value) -> String, shownInDetail: (@Sendable (Value) -> String)?, unique: Bool,
        default: DatabaseValue?, sqlCheck: String?, reference: Reference? = nil, read: ColumnRead
    ) -> EntityAttribute {
        let detail = shownInDetail ?? shown
        let title = title ?? name.uppercased()
        let stored = StoredKind(Value.self)
        return EntityAttribute(
            name: name, column: column ?? snakeCase(name), foldedColumn: nil, isSearchedText: false,
            isSearchedAsNumber: searchedAsNumber, title: title, label: label ?? words(name), width: width ?? title.count,
            sections: stored?.fileKind == .boolean ? sections.namingBooleans : sections, keyPath: keyPath,
            columnDefinition: ColumnDefinition(
                type: stored?.columnType, isOptional: stored?.isOptional ?? false, isUnique: unique, defaultValue: `default`,
                sqlCheck: sqlCheck),
            reference: reference,
            write: ColumnWrite { [property = PropertyAccess.read(keyPath)] entity, _, values in values.append(property(entity).databaseValue) },
            read: read,
            check: { entity in entity[keyPath: keyPath] = try check(entity[keyPath: keyPath]) },
            show: { shown($0[keyPath: keyPath]) }, showInDetail: { detail($0[keyPath: keyPath]) },
            fileField: { template in
                fileField(
                    name, keyPath, kind: stored?.fileKind ?? FieldKind(of: template[keyPath: keyPath].databaseValue),
                    isBytes: stored?.columnType == .blob, optional: optionalInFiles || stored?.isOptional == true, parse: parse,
                    check: check)
            },
            readText: { entity, text in
                if let parse {
                    entity[keyPath: keyPath] = try parse(text)
                } else if let value = Value.fromDatabaseValue(try typedValue(text, stored)) {
                    entity[keyPath: keyPath] = value
                } else {
                    throw FieldValueError("not a valid \(name): \(text)")
                }
            })
    }

    /// Text as typed, as a column would hold it: read as the attribute's kind in files says (empty
    /// for NULL when it is optional), or, for a kind not known, a whole number, a number, or the text.
    private static func typedValue(_ text: String, _ stored: StoredKind?) throws -> DatabaseValue {
        if let stored {
            if stored.isOptional, text.isEmpty { return .null }
            if stored.columnType == .blob { return try bytes(base64: text) }
            return FieldValue(text: text, kind: stored.fileKind)?.databaseValue ?? .text(text)
        }
        if let integer = Int64(text) { return .integer(integer) }
        if let number = Double(text), number.isFinite { return .real(number) }
        return .text(text)
    }

    /// A file field of a stored value: written as its database value; read as `parse` or the column
    /// would read it (bytes, `isBytes`, from base64), then checked. Optional when `optional` or when
    /// its kind is not known.
    private static func fileField<Value: DatabaseValueConvertible>(
        _ name: String, _ keyPath: WritableKeyPath<Entity, Value> & Sendable, kind: FieldKind?, isBytes: Bool, optional: Bool,
        parse: (@Sendable (String) throws -> Value)?, check: @escaping @Sendable (Value) throws -> Value
    ) -> RecordField<Entity> {
        let write = PropertyAccess.write(keyPath)
        return RecordField(
            name: name, kind: kind ?? .text, isOptional: optional || kind == nil,
            value: { FieldValue(databaseValue: $0[keyPath: keyPath].databaseValue, kind: kind) }
        ) { entity, fieldValue in
            let value: Value
            if let parse, case .text(let text) = fieldValue {
                value = try parse(text)
            } else if isBytes, case .text(let text) = fieldValue, let read = Value.fromDatabaseValue(try bytes(base64: text)) {
                value = read
            } else if let read = Value.fromDatabaseValue(fieldValue.databaseValue) {
                value = read
            } else {
                throw FieldValueError("not a valid \(name)")
            }
            write(&entity, try check(value))
        }
    }
}

/// Bytes written in a file as base64 text (RFC 4648, with padding), as a column holds them.
private func bytes(base64 text: String) throws -> DatabaseValue {
    guard let data = Data(base64Encoded: text) else { throw FieldValueError("expected bytes in base64, found \"\(text)\"") }
    return .blob(data)
}

extension FieldKind {
    /// The kind a stored value is written as in files: nil for NULL, whose kind is not known (the field
    /// is then optional text).
    init?(of value: DatabaseValue) {
        switch value {
        case .integer: self = .integer
        case .real: self = .decimal
        case .text, .blob: self = .text
        case .null: return nil
        }
    }
}

extension FieldValue {
    /// A stored value as a file holds it: nil for NULL; a boolean or a date as `kind` says; bytes as
    /// base64 text.
    init?(databaseValue: DatabaseValue, kind: FieldKind?) {
        switch databaseValue {
        case .null: return nil
        case .integer(let integer) where kind == .boolean: self = .boolean(integer != 0)
        case .integer(let integer) where kind == .date: self = .date(secondsSince1970: Double(integer))
        case .real(let real) where kind == .date: self = .date(secondsSince1970: real)
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .decimal(real)
        case .text(let text): self = .text(text)
        case .blob(let data): self = .text(data.base64EncodedString())
        }
    }

    /// The value as a column holds it.
    var databaseValue: DatabaseValue {
        switch self {
        case .text(let text): .text(text)
        case .integer(let integer): .integer(integer)
        case .decimal(let decimal): .real(decimal)
        case .boolean(let value): .integer(value ? 1 : 0)
        case .date(let seconds): .real(seconds)
        }
    }
}

/// `yearIntroduced` → `year introduced`: a property name as words (see ``ColumnNames``).
func words(_ name: String) -> String { ColumnNames.words(of: name).joined(separator: " ") }

/// `yearIntroduced` → `year_introduced`: a property name as a column name (see ``ColumnNames``).
func snakeCase(_ name: String) -> String { ColumnNames.column(forName: name) }
