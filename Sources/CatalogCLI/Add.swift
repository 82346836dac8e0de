import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog add`: a new product or phone.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a product or a phone.",
            discussion: """
                Examples:
                  catalog add product --type device --name "iPhone 16" --year 2024 --price 799
                  catalog add phone --name "Pixel 9" --maker Google --year 2024 --os Android --screen 6.3
                """)

        @Argument(
            help: ArgumentHelp("product or phone (same as --entity).", valueName: "entity"),
            completion: .list(["product", "phone"]),
            transform: parseEntity)
        var entityWord: Entity?

        @OptionGroup var store: StoreOptions
        @OptionGroup var fields: RecordFieldOptions

        func run() throws {
            let entity = try resolveEntity(word: entityWord, option: store.entity)
            try reportingFailures {
                try fields.validate(for: entity, complete: true)
                switch entity {
                case .products:
                    // Placeholders, each replaced by its (required) option.
                    let product = try fields.applied(to: Product(type: .device, name: "", yearIntroduced: 0, introPrice: 0))
                    try report(try store.openStoreForWriting().insert(product))
                case .phones:
                    let phone = try fields.applied(
                        to: Phone(name: "", maker: "", yearReleased: 0, operatingSystem: "", screenInches: 0))
                    try report(try store.openStoreForWriting().insert(phone))
                }
            }
        }

        private func report<Record: RenderableRecord>(_ record: Record) throws {
            Terminal.print(store.json ? try renderJSON(PathedRecord(path: nil, record: record)) : "Added \(record.summary)")
        }
    }
}

