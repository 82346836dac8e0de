import FetchedResults
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
    /// The column's title in tables and detail views (`YEAR`).
    public let title: String
    /// How rows are grouped into sections when this attribute is a request's section key path.
    public let sections: AttributeSections
    /// The property.
    public let keyPath: PartialKeyPath<Entity> & Sendable

    let storedValues: @Sendable (Entity, _ fold: (String) -> String) -> [DatabaseValue]
    let read: @Sendable (inout Entity, Row, _ index: Int) throws -> Void
    let check: @Sendable (inout Entity) throws -> Void
    let show: @Sendable (Entity) -> String

    /// The columns written for the attribute: its column, then its folded column if it has one.
    public var storedColumns: [String] { [column] + (foldedColumn.map { [$0] } ?? []) }

    /// The attribute's value in `entity`, as shown in a table cell or detail view.
    public func shownValue(of entity: Entity) -> String { show(entity) }

    /// How predicates, sort descriptors and sections read the attribute in SQL.
    var entityColumn: EntityColumn {
        let sortExpression = foldedColumn ?? column
        return EntityColumn(column, sortedBy: sortExpression, sectionedBy: sections.expression(column, sortExpression))
    }
}

extension EntityAttribute {
    /// A text attribute.
    ///
    /// - Parameters:
    ///   - name: the property's name in files and messages.
    ///   - keyPath: the property.
    ///   - column: its column; by default `name` in snake case (`operatingSystem` → `operating_system`).
    ///   - folded: whether the text is compared ignoring case, diacritics and width: its folded form is
    ///     stored in `<column>_folded`, which sorts it and which a search looks in.
    ///   - searched: whether a search looks for its terms in the folded text (requires `folded`).
    ///   - sections: how a section by this attribute groups and names rows.
    ///   - title: its title in tables; by default `name`, uppercased.
    ///   - check: validates (and may normalise, such as trim) a value before it is written; throws to
    ///     refuse it.
    public static func text(
        _ name: String, _ keyPath: WritableKeyPath<Entity, String> & Sendable, column: String? = nil,
        folded: Bool = false, searched: Bool = false, sections: AttributeSections = .value, title: String? = nil,
        check: @escaping @Sendable (String) throws -> String = { $0 }
    ) -> EntityAttribute {
        precondition(!searched || folded, "a searched text attribute must be folded: search compares folded text")
        let column = column ?? snakeCase(name)
        return EntityAttribute(
            name: name, column: column, foldedColumn: folded ? column + "_folded" : nil, isSearchedText: searched,
            isSearchedAsNumber: false, title: title ?? name.uppercased(), sections: sections, keyPath: keyPath,
            storedValues: { entity, fold in
                let text = entity[keyPath: keyPath]
                return folded ? [.text(text), .text(fold(text))] : [.text(text)]
            },
            read: { entity, row, index in entity[keyPath: keyPath] = try row.decode(String.self, at: index) },
            check: { entity in entity[keyPath: keyPath] = try check(entity[keyPath: keyPath]) },
            show: { $0[keyPath: keyPath] })
    }

    /// An attribute of any other storable type: a number, a date, an optional, an enumeration.
    ///
    /// - Parameters:
    ///   - name: the property's name in files and messages.
    ///   - keyPath: the property.
    ///   - column: its column; by default `name` in snake case (`yearIntroduced` → `year_introduced`).
    ///   - searchedAsNumber: whether a search's numeric terms (`2007`, `599`) are compared with it.
    ///   - sections: how a section by this attribute groups and names rows.
    ///   - title: its title in tables; by default `name`, uppercased.
    ///   - check: validates (and may normalise) a value before it is written; throws to refuse it.
    ///   - shown: the value as a table cell or detail view shows it; by default its description.
    public static func value<Value: DatabaseValueConvertible>(
        _ name: String, _ keyPath: WritableKeyPath<Entity, Value> & Sendable, column: String? = nil,
        searchedAsNumber: Bool = false, sections: AttributeSections = .value, title: String? = nil,
        check: @escaping @Sendable (Value) throws -> Value = { $0 },
        shown: @escaping @Sendable (Value) -> String = { String(describing: $0) }
    ) -> EntityAttribute {
        stored(
            name, keyPath, column, searchedAsNumber, sections, title, check, shown,
            read: { entity, row, index in entity[keyPath: keyPath] = try row.decode(Value.self, at: index) })
    }

    /// An attribute of a type read straight from its column, without an intermediate
    /// ``DatabaseValue`` (`Int`, `Int64`, `Double`, `String`, `Bool`): the same as the general one,
    /// faster to decode.
    public static func value<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ name: String, _ keyPath: WritableKeyPath<Entity, Value> & Sendable, column: String? = nil,
        searchedAsNumber: Bool = false, sections: AttributeSections = .value, title: String? = nil,
        check: @escaping @Sendable (Value) throws -> Value = { $0 },
        shown: @escaping @Sendable (Value) -> String = { String(describing: $0) }
    ) -> EntityAttribute {
        stored(
            name, keyPath, column, searchedAsNumber, sections, title, check, shown,
            read: { entity, row, index in entity[keyPath: keyPath] = try row.decode(Value.self, at: index) })
    }

    private static func stored<Value: DatabaseValueConvertible>(
        _ name: String, _ keyPath: WritableKeyPath<Entity, Value> & Sendable, _ column: String?, _ searchedAsNumber: Bool,
        _ sections: AttributeSections, _ title: String?, _ check: @escaping @Sendable (Value) throws -> Value,
        _ shown: @escaping @Sendable (Value) -> String, read: @escaping @Sendable (inout Entity, Row, Int) throws -> Void
    ) -> EntityAttribute {
        EntityAttribute(
            name: name, column: column ?? snakeCase(name), foldedColumn: nil, isSearchedText: false,
            isSearchedAsNumber: searchedAsNumber, title: title ?? name.uppercased(), sections: sections, keyPath: keyPath,
            storedValues: { entity, _ in [entity[keyPath: keyPath].databaseValue] }, read: read,
            check: { entity in entity[keyPath: keyPath] = try check(entity[keyPath: keyPath]) },
            show: { shown($0[keyPath: keyPath]) })
    }
}

/// `yearIntroduced` → `year_introduced`: a property name as a column name.
func snakeCase(_ name: String) -> String {
    var column = ""
    for character in name {
        if character.isUppercase, !column.isEmpty { column += "_" }
        column += character.lowercased()
    }
    return column
}
