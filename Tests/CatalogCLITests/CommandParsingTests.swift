import ArgumentParser
@testable import CatalogCLI
import Testing

/// `CatalogCommand.parsedCommand(_:)` gives what ArgumentParser's root parse gives, for commands,
/// help, versions, completion scripts and errors, although it parses past the completion-script check.
struct CommandParsingTests {
    /// The command `parseAsRoot` makes of `arguments`, or the message and exit code of its error.
    static func rootParse(_ arguments: [String]) -> String {
        outcome { try CatalogCommand.parseAsRoot(arguments) }
    }

    static func outcome(_ parse: () throws -> any ParsableCommand) -> String {
        do {
            let command = try parse()
            return "\(type(of: command)): \(String(reflecting: command))"
        } catch {
            return "error \(CatalogCommand.exitCode(for: error).rawValue): \(CatalogCommand.fullMessage(for: error))"
        }
    }

    @Test(arguments: [
        ["show", "0.0", "--search", "a"], ["show", "0.1", "--search", "mac", "--database", "x.sqlite", "--json"],
        ["list", "phones", "--sort", "maker"], ["search", "mac", "--scope", "desktop"], ["search", "--", "--x"],
        ["suggest", "macb"], ["add", "product", "--type", "device", "--name", "X", "--year", "2000", "--price", "1"],
        ["migrate", "--status"], ["check"],
        // Help, versions, completion scripts and errors: parsed again from the root.
        [], ["--help"], ["--version"], ["help", "show"], ["show", "--help"], ["show", "-h"],
        ["--generate-completion-script", "bash"], ["--generate-completion-script=zsh"], ["show", "--generate-completion-script", "fish"],
        ["show"], ["show", "1.2.3"], ["list", "--sort", "maker"], ["frobnicate"], ["show", "0.0", "--colr", "red"],
    ])
    func parsingPastTheCompletionCheckGivesWhatTheRootGives(_ arguments: [String]) {
        let parsed = Self.outcome { try CatalogCommand.parsedCommand(arguments) }
        #expect(parsed == Self.rootParse(arguments))
    }

    @Test func aCommandIsParsedWithoutTheCompletionCommands() throws {
        #expect(try CatalogCommand.parsedCommand(["show", "0.0", "--search", "a"]) is CatalogCommand.Show)
        #expect(CatalogCommand.CompletionlessRoot.configuration._superCommandName != nil)
        #expect(CatalogCommand.CompletionlessRoot.configuration.commandName == "catalog")
    }
}
