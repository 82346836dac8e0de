#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

// The `PredicateExpressions` nodes that translate to SQL (see `PredicateTranslation`). Anything not
// here is rejected by name.

// MARK: - Leaves: key paths, variables, values, nil

extension PredicateExpressions.KeyPath: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        guard let variable = root as? any VariableExpression, variable.variableKey == translation.root else {
            throw FetchError.unmappedKeyPath(String(describing: keyPath))
        }
        guard let column = translation.column(keyPath) else {
            throw FetchError.unmappedKeyPath(String(describing: keyPath))
        }
        return SQLFragment(sql: column.name)
    }
}

/// A variable node, seen through its key.
protocol VariableExpression {
    var variableKey: PredicateExpressions.VariableID { get }
}

extension PredicateExpressions.Variable: VariableExpression {
    var variableKey: PredicateExpressions.VariableID { key }
}

extension PredicateExpressions.Variable: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        // The root variable alone (`$0 == other`) is a whole entity: no SQL value.
        guard let bound = translation.variables[key] else { throw FetchError.unsupportedPredicate("Variable") }
        return bound
    }
}

/// A captured value, seen without its type.
protocol CapturedValueExpression {
    var capturedValue: Any { get }
}

extension PredicateExpressions.Value: CapturedValueExpression {
    var capturedValue: Any { value }
}

extension PredicateExpressions.Value: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        SQLFragment(sql: "?", arguments: StatementArguments(values: [try Self.databaseValue(value)]))
    }

    /// The value to bind for a captured Swift value.
    static func databaseValue(_ value: Any) throws -> DatabaseValue {
        guard let convertible = value as? any DatabaseValueConvertible else {
            throw FetchError.unsupportedPredicate("Value<\(type(of: value))>")
        }
        return convertible.databaseValue
    }
}

extension PredicateExpressions.NilLiteral: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment { SQLFragment(sql: "NULL") }
}

// MARK: - Logic

extension PredicateExpressions.Conjunction: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        try binary(translation: &translation, lhs, "AND", rhs)
    }
}

extension PredicateExpressions.Disjunction: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        try binary(translation: &translation, lhs, "OR", rhs)
    }
}

extension PredicateExpressions.Negation: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        let operand = try translation.translate(wrapped)
        return SQLFragment(sql: "(NOT \(operand.sql))", arguments: operand.arguments)
    }
}

extension PredicateExpressions.Conditional: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        let parts = [try translation.translate(test), try translation.translate(trueBranch), try translation.translate(falseBranch)]
        return SQLFragment(
            sql: "(CASE WHEN \(parts[0].sql) THEN \(parts[1].sql) ELSE \(parts[2].sql) END)",
            arguments: parts[0].arguments + parts[1].arguments + parts[2].arguments)
    }
}

// MARK: - Comparisons

extension PredicateExpressions.Equal: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        // `IS` compares NULL with NULL as true, as Swift compares nil with nil, and is never NULL.
        try binary(translation: &translation, lhs, "IS", rhs)
    }
}

extension PredicateExpressions.NotEqual: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        try binary(translation: &translation, lhs, "IS NOT", rhs)
    }
}

extension PredicateExpressions.Comparison: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        let symbol = switch op {
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqual: ">="
        }
        return try binary(translation: &translation, lhs, symbol, rhs)
    }
}

// MARK: - Arithmetic

extension PredicateExpressions.Arithmetic: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        let symbol = switch op {
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        }
        return try binary(translation: &translation, lhs, symbol, rhs)
    }
}

extension PredicateExpressions.FloatDivision: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        try binary(translation: &translation, lhs, "/", rhs)
    }
}

extension PredicateExpressions.IntDivision: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        // SQLite's integer division truncates toward zero, as Swift's does.
        try binary(translation: &translation, lhs, "/", rhs)
    }
}

extension PredicateExpressions.IntRemainder: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        // SQLite's `%` takes the dividend's sign, as Swift's `%` does.
        try binary(translation: &translation, lhs, "%", rhs)
    }
}

extension PredicateExpressions.UnaryMinus: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        let operand = try translation.translate(wrapped)
        return SQLFragment(sql: "(- \(operand.sql))", arguments: operand.arguments)
    }
}

