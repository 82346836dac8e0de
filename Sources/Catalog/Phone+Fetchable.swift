import FetchedResults
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore
import TextSearch

extension Phone: CatalogEntity {
    /// Phones list in sections by their sort field: by name's initial, by maker or by year; a maker or
    /// year sort then orders by name within a section. They have no scope.
    public static func listFetchRequest(sortedBy field: SortField, order: SortOrder) -> FetchRequest<Phone>? {
        switch field {
        case .name:
            FetchRequest(sortDescriptors: [SortDescriptor(\.name, order: order)], sectionKeyPath: \Phone.name)
        case .maker:
            FetchRequest(
                sortDescriptors: [SortDescriptor(\.maker, order: order), SortDescriptor(\.name)], sectionKeyPath: \Phone.maker)
        case .year:
            FetchRequest(
                sortDescriptors: [SortDescriptor(\.yearReleased, order: order), SortDescriptor(\.name)],
                sectionKeyPath: \Phone.yearReleased)
        case .price: nil
        }
    }
}
