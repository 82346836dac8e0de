/// The shape of a sectioned result: each section's name and the ids of its rows, in order.
///
/// This is what a fetched-results controller keeps in memory for a result of any size (8 bytes a row),
/// what a ``ChangeSet`` transforms, and what tests compare with a fresh fetch.
public struct ResultSnapshot: Hashable, Sendable, CustomStringConvertible {
    /// One section: its name (the section key's value) and its rows' ids.
    public struct Section: Hashable, Sendable {
        /// The section's name.
        public var name: String
        /// The ids of the section's rows, in the result's order.
        public var ids: [Int64]

        /// Creates a section.
        public init(name: String, ids: [Int64]) {
            self.name = name
            self.ids = ids
        }
    }

    /// The sections, in order. None is empty.
    public var sections: [Section]

    /// Creates a snapshot.
    public init(sections: [Section] = []) {
        self.sections = sections
    }

    /// The number of rows in all sections.
    public var count: Int { sections.reduce(0) { $0 + $1.ids.count } }

    /// The id at `path`, or nil when the path is outside the result.
    public func id(at path: ItemPath) -> Int64? {
        guard sections.indices.contains(path.section), sections[path.section].ids.indices.contains(path.row) else {
            return nil
        }
        return sections[path.section].ids[path.row]
    }

    /// The path of the row with `id`, if it is in the result.
    ///
    /// - Complexity: O(*n*) over the result's rows, a linear scan of contiguous ids.
    public func path(of id: Int64) -> ItemPath? {
        for (index, section) in sections.enumerated() {
            if let row = section.ids.firstIndex(of: id) { return ItemPath(section: index, row: row) }
        }
        return nil
    }

    /// Every row's path by id.
    public var pathsByID: [Int64: ItemPath] {
        var paths: [Int64: ItemPath] = [:]
        paths.reserveCapacity(count)
        for (index, section) in sections.enumerated() {
            for (row, id) in section.ids.enumerated() { paths[id] = ItemPath(section: index, row: row) }
        }
        return paths
    }

    public var description: String {
        sections.map { "\($0.name): \($0.ids.map(String.init).joined(separator: " "))" }.joined(separator: " | ")
    }
}
