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
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        // A key path of a value (`$0.name.count`) is no column: named by its type, as the standard
        // library prints its computed key paths by address.
        guard let variable = root as? any VariableExpression, variable.variableKey == translation.root else {
            throw FetchError.unsupportedPredicate("KeyPath of \(Root.Output.self)")
        }
        guard let column = translation.column(keyPath) else {
            throw FetchError.unmappedKeyPath(String(describing: keyPath))
        }
        return .value(column.name)
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
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
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
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        let value = try Self.databaseValue(value)
        return .value(translation.dialect.typedPlaceholder(for: value), StatementArguments(values: [value]))
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
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL { .value("NULL") }
}

// MARK: - Logic

extension PredicateExpressions.Conjunction: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        try logic(translation: &translation, lhs, "AND", rhs)
    }
}

extension PredicateExpressions.Disjunction: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        try logic(translation: &translation, lhs, "OR", rhs)
    }
}

extension PredicateExpressions.Negation: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        let operand = try translation.condition(wrapped)
        return .condition("(NOT \(operand.sql))", operand.arguments)
    }
}

extension PredicateExpressions.Conditional: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        let test = try translation.condition(test)
        let (ifTrue, ifFalse, isCondition) = translation.alike(try translation.translate(trueBranch), try translation.translate(falseBranch))
        return PredicateSQL(
            fragment: SQLFragment(
                sql: "(CASE WHEN \(test.sql) THEN \(ifTrue.sql) ELSE \(ifFalse.sql) END)",
                arguments: test.arguments + ifTrue.arguments + ifFalse.arguments),
            isCondition: isCondition)
    }
}

// MARK: - Comparisons

extension PredicateExpressions.Equal: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        // `IS` compares NULL with NULL as true, as Swift compares nil with nil, and is never NULL.
        try equality(translation: &translation, lhs, rhs, negated: false)
    }
}

extension PredicateExpressions.NotEqual: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        try equality(translation: &translation, lhs, rhs, negated: true)
    }
}

extension PredicateExpressions.Comparison: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        let symbol = switch op {
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqual: ">="
        }
        return .condition(try binary(translation: &translation, lhs, symbol, rhs))
    }
}

// MARK: - Arithmetic

extension PredicateExpressions.Arithmetic: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        let symbol = switch op {
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        }
        return .value(try binary(translation: &translation, lhs, symbol, rhs))
    }
}

extension PredicateExpressions.FloatDivision: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        .value(try binary(translation: &translation, lhs, "/", rhs))
    }
}

extension PredicateExpressions.IntDivision: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        // SQLite's integer division truncates toward zero, as Swift's does.
        .value(try binary(translation: &translation, lhs, "/", rhs))
    }
}

extension PredicateExpressions.IntRemainder: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        // SQLite's `%` takes the dividend's sign, as Swift's `%` does.
        .value(try binary(translation: &translation, lhs, "%", rhs))
    }
}

extension PredicateExpressions.UnaryMinus: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        let operand = try translation.value(wrapped)
        return .value("(- \(operand.sql))", operand.arguments)
    }
}

// MARK: - Optionals

extension PredicateExpressions.OptionalFlatMap: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        // `wrapped.flatMap { v in transform }`: NULL when wrapped is NULL, else transform with v = wrapped.
        let value = try translation.translate(wrapped)
        translation.variables[variable.key] = value
        defer { translation.variables[variable.key] = nil }
        let body = try translation.translate(transform)
        return PredicateSQL(
            fragment: SQLFragment(
                sql: "(CASE WHEN \(value.fragment.sql) IS NULL THEN NULL ELSE \(body.fragment.sql) END)",
                arguments: value.fragment.arguments + body.fragment.arguments),
            isCondition: body.isCondition)
    }
}

extension PredicateExpressions.NilCoalesce: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        let (left, right, isCondition) = translation.alike(try translation.translate(lhs), try translation.translate(rhs))
        return PredicateSQL(
            fragment: SQLFragment(sql: "coalesce(\(left.sql), \(right.sql))", arguments: left.arguments + right.arguments),
            isCondition: isCondition)
    }
}

