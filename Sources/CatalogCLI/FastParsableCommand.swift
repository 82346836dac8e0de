import ArgumentParser

/// A command whose common command lines are parsed without ArgumentParser's parse (see
/// ``CatalogCommand/fastParsedCommand(_:)``): its ``grammar`` reads them, and ``init(scanning:)``
/// builds the command value ArgumentParser would, with the same transforms, and validates it as
/// ArgumentParser does.
protocol FastParsableCommand: ParsableCommand {
    /// The command's options, flags and positional words: exactly what it declares to ArgumentParser.
    static var grammar: CommandGrammar { get }

    /// The command `arguments` give, its option groups and then itself validated.
    ///
    /// Every property is set (the getter of one ArgumentParser has not parsed traps), on a value made
    /// by `init()`: in an initializer, the first assignment to a property wrapper with a default value
    /// (`@Flag var json = false`) makes the wrapper again with `init(wrappedValue:)`, a definition
    /// for the parser rather than a value.
    ///
    /// - Throws: What a transform or a `validate()` throws, or ``ScannedArguments/UnreadableValue``.
    init(scanning arguments: ScannedArguments) throws
}
