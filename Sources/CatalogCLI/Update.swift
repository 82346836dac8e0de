import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog update`: changes fields of a record, by id.
    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
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

        @Option(help: ArgumentHelp("A new name.", valueName: "name"))
        var name: String?

        @Option(
            help: ArgumentHelp("Product: a new type (device, desktop or portable).", valueName: "type"),
            completion: .list(ProductType.allCases.map(\.rawValue)))
        var type: String?

        @Option(help: ArgumentHelp("A new year introduced or released.", valueName: "year"))
        var year: String?

        @Option(help: ArgumentHelp("Product: a new intro price.", valueName: "price"))
        var price: String?

        @Option(help: ArgumentHelp("Phone: a new maker.", valueName: "maker"))
        var maker: String?

        @Option(help: ArgumentHelp("Phone: a new operating system.", valueName: "os"))
        var os: String?

        @Option(help: ArgumentHelp("Phone: a new screen size in inches.", valueName: "inches"))
        var screen: String?

        func validate() throws {
            if [name, type, year, price, maker, os, screen].allSatisfy({ $0 == nil }) {
                throw ValidationError("give at least one field to change")
            }
        }

        func run() throws {
            let entity = store.entity ?? .products
            let foreign = (entity == .products
                ? [("--maker", maker), ("--os", os), ("--screen", screen)]
                : [("--type", type), ("--price", price)]).filter { $0.1 != nil }.map(\.0)
            guard foreign.isEmpty else {
                throw ValidationError("\(foreign.joined(separator: ", ")) do not apply to a \(entity.singular)")
            }
            try reportingFailures {
                let catalog = try store.openStore()
                switch entity {
                case .products:
                    guard var product = try catalog.fetchOne(Product.self, id: id) else {
                        throw CatalogError.notFound(entity: .products, id: id)
                    }
                    if let name { product.name = name }
                    if let type { product.type = try ProductType(parsing: type) }
                    if let year { product.yearIntroduced = try FieldParsing.year(year) }
                    if let price { product.introPrice = try FieldParsing.amount(price, field: "price") }
                    try catalog.update(product)
                    try report(try catalog.fetchOne(Product.self, id: id) ?? product)
                case .phones:
                    guard var phone = try catalog.fetchOne(Phone.self, id: id) else {
                        throw CatalogError.notFound(entity: .phones, id: id)
                    }
                    if let name { phone.name = name }
                    if let maker { phone.maker = maker }
                    if let os { phone.operatingSystem = os }
                    if let year { phone.yearReleased = try FieldParsing.year(year) }
                    if let screen { phone.screenInches = try FieldParsing.amount(screen, field: "screen") }
                    try catalog.update(phone)
                    try report(try catalog.fetchOne(Phone.self, id: id) ?? phone)
                }
            }
        }

        private func report<Record: RenderableRecord>(_ record: Record) throws {
            Terminal.print(store.json ? try renderJSON(PathedRecord(path: nil, record: record)) : "Updated \(record.summary)")
        }
    }
}
