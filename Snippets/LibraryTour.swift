// The README's library tour: a catalog opened, seeded, written, listed, searched and followed live.
import Catalog
import FetchedResults
import Foundation
import SQLiteStore
import TextSearch

let path = "/tmp/tour.sqlite"                                 // any file; created if missing
// snippet.hide
for file in [path, "/tmp/tour-notes.sqlite"] {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
}
// snippet.show

// Open a catalog file (created and migrated as needed) and add the built-in products and phones.
let store = try CatalogStore(path: path)
try store.seed(SeedFile.builtIn)

// A write is validated, then one transaction; the returned record has its id.
let nano = try store.insert(Product(type: .device, name: "iPod nano", yearIntroduced: 2005, introPrice: 199))

// Sections, as `catalog list --scope device --sort price` prints them.
for section in try store.sections(ListRequest<Product>(scope: .device, sort: .price)) {
    print(section.name, section.records.map(\.name))
}

// Search: every term a substring of the folded name, or a number equal to the year or price.
let found = try store.search(SearchQuery("ipod 2005"), in: ListRequest<Product>())
print(found.flatMap(\.records).map(\.name))                  // ["iPod nano"]

// A fetched-results controller: section counts, index paths, rows read a batch at a time.
let controller = try store.fetchedResults(ListRequest<Product>(searchText: "mac"), batchSize: 50)
let first = try controller.object(at: ItemPath(section: 0, row: 0))
print(controller.sections.map(\.name), first.name, try controller.indexPath(for: first) as Any)

// Live changes: the controller learns which rows a commit changed, in this process or another.
let devices = try store.trackedResults(ListRequest<Product>(scope: .device))
_ = try store.delete(Product.self, id: nano.id!)
print(try devices.applyPendingChanges())                     // the delete, at its index path

// The store layer alone, for any schema.
let queue = try DatabaseQueue(path: "/tmp/tour-notes.sqlite")
try queue.write { db in                                       // one IMMEDIATE transaction
    try db.execute(sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    try db.execute(sql: "INSERT INTO note(text) VALUES (?)", arguments: ["hello"])
}
let texts = try queue.read { db in
    try db.fetchAll(sql: "SELECT text FROM note ORDER BY id") { try $0.decode(String.self, at: 0) }
}
print(texts)