// MARK: - Text and sequences

extension PredicateExpressions.CollectionContainsCollection: SQLPredicateExpression
where Base.Output == String, Other.Output == String {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        // Case-sensitive, as Swift's `contains`; `instr` of an empty string is 1, as "" is contained.
        let parts = [try translation.value(base), try translation.value(other)]
        let instr = translation.dialect.renamingFunctions("instr(")
        return .condition("(\(instr)\(parts[0].sql), \(parts[1].sql)) > 0)", parts[0].arguments + parts[1].arguments)
    }
}

extension PredicateExpressions.SequenceStartsWith: SQLPredicateExpression
where Base.Output == String, Prefix.Output == String {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        // The first occurrence is at 1 exactly when the text starts with the prefix (and "" starts all).
        let parts = [try translation.value(base), try translation.value(prefix)]
        let instr = translation.dialect.renamingFunctions("instr(")
        return .condition("(\(instr)\(parts[0].sql), \(parts[1].sql)) = 1)", parts[0].arguments + parts[1].arguments)
    }
}

extension PredicateExpressions.SequenceContains: SQLPredicateExpression {
    func sql(in translation: inout PredicateTranslation) throws -> PredicateSQL {
        // Only a captured collection: `ids.contains($0.id)` becomes `id IN (?, ?, …)`.
        guard let captured = sequence as? any CapturedValueExpression, let values = captured.capturedValue as? any Sequence else {
            throw FetchError.unsupportedPredicate("SequenceContains (on anything but a captured collection)")
        }
        let databaseValues = try Self.elements(of: values).map { try PredicateExpressions.Value<Int>.databaseValue($0) }
        let item = try translation.value(element)
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
        if parts.isEmpty { return .condition(translation.dialect.boolean(false)) }
        return .condition("(" + parts.joined(separator: " OR ") + ")", arguments)
    }

    private static func elements<S: Sequence>(of sequence: S) -> [Any] { sequence.map { $0 } }
}

// MARK: - Helpers

/// `(lhs op rhs)` of two values.
private func binary(translation: inout PredicateTranslation, _ lhs: Any, _ symbol: String, _ rhs: Any) throws -> SQLFragment {
    let left = try translation.value(lhs)
    let right = try translation.value(rhs)
    return SQLFragment(sql: "(\(left.sql) \(symbol) \(right.sql))", arguments: left.arguments + right.arguments)
}

/// `(lhs AND rhs)` or `(lhs OR rhs)` of two conditions.
private func logic(translation: inout PredicateTranslation, _ lhs: Any, _ symbol: String, _ rhs: Any) throws -> PredicateSQL {
    let left = try translation.condition(lhs)
    let right = try translation.condition(rhs)
    return .condition("(\(left.sql) \(symbol) \(right.sql))", left.arguments + right.arguments)
}

/// `lhs == rhs` (or `!=`), NULL equal to NULL: SQLite's `IS` (`IS NOT`), PostgreSQL's `IS NOT
/// DISTINCT FROM` (`IS DISTINCT FROM`), of two conditions or two values.
private func equality(translation: inout PredicateTranslation, _ lhs: Any, _ rhs: Any, negated: Bool) throws -> PredicateSQL {
    let (left, right, _) = translation.alike(try translation.translate(lhs), try translation.translate(rhs))
    let sql = switch (translation.dialect, negated) {
    case (.sqlite, false): "\(left.sql) IS \(right.sql)"
    case (.sqlite, true): "\(left.sql) IS NOT \(right.sql)"
    case (.postgreSQL, false): translation.dialect.isNotDistinct(left.sql, right.sql)
    case (.postgreSQL, true): "\(left.sql) IS DISTINCT FROM \(right.sql)"
    }
    return .condition("(\(sql))", left.arguments + right.arguments)
}
