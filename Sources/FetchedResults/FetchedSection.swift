import SQLiteStore

/// One section of a fetched result: its name, its index title and how many objects it holds.
///
/// The counterpart of Core Data's `NSFetchedResultsSectionInfo`, without the objects: read them with
/// ``FetchedResultsController/object(at:)-6salg``, which loads them a batch at a time.
public struct FetchedSection: Sendable, Hashable {
    /// The section's name (`Device`, `E`, `2007`); empty for the one section of an unsectioned result.
    public var name: String
    /// The title of the section in a section index: its name's first character, uppercased.
    public var indexTitle: String
    /// The number of objects in the section.
    public var numberOfObjects: Int
    /// The value of the section expression shared by the section's rows (NULL without sections).
    public var key: DatabaseValue

    /// Creates a section.
    public init(name: String, indexTitle: String, numberOfObjects: Int, key: DatabaseValue) {
        self.name = name
        self.indexTitle = indexTitle
        self.numberOfObjects = numberOfObjects
        self.key = key
    }

    /// The index title for a section name: its first character, uppercased.
    public static func indexTitle(forSectionName name: String) -> String {
        name.first.map { String($0).uppercased() } ?? ""
    }
}
