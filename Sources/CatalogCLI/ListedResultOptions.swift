import ArgumentParser
import Catalog

/// What `list` and `watch` take: the entity as a first word (or `--entity`), the options that shape
/// the listed result, and the output format.
struct ListedResultOptions: ParsableArguments {
    @Argument(entityWordHelp: "products or phones (same as --entity).")
    var entityWord: EntityKind?

    @OptionGroup var list: ListOptions
    @Option(name: .long, help: OutputFormat.optionHelp) var format: OutputFormat?

    // Checked while parsing (the command's run() reads the same), so that a scope, sort or format
    // this list does not take is told with the command's usage, not the root's.
    func validate() throws {
        _ = try resolved()
    }

    /// The entity, the list and the output format the options name.
    ///
    /// - Throws: `ValidationError` for an entity given twice, a scope or sort the entity does not take,
    ///   or `--json` with another `--format`.
    func resolved() throws -> (entity: EntityKind, choice: ListChoice, format: OutputFormat) {
        let entity = try resolveEntity(word: entityWord, option: list.entity)
        return (entity, try list.choice(for: entity), try OutputFormat.resolved(format, json: list.json))
    }
}
