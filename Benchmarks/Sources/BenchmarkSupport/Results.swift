/// A row of the W4 list: what places it (type, then folded name, then id) and what it shows.
public struct LiveRow: Sendable, Hashable {
    public var id: Int64
    public var type: String
    public var name: String

    public init(id: Int64, type: String, name: String) {
        self.id = id
        self.type = type
        self.name = name
    }
}

extension Array where Element == LiveRow {
    /// The id of the row named `name` (the inserted row's id, which the writer's database chose).
    public func idOfName(_ name: String) -> Int64 {
        first { $0.name == name }?.id ?? -1
    }
}

extension CollectionDifference where ChangeElement == LiveRow {
    /// Whether this difference is the change set `change` makes.
    public func matches(_ change: LiveChange, insertedID: Int64) -> Bool {
        var removed = Set<Int64>()
        var inserted = Set<Int64>()
        for step in self {
            switch step {
            case .remove(_, let row, _): removed.insert(row.id)
            case .insert(_, let row, _): inserted.insert(row.id)
            }
        }
        return change.isMatched(removedIDs: removed, insertedIDs: inserted, insertedID: insertedID)
    }
}

/// A W4 observer delivered a change set other than the one committed.
public struct WrongChangeSet: Error, CustomStringConvertible {
    public var contender: String
    public init(contender: String) { self.contender = contender }
    public var description: String { "\(contender): the W4 observer delivered a wrong change set" }
}

/// What a list shows first (W5, W6): its sections with their counts, and its first rows.
public struct FirstPage: Sendable {
    public var sections: [(name: String, count: Int)] = []
    public var rows: [BenchProduct] = []

    public init() {}

    public var fingerprint: Fingerprint {
        var fingerprint = Fingerprint()
        for (name, count) in sections {
            fingerprint.combine(name.lowercased())
            fingerprint.combine(Int64(count))
        }
        for row in rows {
            fingerprint.combine(row.id)
            fingerprint.combine(row.name)
        }
        return fingerprint
    }
}

extension Fingerprint {
    /// A fingerprint of ids in order.
    public static func ofIDs(_ ids: some Sequence<Int64>) -> Fingerprint {
        var fingerprint = Fingerprint()
        for id in ids { fingerprint.combine(id) }
        return fingerprint
    }

    /// A fingerprint of a search result: the total count and the first page's ids.
    public static func ofSearch(count: Int64, ids: [Int64]) -> Fingerprint {
        var fingerprint = Fingerprint()
        fingerprint.combine(count)
        for id in ids { fingerprint.combine(id) }
        return fingerprint
    }
}
