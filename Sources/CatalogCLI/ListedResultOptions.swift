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

extension ListedResultOptions {
    /// The options' names and the entity word, for the grammar of `list` (``FastParsableCommand``).
    static let grammar = ListOptions.grammar.adding(options: ["--format"], positionals: 0...1)

    /// The options `arguments` give (read by the grammar of a command that takes them), validated.
    ///
    /// - Throws: What a transform or `validate()` throws, or ``ScannedArguments/UnreadableValue``.
    init(scanning arguments: ScannedArguments) throws {
        var options = Self()
        options.entityWord = try arguments.positionals.first.map { try ScannedArguments.read($0, parseEntity) }
        options.list = try ListOptions(scanning: arguments)
        options.format = try arguments.value("--format", OutputFormat.init(argument:))
        try options.validate()
        self = options
    }
}
