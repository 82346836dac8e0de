import ArgumentParser

extension CatalogCommand {
    /// The command that `arguments` name, parsed and validated: what `parseAsRoot(arguments)` returns,
    /// without the work ArgumentParser's root parse does before it reaches the command.
    ///
    /// When the first argument names one of our commands and no argument asks for a completion script,
    /// the rest is parsed with that command alone as the root, and its result is kept when it is that
    /// command. ArgumentParser's root parse does more first: it parses the arguments as two commands of
    /// its own (with and without a value for `--generate-completion-script`), reflecting their
    /// properties with `Mirror`, and, on reaching the command's name, reflects every property of that
    /// command once more to learn whether it takes all remaining input; in the release binary the
    /// first cast of each type to a protocol scans every conformance record of the program (W7). Each
    /// command's configuration names `catalog` as its super-command (an experimental ArgumentParser
    /// setting, printed only in the usage line of a command parsed as the root, and read from the
    /// root alone otherwise), which makes the parser skip its completion-script check when the command
    /// is the root. Any error, and a request for help (which the parser returns as a command of its
    /// own), is parsed again from ``CatalogCommand``, so that what is printed and the exit code are the
    /// root's own. Parsing has no side effects (the `validate()` methods only read their options), so
    /// parsing a failing command twice is harmless.
    ///
    /// ```swift
    /// let command = try CatalogCommand.parsedCommand(["show", "0.0", "--search", "a"])  // a `Show`
    /// ```
    static func parsedCommand(_ arguments: [String]) throws -> any ParsableCommand {
        if !arguments.contains(where: { $0.hasPrefix(completionScriptOption) }),
           let name = arguments.first,
           let type = subcommandTypes.first(where: { $0.configuration.commandName == name }),
           let command = parsedAlone(type, Array(arguments.dropFirst())) {
            return command
        }
        return try parseAsRoot(arguments)
    }

    /// `arguments` parsed as `Command`'s own, with `Command` as the root: the command, or nil for an
    /// error or a request for help.
    private static func parsedAlone<Command: ParsableCommand>(_: Command.Type, _ arguments: [String]) -> Command? {
        (try? Command.parseAsRoot(arguments)) as? Command
    }

    /// ArgumentParser's option that asks for a shell completion script (`--generate-completion-script`,
    /// `--generate-completion-script=zsh`).
    static let completionScriptOption = "--generate-completion-script"
}
