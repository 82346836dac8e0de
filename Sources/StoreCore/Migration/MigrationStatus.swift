#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A migration's state in one database, for `catalog migrate --status`.
public struct MigrationStatus: Sendable, Hashable {
    /// Whether and how a migration is applied.
    public enum State: String, Sendable {
        /// Applied, with the same SQL (or revision) as now.
        case applied
        /// Not applied yet.
        case pending
        /// Applied, but its SQL (or revision) changed since.
        case modified
        /// Recorded in the database but unknown to this code: of a known set, a newer program applied
        /// it; of another set, a program this one does not speak for.
        case unknown
    }
    /// The identity of the migration's set.
    public let set: String
    /// The migration's version within its set.
    public let version: Int
    /// The migration's name.
    public let name: String
    /// Its state.
    public let state: State
    /// When it was applied, if it was.
    public let appliedAt: Date?
}
