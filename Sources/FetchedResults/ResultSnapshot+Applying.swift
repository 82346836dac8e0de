/// A change set that does not fit the snapshot it is applied to.
public struct ChangeSetMismatch: Error, Sendable, CustomStringConvertible {
    /// What did not fit.
    public let reason: String

    public var description: String { "change set does not apply: \(reason)" }
}

extension ResultSnapshot {
    /// The snapshot after `changeSet`, applied as a `UITableView` batch update applies it: deletions and
    /// move sources at old paths first, then section insertions, then insertions and move destinations
    /// at new paths in ascending order. Updates must name a row that is at `from` before and `to` after.
    ///
    /// - Throws: ``ChangeSetMismatch`` when a path is out of range, a deleted section still has rows, or
    ///   an id is not where the change set says.
    public func applying(_ changeSet: ChangeSet) throws -> ResultSnapshot {
        var sections = self.sections
        let removals = changeSet.changes.compactMap { change -> (ItemPath, Int64)? in
            switch change {
            case .delete(let id, let path), .move(let id, let path, _): (path, id)
            case .insert, .update: nil
            }
        }.sorted { $0.0 > $1.0 }
        for (path, id) in removals {
            guard sections.indices.contains(path.section), sections[path.section].ids.indices.contains(path.row),
                  sections[path.section].ids[path.row] == id else {
                throw ChangeSetMismatch(reason: "no row \(id) at old path \(path)")
            }
            sections[path.section].ids.remove(at: path.row)
        }
        for section in changeSet.deletedSections.sorted(by: { $0.index > $1.index }) {
            guard sections.indices.contains(section.index), sections[section.index].name == section.name else {
                throw ChangeSetMismatch(reason: "no section \(section.name) at old index \(section.index)")
            }
            guard sections[section.index].ids.isEmpty else {
                throw ChangeSetMismatch(reason: "deleted section \(section.name) still has rows")
            }
            sections.remove(at: section.index)
        }
        for section in changeSet.insertedSections.sorted(by: { $0.index < $1.index }) {
            guard section.index <= sections.count else {
                throw ChangeSetMismatch(reason: "cannot insert section \(section.name) at \(section.index)")
            }
            sections.insert(Section(name: section.name, ids: []), at: section.index)
        }
        let insertions = changeSet.changes.compactMap { change -> (ItemPath, Int64)? in
            switch change {
            case .insert(let id, let path), .move(let id, _, let path): (path, id)
            case .delete, .update: nil
            }
        }.sorted { $0.0 < $1.0 }
        for (path, id) in insertions {
            guard sections.indices.contains(path.section), path.row <= sections[path.section].ids.count else {
                throw ChangeSetMismatch(reason: "cannot insert row \(id) at new path \(path)")
            }
            sections[path.section].ids.insert(id, at: path.row)
        }
        let result = ResultSnapshot(sections: sections)
        for case .update(let id, let from, let to) in changeSet.changes {
            guard self.id(at: from) == id, result.id(at: to) == id else {
                throw ChangeSetMismatch(reason: "updated row \(id) is not at \(from) before and \(to) after")
            }
        }
        if let empty = result.sections.first(where: \.ids.isEmpty) {
            throw ChangeSetMismatch(reason: "section \(empty.name) is left empty")
        }
        return result
    }
}
