import ArgumentParser
@testable import CatalogCLI
import Testing

/// `CatalogCommand.parsedCommand(_:)` gives what ArgumentParser's root parse gives, for commands,
/// help, versions, completion scripts and errors, although it parses a command with the command alone
/// as the root.
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
        // What only the root knows, or a command's name where the command takes a value.
        ["show", "--version"], ["show", "0.0", "--help-hidden"], ["list", "--experimental-dump-help"], ["help"],
        ["show", "show"], ["search", "--", "show"], ["search", "show"], ["show", "0.0", "--search=a", "--reverse"],
        ["show", "-0.0"], ["delete", "--at", "-1.0"], ["watch", "phones", "--scope", "device"], ["browse", "--fresh"],
        ["list", "phones", "--entity", "products"], ["show", "--id", "7", "0.0"],
    ])
    func parsingTheCommandAloneGivesWhatTheRootGives(_ arguments: [String]) {
        let parsed = Self.outcome { try CatalogCommand.parsedCommand(arguments) }
        #expect(parsed == Self.rootParse(arguments))
    }

    @Test func aCommandIsParsedAloneWithoutTheCompletionCommands() throws {
        #expect(try CatalogCommand.parsedCommand(["show", "0.0", "--search", "a"]) is CatalogCommand.Show)
        for type in CatalogCommand.subcommandTypes {
            #expect(type.configuration._superCommandName == CatalogCommand.configuration.commandName)
            #expect(type.configuration.subcommands.isEmpty)
        }
    }

    /// `runMain()` runs in a task exactly the commands that await, which it tells by their types.
    @Test func theAwaitingCommandsAreTheAsyncOnes() {
        for type in [CatalogCommand.self] + CatalogCommand.subcommandTypes {
            #expect((type is any AsyncParsableCommand.Type) == CatalogCommand.awaitingCommandTypes.contains { $0 == type })
        }
    }
}
