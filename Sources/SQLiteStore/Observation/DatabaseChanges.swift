/// The row events committed to a database between two positions of its change log, in commit order.
///
/// A ``ChangeMonitor`` delivers one value per wake-up, holding every commit it found since the
/// previous delivery. Deliveries to one subscriber are contiguous: each one's ``fromSequence`` is the
/// previous one's ``toSequence``.
///
/// When ``isComplete`` is false, ``changes`` does not tell the whole story (``gap`` says why): the
/// reader must treat every row as possibly changed, typically by refetching and diffing.
///
/// ```swift
/// for await delivery in monitor.changes(after: snapshotSequence) {
///     guard delivery.isComplete else { refetchAndDiff(); continue }
///     let touched = delivery.rowIDs(inTable: "products")   // re-read only these rows
/// }
/// ```
public struct DatabaseChanges: Sendable, Hashable {
    /// Why a delivery is not complete.
    public enum Gap: Sendable, Hashable {
        /// Log entries after ``fromSequence`` were pruned before they were read, or there were more of
        /// them than a delivery holds.
        case fellBehind
        /// The schema changed (`PRAGMA schema_version`): tables may have been created, altered or
        /// dropped, or tracking installed or removed, so row events alone cannot describe the change.
        case schemaChanged
    }

    /// The log position the events follow (exclusive): the reader had seen everything up to here.
    public var fromSequence: Int64
    /// The log position of the last event included (inclusive); the next delivery starts here.
    public var toSequence: Int64
    /// The row events with a sequence in `fromSequence + 1 ... toSequence`, in commit order.
    ///
    /// Complete only when ``isComplete`` is true.
    public var changes: [RowChange]
    /// Why the events are not complete, or nil when they are.
    public var gap: Gap?

    /// Creates a change set.
    public init(fromSequence: Int64, toSequence: Int64, changes: [RowChange], gap: Gap? = nil) {
        self.fromSequence = fromSequence
        self.toSequence = toSequence
        self.changes = changes
        self.gap = gap
    }

    /// Whether ``changes`` holds every row event between the two positions.
    public var isComplete: Bool { gap == nil }

    /// Whether there is nothing to tell: no event and no gap.
    public var isEmpty: Bool { changes.isEmpty && gap == nil }

    /// The names of the tables with at least one event.
    public var tables: Set<String> { Set(changes.map(\.table)) }

    /// The rowids of `table` that were inserted, updated or deleted, whatever the order of events.
    ///
    /// Re-reading these rows tells their state after the last commit: present rows were inserted or
    /// updated, missing rows were deleted.
    ///
    /// - Complexity: O(`changes.count`)
    public func rowIDs(inTable table: String) -> Set<Int64> {
        Set(changes.lazy.filter { $0.table == table }.map(\.rowID))
    }

    /// These changes without the events at or before `sequence`, for a reader whose snapshot already
    /// includes them.
    ///
    /// ```swift
    /// // Subscribed before fetching; the fetch read the log's position `snapshotSequence`.
    /// let news = delivery.dropping(through: snapshotSequence)
    /// ```
    public func dropping(through sequence: Int64) -> DatabaseChanges {
        guard sequence > fromSequence else { return self }
        // Events lost to pruning may lie after `sequence`, unless the reader has seen everything; a
        // schema change cannot be placed in the log, so it is kept.
        let gap = sequence >= toSequence && self.gap == .fellBehind ? nil : self.gap
        return DatabaseChanges(
            fromSequence: min(sequence, toSequence), toSequence: toSequence,
            changes: changes.filter { $0.sequence > sequence }, gap: gap)
    }

    /// Appends the changes that follow these ones, as one delivery.
    ///
    /// - Precondition: `next.fromSequence == toSequence`, or `next` is incomplete.
    public mutating func append(_ next: DatabaseChanges) {
        precondition(next.fromSequence == toSequence || !next.isComplete,
                     "changes \(next.fromSequence)... do not follow changes up to \(toSequence)")
        toSequence = max(toSequence, next.toSequence)
        changes.append(contentsOf: next.changes)
        gap = gap ?? next.gap
    }
}
