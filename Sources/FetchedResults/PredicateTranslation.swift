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
///
/// A Swift `Bool` is one of two things in SQL: a condition (a comparison, `AND`, `contains`…) or a
/// value (a stored `Bool` column, a captured `Bool`: the integer 0 or 1). SQLite uses either where the
/// other is wanted; PostgreSQL's conditions are `boolean`, which neither compares with nor stands for
/// an integer, so there each node's SQL says which it is (``PredicateSQL``) and is converted where the
/// other is wanted: a value used as a condition (`$0.isFeatured`, the test of `? :`) is `(v <> 0)`, a
/// condition used as a value (compared with a column, a branch of `? :` beside a value) `(c)::integer`.
struct PredicateTranslation {
    /// The SQL of a key path of the entity, if it is mapped.
    let column: (AnyKeyPath) -> EntityColumn?
    /// The predicate's input: a key path on it is a column.
    let root: PredicateExpressions.VariableID
    /// The engine the SQL is spelled for.
    let dialect: SQLDialect
    /// Variables bound by `flatMap` closures, to the SQL of their (non-nil) value.
    var variables: [PredicateExpressions.VariableID: PredicateSQL] = [:]

    /// The condition of `predicate` for `Entity`.
    ///
    /// - Throws: ``FetchError/unsupportedPredicate(_:)`` or ``FetchError/unmappedKeyPath(_:)``.
    static func condition<Entity: FetchableEntity>(for predicate: Predicate<Entity>, dialect: SQLDialect = .sqlite) throws -> SQLFragment {
        var translation = PredicateTranslation(
            column: { keyPath in (keyPath as? PartialKeyPath<Entity>).flatMap(Entity.column(for:)) },
            root: predicate.variable.key, dialect: dialect)
        return try translation.condition(predicate.expression)
    }

    /// The SQL of one expression node.
    mutating func translate(_ expression: Any) throws -> PredicateSQL {
        guard let expression = expression as? any SQLPredicateExpression else {
            throw FetchError.unsupportedPredicate(Self.constructName(of: expression))
        }
        return try expression.sql(in: &self)
    }

    /// The SQL of one expression node, as a condition.
    mutating func condition(_ expression: Any) throws -> SQLFragment { condition(of: try translate(expression)) }

    /// The SQL of one expression node, as a value.
    mutating func value(_ expression: Any) throws -> SQLFragment { value(of: try translate(expression)) }

    /// `sql` as a condition: a value is true when it is not 0.
    func condition(of sql: PredicateSQL) -> SQLFragment {
        guard !sql.isCondition && dialect == .postgreSQL else { return sql.fragment }
        return SQLFragment(sql: "(\(sql.fragment.sql) <> 0)", arguments: sql.fragment.arguments)
    }

    /// `sql` as a value: a condition is 1 when true, 0 when false (NULL when NULL).
    func value(of sql: PredicateSQL) -> SQLFragment {
        guard sql.isCondition && dialect == .postgreSQL else { return sql.fragment }
        return SQLFragment(sql: "(\(sql.fragment.sql))::integer", arguments: sql.fragment.arguments)
    }

    /// `a` and `b` spelled alike, for SQL that needs one type for both (the two sides of `==`, the
    /// branches of `? :`): conditions when both are, else values.
    func alike(_ a: PredicateSQL, _ b: PredicateSQL) -> (SQLFragment, SQLFragment, isCondition: Bool) {
        a.isCondition && b.isCondition ? (a.fragment, b.fragment, true) : (value(of: a), value(of: b), false)
    }

    /// A node's type name without its generic arguments: `SequenceStartsWith`.
    static func constructName(of expression: Any) -> String {
        let name = String(describing: type(of: expression))
        return String(name.prefix { $0 != "<" })
    }
}

/// The SQL of a predicate node, and whether it is a condition (SQL that is true or false: PostgreSQL's
/// `boolean`) or a value (a column, a bound value, arithmetic).
struct PredicateSQL {
    var fragment: SQLFragment
    var isCondition: Bool

    static func condition(_ sql: String, _ arguments: StatementArguments = []) -> PredicateSQL {
        condition(SQLFragment(sql: sql, arguments: arguments))
    }

    static func condition(_ fragment: SQLFragment) -> PredicateSQL { PredicateSQL(fragment: fragment, isCondition: true) }

    static func value(_ sql: String, _ arguments: StatementArguments = []) -> PredicateSQL {
        value(SQLFragment(sql: sql, arguments: arguments))
    }

    static func value(_ fragment: SQLFragment) -> PredicateSQL { PredicateSQL(fragment: fragment, isCondition: false) }
}

/// A `PredicateExpressions` node with an SQL translation.
protocol SQLPredicateExpression {
    /// The node's SQL, translating its children with `translation`.
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL
}
