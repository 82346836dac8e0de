import ArgumentParser
import Catalog
import FetchedResults

extension CatalogCommand {
    /// `catalog delete`: removes a record by id, or the row at an index path of a listed result.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            _superCommandName: CatalogCommand.commandName,
            abstract: "Delete a record by id, or the row at an index path of `list` (same options).",
            discussion: """
                With --at, the index path is resolved against the result that `list` prints with the same \
                --entity, --search, --scope, --sort and --reverse, so it deletes the row you saw.

                Examples:
                  catalog delete 9
                  catalog delete 3 --entity phones
                  catalog delete --at 1.0 --search mac
                """)

        @Argument(help: ArgumentHelp("The id of the record to delete.", valueName: "id"))
        var id: Int64?

        @Option(
            name: .long,
            help: ArgumentHelp("Delete the row at this index path (section.row) instead.", valueName: "section.row"),
            transform: ItemPath.init(parsing:))
        var at: ItemPath?

        @OptionGroup var list: ListOptions

        func validate() throws {
            if at == nil && id == nil {
                if let word = negativeNumberArgument() { throw invalidIDError(word) }
                throw ValidationError("give an id or --at section.row")
            }
            if at != nil && id != nil { throw ValidationError("give an id or --at section.row, not both") }
            if let id, id < 0 { throw invalidIDError(String(id)) }
            // Checked while parsing (run() reads the same), so that a scope or sort this list does not
            // take is told with this command's usage, not the root's.
            _ = try list.choice(for: list.entity ?? .products)
        }

        func run() throws {
            let entity = list.entity ?? .products
            let choice = try list.choice(for: entity)
            try reportingFailures {
                let catalog = try list.openStoreForWriting()
                try report(try delete(entity.entityType, catalog, choice), closing: catalog)
            }
        }

        private func delete<Entity: CatalogEntity>(_ type: Entity.Type, _ catalog: CatalogStore, _ choice: ListChoice) throws -> Entity {
            if let at { return try catalog.delete(at: at, in: try choice.request(Entity.self)) }
            return try catalog.delete(Entity.self, id: id!)
        }

        private func report<Entity: CatalogEntity>(_ record: Entity, closing catalog: CatalogStore) throws {
            try closeAfterWriting(catalog, written: "\(record.summary) was deleted")
            Terminal.print(list.json ? try renderJSON(PathedEntity(path: nil, record: record)) : "Deleted \(record.summary)")
        }
    }
}
