#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

/// Turns a `#Predicate` into an SQL condition with bound arguments.
///
/// Each supported `PredicateExpressions` node conforms to ``SQLPredicateExpression`` and translates
/// its children through ``translate(_:)``; a node that does not conform stops the translation with
/// ``FetchError/unsupportedPredicate(_:)`` naming it. Values are always bound, never spliced.
///
/// The SQL evaluates to what `Predicate.evaluate` returns, row by row: every Swift `Bool` becomes an SQL
/// expression that is 0 or 1 and never NULL (so `NOT` and `OR` keep their two-valued meaning), Swift
/// `nil` becomes NULL, and `==`/`!=` become `IS`/`IS NOT`, which compare NULL like Swift compares nil.
/// Known differences, outside the values the catalog stores: text compares by UTF-8 bytes (Swift
/// compares canonically equivalent strings as equal: store NFC), and integer overflow gives a REAL
/// in SQLite where Swift traps.
struct PredicateTranslation {
    /// The SQL of a key path of the entity, if it is mapped.
    let column: (AnyKeyPath) -> EntityColumn?
    /// The predicate's input: a key path on it is a column.
    let root: PredicateExpressions.VariableID
    /// The engine the SQL is spelled for.
    let dialect: SQLDialect
    /// Variables bound by `flatMap` closures, to the SQL of their (non-nil) value.
    var variables: [PredicateExpressions.VariableID: SQLFragment] = [:]

    /// The condition of `predicate` for `Entity`.
    ///
    /// - Throws: ``FetchError/unsupportedPredicate(_:)`` or ``FetchError/unmappedKeyPath(_:)``.
    static func condition<Entity: FetchableEntity>(for predicate: Predicate<Entity>, dialect: SQLDialect = .sqlite) throws -> SQLFragment {
        var translation = PredicateTranslation(
            column: { keyPath in (keyPath as? PartialKeyPath<Entity>).flatMap(Entity.column(for:)) },
            root: predicate.variable.key, dialect: dialect)
        return try translation.translate(predicate.expression)
    }

    /// The SQL of one expression node.
    mutating func translate(_ expression: Any) throws -> SQLFragment {
        guard let expression = expression as? any SQLPredicateExpression else {
            throw FetchError.unsupportedPredicate(Self.constructName(of: expression))
        }
        return try expression.sql(in: &self)
    }

    /// A node's type name without its generic arguments: `SequenceStartsWith`.
    static func constructName(of expression: Any) -> String {
        let name = String(describing: type(of: expression))
        return String(name.prefix { $0 != "<" })
    }
}

/// A `PredicateExpressions` node with an SQL translation.
protocol SQLPredicateExpression {
    /// The node's SQL, translating its children with `translation`.
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment
}
