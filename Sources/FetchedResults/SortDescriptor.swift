#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One key of a request's order: a key path that maps to a column, and a direction.
///
/// ```swift
/// FetchRequest<Film>(sortDescriptors: [SortDescriptor(\.director), SortDescriptor(\.year, order: .reverse)])
/// ```
///
/// It is spelled as Foundation's `SortDescriptor` is, so requests read the same, but it is this
/// module's own type: Foundation's lives in FoundationInternationalization, which brings ICU with
/// it, and a statically linked program that named it grows by that library and its thousand-odd
/// protocol conformance records, which the Swift runtime scans at start-up (W7). A
/// request never used a descriptor's comparator anyway: text sorts by its column's
/// ``EntityColumn/sortExpression``.
///
/// In a file that imports Foundation too, `SortDescriptor(\.name)` as an argument of a request is
/// this type, as the request expects it; where the type is named alone (`let sort:
/// SortDescriptor<Film>`, a descriptor built before its request), name it
/// `FetchedResults.SortDescriptor`.
public struct SortDescriptor<Compared>: Sendable {
    /// The property sorted by, which must map to a column (``FetchableEntity/column(for:)``).
    public let keyPath: PartialKeyPath<Compared> & Sendable
    /// Ascending (`.forward`) or descending (`.reverse`).
    public var order: SortOrder

    /// Sorts by a property's column.
    ///
    /// - Parameters:
    ///   - keyPath: the property, which must map to a column.
    ///   - order: `.forward` (ascending, the default) or `.reverse`.
    public init<Value: Comparable>(_ keyPath: KeyPath<Compared, Value> & Sendable, order: SortOrder = .forward) {
        self.keyPath = keyPath
        self.order = order
    }

    /// Sorts by an optional property's column.
    ///
    /// - Parameters:
    ///   - keyPath: the property, which must map to a column.
    ///   - order: `.forward` (ascending, the default) or `.reverse`.
    public init<Value: Comparable>(_ keyPath: KeyPath<Compared, Value?> & Sendable, order: SortOrder = .forward) {
        self.keyPath = keyPath
        self.order = order
    }
}