// MARK: - Optionals

extension PredicateExpressions.OptionalFlatMap: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        // `wrapped.flatMap { v in transform }`: NULL when wrapped is NULL, else transform with v = wrapped.
        let value = try translation.translate(wrapped)
        translation.variables[variable.key] = value
        defer { translation.variables[variable.key] = nil }
        let body = try translation.translate(transform)
        return SQLFragment(
            sql: "(CASE WHEN \(value.sql) IS NULL THEN NULL ELSE \(body.sql) END)",
            arguments: value.arguments + body.arguments)
    }
}

extension PredicateExpressions.NilCoalesce: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        let parts = [try translation.translate(lhs), try translation.translate(rhs)]
        return SQLFragment(sql: "coalesce(\(parts[0].sql), \(parts[1].sql))", arguments: parts[0].arguments + parts[1].arguments)
    }
}

// MARK: - Text and sequences

extension PredicateExpressions.CollectionContainsCollection: SQLPredicateExpression
where Base.Output == String, Other.Output == String {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        // Case-sensitive, as Swift's `contains`; `instr` of an empty string is 1, as "" is contained.
        let parts = [try translation.translate(base), try translation.translate(other)]
        let instr = translation.dialect.renamingFunctions("instr(")
        return SQLFragment(sql: "(\(instr)\(parts[0].sql), \(parts[1].sql)) > 0)", arguments: parts[0].arguments + parts[1].arguments)
    }
}

extension PredicateExpressions.SequenceStartsWith: SQLPredicateExpression
where Base.Output == String, Prefix.Output == String {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        // The first occurrence is at 1 exactly when the text starts with the prefix (and "" starts all).
        let parts = [try translation.translate(base), try translation.translate(prefix)]
        let instr = translation.dialect.renamingFunctions("instr(")
        return SQLFragment(sql: "(\(instr)\(parts[0].sql), \(parts[1].sql)) = 1)", arguments: parts[0].arguments + parts[1].arguments)
    }
}

extension PredicateExpressions.SequenceContains: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> SQLFragment {
        // Only a captured collection: `ids.contains($0.id)` becomes `id IN (?, ?, …)`.
        guard let captured = sequence as? any CapturedValueExpression, let values = captured.capturedValue as? any Sequence else {
            throw FetchError.unsupportedPredicate("SequenceContains (on anything but a captured collection)")
        }
        let databaseValues = try Self.elements(of: values).map { try PredicateExpressions.Value<Int>.databaseValue($0) }
        let item = try translation.translate(element)
        let nonNull = databaseValues.filter { !$0.isNull }
        var parts: [String] = []
        var arguments: StatementArguments = []
        if databaseValues.contains(where: \.isNull) {
            parts.append("\(item.sql) IS NULL")
            arguments += item.arguments
        }
        if !nonNull.isEmpty {
            // `coalesce`: `NULL IN (…)` is NULL; Swift's answer is false.
            parts.append("coalesce(\(item.sql) IN (\(nonNull.map { _ in "?" }.joined(separator: ", "))), \(translation.dialect.boolean(false)))")
            arguments += item.arguments + StatementArguments(values: nonNull)
        }
        if parts.isEmpty { return SQLFragment(sql: translation.dialect.boolean(false)) }
        return SQLFragment(sql: "(" + parts.joined(separator: " OR ") + ")", arguments: arguments)
    }

    private static func elements<S: Sequence>(of sequence: S) -> [Any] { sequence.map { $0 } }
}

// MARK: - Helpers

/// `(lhs op rhs)`, with both sides translated.
private func binary(translation: inout PredicateTranslation, _ lhs: Any, _ symbol: String, _ rhs: Any) throws -> SQLFragment {
    let left = try translation.translate(lhs)
    let right = try translation.translate(rhs)
    let sql = switch (translation.dialect, symbol) {
    case (.postgreSQL, "IS"): translation.dialect.isNotDistinct(left.sql, right.sql)
    case (.postgreSQL, "IS NOT"): "\(left.sql) IS DISTINCT FROM \(right.sql)"
    default: "\(left.sql) \(symbol) \(right.sql)"
    }
    return SQLFragment(sql: "(\(sql))", arguments: left.arguments + right.arguments)
}
