import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog update`: changes fields of a record, by id.
    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            _superCommandName: CatalogCommand.commandName,
            abstract: "Change fields of a record by id (rename, retype, reprice…).",
            // Written out: the generated one would show the id as optional (`[<id>]`), which it is only
            // to the parser (see `id`). A test checks it names every option the help lists.
            usage: """
                catalog update <id> [--database <path>] [--entity <entity>] [--json] [--name <name>] [--type <type>] \
                [--year <year>] [--price <price>] [--maker <maker>] [--os <os>] [--screen <inches>] [<--field value> ...]
                """,
            discussion: """
                Examples:
                  catalog update 3 --name "iPod touch (1st generation)"
                  catalog update 7 --type portable --price 1999
                  catalog update 12 --entity phones --maker Google
                """)

        // Optional only so that a missing or negative id (`update -1`, which the parser takes for an
        // option) is told in this command's words, by validate(), as `delete` and `show` tell theirs.
        @Argument(help: ArgumentHelp("The id of the record to change.", valueName: "id"))
        var id: Int64?

        @OptionGroup var store: StoreOptions
        @OptionGroup var fields: EntityFieldOptions

        func validate() throws {
            guard let id else {
                if let word = negativeNumberArgument() { throw invalidIDError(word) }
                throw ValidationError("give the id of the record to change")
            }
            if id < 0 { throw invalidIDError(String(id)) }
            try fields.validateOtherFields()
            if fields.isEmpty { throw ValidationError("give at least one field to change") }
        }

        func run() throws {
            let entity = store.entity ?? .products
            try reportingFailures { try update(entity.entityType) }
        }

        private func update<Entity: CatalogEntity>(_ type: Entity.Type) throws {
            try fields.validate(for: Entity.self, complete: false)
            let catalog = try store.openStoreForWriting()
            let id = id!  // validate() refused a command without one
            // Read, changed and written in one transaction: another process's update of another field stays.
            let updated = try catalog.update(Entity.self, id: id) { try fields.applied(to: $0) }
            try closeAfterWriting(catalog, written: "\(updated.summary) was updated")
            try report(updated)
        }

        private func report<Entity: CatalogEntity>(_ record: Entity) throws {
            Terminal.print(store.json ? try renderJSON(PathedEntity(path: nil, record: record)) : "Updated \(record.summary)")
        }
    }
}
