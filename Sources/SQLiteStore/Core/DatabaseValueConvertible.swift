import CSQLite
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Swift type that can be bound to a statement parameter and read back from a column.
///
/// The library conforms `Int`, `Int64`, `Int32`, `Double`, `String`, `Data`, `Bool`, `Date`,
/// `DatabaseValue` and `Optional` of any of them. Conform your own types (an enum with a raw value,
/// say) by converting to and from `DatabaseValue`:
///
/// ```swift
/// extension Kind: DatabaseValueConvertible {
///     public var databaseValue: DatabaseValue { rawValue.databaseValue }
///     public static func fromDatabaseValue(_ value: DatabaseValue) -> Kind? {
///         String.fromDatabaseValue(value).flatMap(Kind.init(rawValue:))
///     }
/// }
/// ```
///
/// Such an enum is read from its column without an intermediate `DatabaseValue`: its raw value is
/// read straight from the statement (``fromColumn(of:at:)``), when the raw value's type can be
/// (``StatementColumnConvertible``: `String`, `Int`, `Int64`, `Double`, `Bool`).
public protocol DatabaseValueConvertible: Sendable {
    /// The value to store.
    var databaseValue: DatabaseValue { get }
    /// The Swift value for a stored value, or nil when the stored value does not convert.
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
    /// The Swift value for the column at `index` of the statement's current row, or nil when it does
    /// not convert: the value ``fromDatabaseValue(_:)`` gives for the column's value.
    ///
    /// You need not write it. The default reads the column as a `DatabaseValue` and converts it; a
    /// ``StatementColumnConvertible`` type reads itself from the column, and a `RawRepresentable` type
    /// whose raw value is ``StatementColumnConvertible`` reads its raw value so, then the value with
    /// that raw value, without a `DatabaseValue` in between (W2 of Benchmarks/README.md).
    static func fromColumn(of sqliteStatement: SQLiteStatement, at index: Int32) -> Self?
}

// MARK: - Reading from a column

extension DatabaseValueConvertible {
    /// Converts the column's value with ``fromDatabaseValue(_:)``.
    @inlinable
    public static func fromColumn(of sqliteStatement: SQLiteStatement, at index: Int32) -> Self? {
        fromDatabaseValue(DatabaseValue(column: index, of: sqliteStatement))
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// Reads the value straight from the column (``StatementColumnConvertible/init(sqliteStatement:index:)``).
    @inlinable
    public static func fromColumn(of sqliteStatement: SQLiteStatement, at index: Int32) -> Self? {
        Self(sqliteStatement: sqliteStatement, index: index)
    }
}

extension DatabaseValueConvertible where Self: RawRepresentable, RawValue: StatementColumnConvertible {
    /// Reads the raw value straight from the column, then the value with that raw value.
    @inlinable  // specialized where the type is declared: an enum's case is read without generic code
    public static func fromColumn(of sqliteStatement: SQLiteStatement, at index: Int32) -> Self? {
        RawValue(sqliteStatement: sqliteStatement, index: index).flatMap(Self.init(rawValue:))
    }
}

extension DatabaseValueConvertible where Self: RawRepresentable & StatementColumnConvertible, RawValue: StatementColumnConvertible {
    /// Reads the value as its own ``StatementColumnConvertible`` conformance says (a type that is both
    /// would otherwise have two equally good defaults).
    @inlinable
    public static func fromColumn(of sqliteStatement: SQLiteStatement, at index: Int32) -> Self? {
        Self(sqliteStatement: sqliteStatement, index: index)
    }
}

// MARK: - Integers

extension Int64: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
        switch value {
        case .integer(let integer): return integer
        case .real(let real): return Int64(exactly: real)
        default: return nil
        }
    }
}

extension Int: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int? {
        Int64.fromDatabaseValue(value).flatMap { Int(exactly: $0) }
    }
}

extension Int32: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int32? {
        Int64.fromDatabaseValue(value).flatMap { Int32(exactly: $0) }
    }
}

extension Bool: DatabaseValueConvertible {
    /// Stored as the integer 0 or 1.
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        switch value {
        case .integer(let integer): return integer != 0
        case .real(let real): return real != 0
        default: return nil
        }
    }
}

// MARK: - Floating point

extension Double: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { isNaN ? .null : .real(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value {
        case .integer(let integer): return Double(integer)
        case .real(let real): return real
        default: return nil
        }
    }
}

// MARK: - Text and bytes

extension String: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
}

extension Data: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .blob(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Data? {
        switch value {
        case .blob(let data): return data
        case .text(let text): return Data(text.utf8)
        default: return nil
        }
    }
}

// MARK: - Dates

extension Date: DatabaseValueConvertible {
    /// Stored as a REAL number of seconds since 1970-01-01 00:00:00 UTC, which sorts in time order and
    /// works with SQLite's date functions through `'unixepoch'`.
    public var databaseValue: DatabaseValue { .real(timeIntervalSince1970) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Date? {
        Double.fromDatabaseValue(value).map(Date.init(timeIntervalSince1970:))
    }
}

// MARK: - Values and optionals

extension DatabaseValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// `nil` is stored as NULL.
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
    /// NULL reads as `.some(nil)`; another value reads as the wrapped type, or fails as it would.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        if value.isNull { return .some(nil) }
        return Wrapped.fromDatabaseValue(value).map { .some($0) }
    }
    /// NULL reads as `.some(nil)`; another value reads as the wrapped type reads it from the column.
    @inlinable
    public static func fromColumn(of sqliteStatement: SQLiteStatement, at index: Int32) -> Wrapped?? {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return .some(nil) }
        return Wrapped.fromColumn(of: sqliteStatement, at: index).map { .some($0) }
    }
}

extension RawRepresentable where Self: DatabaseValueConvertible, RawValue: DatabaseValueConvertible {
    /// A raw-representable value is stored as its raw value.
    @inlinable  // specialized for the enum in its own module, without generic metadata lookups per row
    public var databaseValue: DatabaseValue { rawValue.databaseValue }
    /// Reads the raw value, then the case with that raw value.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(value).flatMap(Self.init(rawValue:))
    }
}
