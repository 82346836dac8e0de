import FetchedResults
import Foundation
import SQLiteStore
import TextSearch

extension Phone {
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
