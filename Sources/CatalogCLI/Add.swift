import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog add`: a new product or phone.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            _superCommandName: CatalogCommand.commandName,
            abstract: "Add a product or a phone.",
            discussion: """
                Examples:
                  catalog add product --type device --name "iPhone 16" --year 2024 --price 799
                  catalog add phone --name "Pixel 9" --maker Google --year 2024 --os Android --screen 6.3
                """)

        @Argument(entityWordHelp: "product or phone (same as --entity).", words: ["product", "phone"])
        var entityWord: EntityKind?

        @OptionGroup var store: StoreOptions
        @OptionGroup var fields: EntityFieldOptions

        // Checked while parsing (run() reads the same), so that a product/phone word that --entity
        // contradicts is told with this command's usage, not the root's.
        func validate() throws {
            _ = try resolveEntity(word: entityWord, option: store.entity)
            try fields.validateOtherFields()
        }

        func run() throws {
            let entity = try resolveEntity(word: entityWord, option: store.entity)
            try reportingFailures { try add(entity.entityType) }
        }

        private func add<Entity: CatalogEntity>(_ type: Entity.Type) throws {
            try fields.validate(for: Entity.self, complete: true)
            // The declaration's template, each field replaced by its (required) option.
            let record = try fields.applied(to: Entity.declaration.template)
            let catalog = try store.openStoreForWriting()
            let saved = try catalog.insert(record)
            try closeAfterWriting(catalog, written: "\(saved.summary) was added")
            try report(saved)
        }

        private func report<Entity: CatalogEntity>(_ record: Entity) throws {
            Terminal.print(store.json ? try renderJSON(PathedEntity(path: nil, record: record)) : "Added \(record.summary)")
        }
    }
}

