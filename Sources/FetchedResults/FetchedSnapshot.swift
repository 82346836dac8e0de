/// A whole fetched result as row ids: every section, and the ids of its rows in order.
///
/// The reference a live controller is checked against: refetch, then compare (or `difference(from:)`
/// each section's ``ids``) with the previous snapshot. Ids only, so a snapshot of a million rows takes
/// 8 MB.
public struct FetchedSnapshot: Sendable, Hashable {
    /// A section and its row ids, in order.
    public struct Section: Sendable, Hashable {
        /// The section's name, index title, count and key.
        public var info: FetchedSection
        /// The ids of its rows, in order.
        public var ids: [Int64]

        /// Creates a section.
        public init(info: FetchedSection, ids: [Int64]) {
            self.info = info
            self.ids = ids
        }
    }

    /// The sections, in order.
    public var sections: [Section]

    /// Creates a snapshot.
    public init(sections: [Section]) {
        self.sections = sections
    }

    /// The ids of all rows, section after section.
    public var allIDs: [Int64] { sections.flatMap(\.ids) }

    /// The index path of the row with this id, if it is in the snapshot.
    ///
    /// - Complexity: O(n), n being the number of rows.
    public func itemPath(ofID id: Int64) -> ItemPath? {
        for (index, section) in sections.enumerated() {
            if let row = section.ids.firstIndex(of: id) { return ItemPath(section: index, row: row) }
        }
        return nil
    }
}
