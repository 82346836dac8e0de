import FetchedResults
import Foundation
import SQLiteStore

extension Phone {
    /// The SQL of each key path of a phone: the one place where they map to columns.
    ///
    /// Names and makers filter on the column, sort on its folded form; names section by the folded
    /// initial (`É` under `E`; the first Unicode scalar of the folded name, which SQL can compute, so an
    /// emoji flag files under its first regional indicator), makers by the maker as spelled (a
    /// section's name must follow from its key alone, so `Apple` and `apple` are two sections).
    public static func column(for keyPath: PartialKeyPath<Phone>) -> EntityColumn? {
        switch keyPath {
        case \Phone.id: EntityColumn("id")
        case \Phone.name: EntityColumn("name", sortedBy: "name_folded", sectionedBy: FoldedInitial.sql)
        case \Phone.maker: EntityColumn("maker", sortedBy: "maker_folded", sectionedBy: "maker")
        case \Phone.yearReleased: EntityColumn("year_released")
        case \Phone.operatingSystem: EntityColumn("operating_system")
        case \Phone.screenInches: EntityColumn("screen_inches")
        default: nil
        }
    }

    /// The uppercased initial for a name section; the maker or year as stored otherwise.
    public static func sectionName(for value: DatabaseValue, keyPath: PartialKeyPath<Phone>) -> String {
        switch (keyPath, value) {
        case (\Phone.name, .text(let initial)): initial.uppercased()
        case (_, .text(let text)): text
        default: value.description
        }
    }

    /// Phones that match `text` under the search semantics of ``SearchQuery`` (name or maker).
    public static func searchCondition(for text: String) -> SQLFragment? {
        let condition = SearchQuery.sqlCondition(for: text, entity: .phones, tableAlias: tableName)
        return SQLFragment(sql: condition.sql, arguments: condition.arguments)
    }

    /// Lists phones sectioned by their sort field: by name's initial, by maker or by year; a maker or
    /// year sort then orders by name within a section.
    public static func fetchRequest(for request: ListRequest) -> FetchRequest<Phone> {
        let order: SortOrder = request.isReversed ? .reverse : .forward
        let byName = SortDescriptor(\Phone.name, order: order)
        return switch request.sort {
        case .maker:
            FetchRequest(
                sortDescriptors: [SortDescriptor(\.maker, order: order), SortDescriptor(\.name)],
                searchText: request.searchText, sectionKeyPath: \Phone.maker)
        case .year:
            FetchRequest(
                sortDescriptors: [SortDescriptor(\.yearReleased, order: order), SortDescriptor(\.name)],
                searchText: request.searchText, sectionKeyPath: \Phone.yearReleased)
        case .name, .price:
            FetchRequest(sortDescriptors: [byName], searchText: request.searchText, sectionKeyPath: \Phone.name)
        }
    }
}

/// The section expression of a name: the first character of its folded form, which is already
/// lowercase and without diacritics, so `Émile` and `eve` share the section `E`. Indexed by
/// migration 0003 for phones.
enum FoldedInitial {
    static let sql = "substr(name_folded, 1, 1)"
}
