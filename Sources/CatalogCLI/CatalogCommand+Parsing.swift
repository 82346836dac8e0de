import ArgumentParser

extension CatalogCommand {
    /// The command that `arguments` name, parsed and validated: what `parseAsRoot(arguments)` returns,
    /// without the work ArgumentParser's root parse does for `--generate-completion-script` when no
    /// argument asks for it.
    ///
    /// ArgumentParser's root parse first parses the arguments as two commands of its own (with and
    /// without a value for `--generate-completion-script`), reflecting their properties with `Mirror`,
    /// before it parses ours: in the fully static release binary, whose first cast of each type to a
    /// protocol scans every conformance record in the program, that was about a third of the parse of
    /// `catalog show 0.0 --search a` (`perf record`, 2026-11-27). Its only way to skip that check is a
    /// root with a super-command name (``CompletionlessRoot``), which names the commands as ours do
    /// but would print other usage lines; so the arguments are parsed against it only when no argument
    /// asks for a completion script, and its result is kept only when it is one of our commands. Any
    /// error, and a request for help (which the parser returns as a command of its own), is parsed
    /// again from ``CatalogCommand``, so that what is printed and the exit code are the root's own.
    /// Parsing has no side effects (the `validate()` methods only read their options), so parsing a
    /// failing command twice is harmless.
    ///
    /// ```swift
    /// let command = try CatalogCommand.parsedCommand(["show", "0.0", "--search", "a"])  // a `Show`
    /// ```
    static func parsedCommand(_ arguments: [String]) throws -> any ParsableCommand {
        if !arguments.contains(where: { $0.hasPrefix(completionScriptOption) }),
           let command = try? CompletionlessRoot.parseAsRoot(arguments),
           subcommandTypes.contains(where: { $0 == type(of: command) }) {
            return command
        }
        return try parseAsRoot(arguments)
    }

    /// ArgumentParser's option that asks for a shell completion script (`--generate-completion-script`,
    /// `--generate-completion-script=zsh`).
    static let completionScriptOption = "--generate-completion-script"

    /// A root with ``CatalogCommand``'s name and subcommands whose super-command name (an experimental
    /// ArgumentParser setting, printed only in usage lines) makes the parser skip its completion-script
    /// check: see ``parsedCommand(_:)``. It is never run, and nothing it would print is shown.
    struct CompletionlessRoot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: CatalogCommand.configuration.commandName, _superCommandName: "",
            subcommands: subcommandTypes)
    }
}
