/// An index of a declared entity's table, in the order a fetch request reads its rows: by the
/// section expression of `sectionedBy` (when given), then the sort expression of each key path (a
/// folded text's folded column), then `id`, the order a `FetchRequest` with those sort descriptors
/// and that section key path reads (section counts and pages of a section read the index in order
/// instead of sorting the table). The rows of a sectioned index are counted by section
/// (`SectionCounts`, kept by triggers): a controller of the whole table reads its sections' counts
/// without a `GROUP BY`.
///
/// ```swift
/// indexes: [EntityIndex(\.author, \.title, sectionedBy: \.author)]   // books_by_author_title
/// ```
public struct EntityIndex<Entity: DeclaredEntity>: Sendable {
    /// The sort key paths, in order.
    public let keyPaths: [PartialKeyPath<Entity> & Sendable]
    /// The section key path, if the rows are read in sections.
    public let sectionKeyPath: (PartialKeyPath<Entity> & Sendable)?

    /// An index by `keyPaths` (attributes of the entity).
    public init(_ keyPaths: (PartialKeyPath<Entity> & Sendable)...) {
        self.keyPaths = keyPaths
        self.sectionKeyPath = nil
    }

    /// An index by `keyPaths` (attributes of the entity), in sections by `sectionedBy`.
    public init(_ keyPaths: (PartialKeyPath<Entity> & Sendable)..., sectionedBy: PartialKeyPath<Entity> & Sendable) {
        self.keyPaths = keyPaths
        self.sectionKeyPath = sectionedBy
    }
}
