import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog update`: changes fields of a record, by id.
    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Change fields of a record by id (rename, retype, reprice…).",
            discussion: """
                Examples:
                  catalog update 3 --name "iPod touch (1st generation)"
                  catalog update 7 --type portable --price 1999
                  catalog update 12 --entity phones --maker Google
                """)

        @Argument(help: ArgumentHelp("The id of the record to change.", valueName: "id"))
        var id: Int64

        @OptionGroup var store: StoreOptions
        @OptionGroup var fields: RecordFieldOptions

        func validate() throws {
            if fields.isEmpty { throw ValidationError("give at least one field to change") }
        }

        func run() throws {
            let entity = store.entity ?? .products
            try reportingFailures {
                try fields.validate(for: entity, complete: false)
                let catalog = try store.openStoreForWriting()
                switch entity {
                case .products:
                    guard let product = try catalog.fetchOne(Product.self, id: id) else {
                        throw CatalogError.notFound(entity: .products, id: id)
                    }
                    try catalog.update(try fields.applied(to: product))
                    try report(try catalog.fetchOne(Product.self, id: id) ?? product)
                case .phones:
                    guard let phone = try catalog.fetchOne(Phone.self, id: id) else {
                        throw CatalogError.notFound(entity: .phones, id: id)
                    }
                    try catalog.update(try fields.applied(to: phone))
                    try report(try catalog.fetchOne(Phone.self, id: id) ?? phone)
                }
            }
        }

        private func report<Record: RenderableRecord>(_ record: Record) throws {
            Terminal.print(store.json ? try renderJSON(PathedRecord(path: nil, record: record)) : "Updated \(record.summary)")
        }
    }
}
