/// The difference between two snapshots of a result, under the contract of a `UITableView` batch update.
///
/// Apply it as a table view applies `performBatchUpdates`:
/// 1. deletions — ``deletedSections`` and the ``Change/delete(id:at:)`` rows, at their **old** paths —
///    and the sources of ``Change/move(id:from:to:)`` are removed first;
/// 2. then ``insertedSections`` and the ``Change/insert(id:at:)`` rows and move destinations are placed
///    at their **new** paths, in ascending order.
///
/// A row whose position among the rows that stay changed is a move (also across sections); a row that
/// stayed in place but whose record changed is an ``Change/update(id:from:to:)``, with its old path (to
/// reload it, as `reloadRows(at:)` wants) and its new one. Rows neither moved nor changed are not listed.
/// ``ResultSnapshot/applying(_:)`` carries out exactly this contract, and tests check that applying
/// a change set to the old snapshot gives the new one.
public struct ChangeSet: Hashable, Sendable, CustomStringConvertible {
    /// One row's change, with the row's id.
    public enum Change: Hashable, Sendable, CustomStringConvertible {
        /// A row entered the result at `at`, a new path.
        case insert(id: Int64, at: ItemPath)
        /// A row left the result from `at`, an old path.
        case delete(id: Int64, at: ItemPath)
        /// A row moved from an old path to a new path (its record may also have changed).
        case move(id: Int64, from: ItemPath, to: ItemPath)
        /// A row's record changed and the row stayed in place: `from` is its old path, `to` its new one.
        case update(id: Int64, from: ItemPath, to: ItemPath)

        /// `insert 7 at 1.2`, `delete 7 at 1.2`, `move 7 1.2 → 0.0`, `update 7 1.2 → 1.1`.
        public var description: String {
            switch self {
            case .insert(let id, let path): "insert \(id) at \(path)"
            case .delete(let id, let path): "delete \(id) at \(path)"
            case .move(let id, let from, let to): "move \(id) \(from) → \(to)"
            case .update(let id, let from, let to): "update \(id) \(from) → \(to)"
            }
        }

        /// The id of the row that changed.
        public var id: Int64 {
            switch self {
            case .insert(let id, _), .delete(let id, _), .move(let id, _, _), .update(let id, _, _): id
            }
        }
    }

    /// A section that appeared or disappeared: its index (old for a deletion, new for an insertion)
    /// and its name.
    public struct SectionChange: Hashable, Sendable {
        /// The section's index: in the old snapshot for a deletion, in the new one for an insertion.
        public var index: Int
        /// The section's name.
        public var name: String

        /// Creates a section change.
        public init(index: Int, name: String) {
            self.index = index
            self.name = name
        }
    }

    /// Sections that are gone, by ascending old index. Their rows are also listed, as deletions or moves.
    public var deletedSections: [SectionChange]
    /// Sections that appeared, by ascending new index. Their rows are also listed, as insertions or moves.
    public var insertedSections: [SectionChange]
    /// Row changes: deletions by ascending old path, then insertions, moves and updates by ascending
    /// new path.
    public var changes: [Change]

    /// Creates a change set.
    public init(deletedSections: [SectionChange] = [], insertedSections: [SectionChange] = [], changes: [Change] = []) {
        self.deletedSections = deletedSections
        self.insertedSections = insertedSections
        self.changes = changes
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { deletedSections.isEmpty && insertedSections.isEmpty && changes.isEmpty }

    public var description: String {
        var parts: [String] = []
        for section in deletedSections { parts.append("delete section \(section.index) (\(section.name))") }
        for section in insertedSections { parts.append("insert section \(section.index) (\(section.name))") }
        parts += changes.map(\.description)
        return parts.isEmpty ? "no changes" : parts.joined(separator: ", ")
    }
}
