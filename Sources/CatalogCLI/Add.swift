import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog add`: a new product or phone.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
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

        @Option(help: ArgumentHelp("The name, unique among records of its entity.", valueName: "name"))
        var name: String?

        @Option(
            help: ArgumentHelp("Product: device, desktop or portable.", valueName: "type"),
            completion: .list(ProductType.allCases.map(\.rawValue)))
        var type: String?

        @Option(help: ArgumentHelp("The year introduced (products) or released (phones).", valueName: "year"))
        var year: String?

        @Option(help: ArgumentHelp("Product: the introductory price in dollars, such as 599.00.", valueName: "price"))
        var price: String?

        @Option(help: ArgumentHelp("Phone: who makes it.", valueName: "maker"))
        var maker: String?

        @Option(help: ArgumentHelp("Phone: its operating system.", valueName: "os"))
        var os: String?

        @Option(help: ArgumentHelp("Phone: the screen diagonal in inches.", valueName: "inches"))
        var screen: String?

        func run() throws {
            let entity = try resolveEntity(word: entityWord, option: store.entity)
            let fields: [(String, String?)] = entity == .products
                ? [("--name", name), ("--type", type), ("--year", year), ("--price", price)]
                : [("--name", name), ("--maker", maker), ("--year", year), ("--os", os), ("--screen", screen)]
            let missing = fields.filter { $0.1 == nil }.map(\.0)
            guard missing.isEmpty else {
                throw ValidationError("missing \(missing.joined(separator: ", ")) for a new \(entity.singular)")
            }
            let foreign = (entity == .products
                ? [("--maker", maker), ("--os", os), ("--screen", screen)]
                : [("--type", type), ("--price", price)]).filter { $0.1 != nil }.map(\.0)
            guard foreign.isEmpty else {
                throw ValidationError("\(foreign.joined(separator: ", ")) do not apply to a \(entity.singular)")
            }
            try reportingFailures {
                switch entity {
                case .products:
                    let product = Product(
                        type: try ProductType(parsing: type!), name: name!,
                        yearIntroduced: try FieldParsing.year(year!),
                        introPrice: try FieldParsing.amount(price!, field: "price"))
                    try report(try store.openStore().insert(product))
                case .phones:
                    let phone = Phone(
                        name: name!, maker: maker!, yearReleased: try FieldParsing.year(year!), operatingSystem: os!,
                        screenInches: try FieldParsing.amount(screen!, field: "screen"))
                    try report(try store.openStore().insert(phone))
                }
            }
        }

        private func report<Record: RenderableRecord>(_ record: Record) throws {
            Terminal.print(store.json ? try renderJSON(PathedRecord(path: nil, record: record)) : "Added \(record.summary)")
        }
    }
}

