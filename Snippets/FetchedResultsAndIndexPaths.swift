// Fetched results: a request, its sections, rows by index path, and the index path of a row.
import Catalog
import FetchedResults
import Foundation
import SQLiteStore

// snippet.hide
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fetched-results-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let store = try CatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path)
try store.seed(SeedFile.builtIn)
// snippet.show

// snippet.request
let request = FetchRequest<Product>(
    predicate: #Predicate { $0.yearIntroduced >= 2000 },
    sortDescriptors: [SortDescriptor(\.name)],        // within sections; sections come first
    sectionKeyPath: \Product.type,
    batchSize: 50)                                  // rows are read 50 at a time, when asked for
let controller = FetchedResultsController(request: request, reader: store.writer)
try controller.performFetch()                       // one GROUP BY: the sections and their counts
// snippet.end

// snippet.sections
for section in controller.sections {
    print(section.name, section.indexTitle, section.numberOfObjects)   // Desktop D 1, Device D 5, Portable P 2
}
print(controller.sectionIndexTitles)                // ["D", "P"]
let portables = controller.section(forSectionIndexTitle: "P")          // 2
let unknown = controller.section(forSectionIndexTitle: "X")            // nil, never a trap
// snippet.end

// snippet.paths
let path = ItemPath(section: 1, row: 0)
if controller.contains(path) {                      // check paths that come from users
    let product = try controller.object(at: path)   // reads the batch holding it
    print(product.name, try controller.indexPath(for: product) ?? "gone")   // iPad 1.0
}
let typed = try ItemPath(parsing: "1.0")            // what `catalog show 1.0` does with its argument
// snippet.end

// snippet.hide
precondition(portables == 2 && unknown == nil && typed == path)
try FileManager.default.removeItem(at: directory)
