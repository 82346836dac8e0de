#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A migration as recorded in the database's `schema_migrations`.
public struct AppliedMigration: Sendable, Hashable {
    /// The identity of the migration's set.
    public let set: String
    /// The migration's version within its set.
    public let version: Int
    /// The migration's name when it was applied.
    public let name: String
    /// The checksum of its SQL (or revision) when it was applied.
    public let checksum: String
    /// When it was applied.
    public let appliedAt: Date
}
