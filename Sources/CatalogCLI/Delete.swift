import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog delete`: removes a record by id.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a record by id.",
            discussion: """
                Examples:
                  catalog delete 10
                  catalog delete 3 --entity phones
                """)

        @Argument(help: ArgumentHelp("The id of the record to delete.", valueName: "id"))
        var id: Int64

        @OptionGroup var store: StoreOptions

        func run() throws {
            let entity = store.entity ?? .products
            try reportingFailures {
                let catalog = try store.openStore()
                switch entity {
                case .products: try report(try catalog.delete(Product.self, id: id))
                case .phones: try report(try catalog.delete(Phone.self, id: id))
                }
            }
        }

        private func report<Record: RenderableRecord>(_ record: Record) throws {
            Terminal.print(store.json ? try renderJSON(PathedRecord(path: nil, record: record)) : "Deleted \(record.summary)")
        }
    }
}
