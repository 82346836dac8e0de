import CSQLite
import Foundation

/// A Swift type that can be bound to a statement parameter and read back from a column.
///
/// The library conforms `Int`, `Int64`, `Int32`, `Double`, `String`, `Data`, `Bool`, `Date`,
/// ``DatabaseValue`` and `Optional` of any of them. Conform your own types (an enum with a raw value,
/// say) by converting to and from ``DatabaseValue``:
///
/// ```swift
/// extension Kind: DatabaseValueConvertible {
///     public var databaseValue: DatabaseValue { rawValue.databaseValue }
///     public static func fromDatabaseValue(_ value: DatabaseValue) -> Kind? {
///         String.fromDatabaseValue(value).flatMap(Kind.init(rawValue:))
///     }
/// }
/// ```
public protocol DatabaseValueConvertible: Sendable {
    /// The value to store.
    var databaseValue: DatabaseValue { get }
    /// The Swift value for a stored value, or nil when the stored value does not convert.
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
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
