import ArgumentParser

extension CatalogCommand {
    /// The command that `arguments` name, parsed and validated: what `parseAsRoot(arguments)` returns,
    /// without ArgumentParser's parse for the common command lines of `list`, `search`, `show`,
    /// `suggest` and `delete` (``fastParsedCommand(_:)``), and without the work ArgumentParser's root
    /// parse does before it reaches the command for the others.
    ///
    /// When the first argument names one of our commands and no argument asks for a completion script,
    /// the rest is parsed with that command alone as the root (``SubcommandRoot``), and its result is
    /// kept when it is that command. ArgumentParser's root parse does more first, in the fully static
    /// release binary, whose first cast of each type to a protocol scans every conformance record in
    /// the program: it parses the arguments as two commands of its own (with and without a value for
    /// `--generate-completion-script`), reflecting their properties with `Mirror` (skipped by a root
    /// with a super-command name), and, on reaching the command's name, reflects every property of
    /// that command once more to learn whether it takes all remaining input (W7). Any error, and a
    /// request for help (which the parser returns as a command of its own), is parsed again from
    /// ``CatalogCommand``, so that what is printed and the exit code are the root's own. Parsing has no side effects (the `validate()` methods only read their options), so
    /// parsing a failing command twice is harmless.
    ///
    /// ```swift
    /// let command = try CatalogCommand.parsedCommand(["show", "0.0", "--search", "a"])  // a `Show`
    /// ```
    static func parsedCommand(_ arguments: [String]) throws -> any ParsableCommand {
        if let command = fastParsedCommand(arguments) { return command }
        if !arguments.contains(where: { $0.hasPrefix(completionScriptOption) }),
           let name = arguments.first,
           let type = subcommandTypes.first(where: { $0.configuration.commandName == name }),
           let command = parsedAlone(type, Array(arguments.dropFirst())) {
            return command
        }
        return try parseAsRoot(arguments)
    }

    /// The command `arguments` give when the first names a ``FastParsableCommand`` and its grammar
    /// reads the rest, built and validated without ArgumentParser: the value ArgumentParser's parse
    /// gives (a differential test compares them). Nil for anything else, and when a value's transform
    /// or a `validate()` throws, so that ArgumentParser parses it and says what is wrong, as before.
    ///
    /// ArgumentParser's parse of `catalog show 0.0 --search a` would be more than the rest of that
    /// process's instructions (W7): it reflects the command's properties with `Mirror`, instantiates
    /// generic types by their mangled names (`Option<ProductType?>`), each of whose generic
    /// requirements scans every protocol conformance record of the static binary the first time, and
    /// decodes the command from a keyed container.
    ///
    /// ```swift
    /// CatalogCommand.fastParsedCommand(["show", "0.0", "--search=a"])  // a `Show`
    /// CatalogCommand.fastParsedCommand(["show", "0.0", "-h"])  // nil
    /// ```
    static func fastParsedCommand(_ arguments: [String]) -> (any ParsableCommand)? {
        // A switch over the types rather than a search of an array of `any FastParsableCommand.Type`,
        // whose storage type, instantiated by its mangled name, and the types' witness tables would
        // cost every command a conformance lookup (W7).
        let rest = arguments.dropFirst()
        switch arguments.first {
        case List.configuration.commandName: return fastParsed(List.self, rest)
        case Search.configuration.commandName: return fastParsed(Search.self, rest)
        case Suggest.configuration.commandName: return fastParsed(Suggest.self, rest)
        case Show.configuration.commandName: return fastParsed(Show.self, rest)
        case Delete.configuration.commandName: return fastParsed(Delete.self, rest)
        default: return nil
        }
    }

    /// `arguments` parsed as `Command`'s by its grammar, or nil.
    private static func fastParsed<Command: FastParsableCommand>(_: Command.Type, _ arguments: ArraySlice<String>) -> Command? {
        guard let scanned = Command.grammar.scanned(arguments) else { return nil }
        return try? Command(scanning: scanned)
    }

    /// `arguments` parsed as `Command`'s own, with `Command` as the root: the command, or nil for an
    /// error or a request for help.
    private static func parsedAlone<Command: ParsableCommand>(_: Command.Type, _ arguments: [String]) -> Command? {
        (try? SubcommandRoot<Command>.parseAsRoot(arguments) as? SubcommandRoot<Command>)?.command
    }

    /// ArgumentParser's option that asks for a shell completion script (`--generate-completion-script`,
    /// `--generate-completion-script=zsh`).
    static let completionScriptOption = "--generate-completion-script"

    /// A root whose arguments are `Command`'s (an option group of the whole command, whose decoding
    /// validates it), with no subcommands, and whose super-command name (an experimental
    /// ArgumentParser setting, printed only in usage lines) makes the parser skip its completion-script
    /// check: see ``parsedCommand(_:)``. It is never run, and nothing it would print is shown.
    struct SubcommandRoot<Command: ParsableCommand>: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: Command.configuration.commandName, _superCommandName: "")
        }

        @OptionGroup var command: Command
    }
}
