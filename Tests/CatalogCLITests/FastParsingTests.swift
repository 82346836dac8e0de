import ArgumentParser
import Catalog
@testable import CatalogCLI
import Foundation
import Testing
import TestSupport

/// `CatalogCommand.fastParsedCommand(_:)`: its grammars are what ArgumentParser declares, every command
/// it returns is the one ArgumentParser's root parse gives for the same arguments, and it takes the
/// common command lines.
struct FastParsingTests {
    /// What the tests read of ArgumentParser's `_dumpHelp()` JSON (its `ToolInfoV0`).
    struct DumpedHelp: Decodable {
        struct Command: Decodable {
            var commandName: String
            var arguments: [Argument]
        }

        struct Argument: Decodable {
            struct Name: Decodable {
                var kind: String
                var name: String
            }

            var kind: String
            var names: [Name]?
            var isOptional: Bool
            var isRepeating: Bool
            var parsingStrategy: String
        }

        var command: Command
    }

    /// The commands `CatalogCommand.fastParsedCommand(_:)` parses.
    static let fastParsableTypes = CatalogCommand.subcommandTypes.compactMap { $0 as? any FastParsableCommand.Type }

    /// ArgumentParser's own flags, which it adds to every command: never taken by the fast parse.
    static let builtInNames = ["help", "version"]

    /// The grammar ArgumentParser's declarations of `type` give: its long options, its long flags and
    /// how many positional words it takes, with each argument of a form the grammar can describe.
    static func declaredGrammar(_ type: any ParsableCommand.Type) throws -> (options: [String], flags: [String], positionals: ClosedRange<Int>) {
        let help = try JSONDecoder().decode(DumpedHelp.self, from: Data(type._dumpHelp().utf8))
        var options: [String] = []
        var flags: [String] = []
        var required = 0
        var positionals = 0
        var repeating = false
        for argument in help.command.arguments {
            let names = argument.names ?? []
            if names.contains(where: { builtInNames.contains($0.name) }) { continue }
            // Every name long, every argument read one way, and only positional words repeat.
            #expect(names.allSatisfy { $0.kind == "long" }, "\(help.command.commandName): \(names.map(\.name))")
            #expect(argument.parsingStrategy == (argument.kind == "positional" && argument.isRepeating ? "allUnrecognized" : "default"))
            switch argument.kind {
            case "option":
                #expect(!argument.isRepeating)
                options += names.map { "--" + $0.name }
            case "flag":
                #expect(!argument.isRepeating)
                flags += names.map { "--" + $0.name }
            default:
                #expect(argument.kind == "positional")
                positionals += 1
                if !argument.isOptional { required += 1 }
                if argument.isRepeating { repeating = true }
            }
        }
        return (options, flags, required...(repeating ? Int.max : positionals))
    }

    @Test func eachGrammarIsWhatArgumentParserDeclares() throws {
        #expect(Self.fastParsableTypes.map { $0.configuration.commandName } == ["list", "search", "suggest", "show", "delete"])
        for type in Self.fastParsableTypes {
            let declared = try Self.declaredGrammar(type)
            #expect(type.grammar.options.sorted() == declared.options.sorted(), "\(type.configuration.commandName!)")
            #expect(type.grammar.flags.sorted() == declared.flags.sorted(), "\(type.configuration.commandName!)")
            #expect(type.grammar.positionals == declared.positionals, "\(type.configuration.commandName!)")
            #expect(Set(type.grammar.options).count == type.grammar.options.count)
        }
    }

    /// `arguments` as `runMain()` hands them to the parse.
    static func normalized(_ arguments: [String]) -> [String] {
        CatalogCommand.joiningNegativeValues(CatalogCommand.normalizedArguments(arguments))
    }

    /// Checks that the fast parse of `arguments`, if any, is what ArgumentParser's root parse gives,
    /// and returns whether there was one.
    @discardableResult
    static func checkAgainstArgumentParser(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let arguments = normalized(arguments)
        guard let fast = CatalogCommand.fastParsedCommand(arguments) else { return false }
        let fastOutcome = CommandParsingTests.outcome { fast }
        let rootOutcome = CommandParsingTests.rootParse(arguments)
        #expect(fastOutcome == rootOutcome, "\(arguments)", sourceLocation: sourceLocation)
        return true
    }

    /// A value each option takes in every command that has it, with all the others.
    static let goodValues = [
        "--database": "x.sqlite", "--entity": "products", "--scope": "desktop", "--sort": "year", "--search": "mac",
        "--format": "json", "--id": "7", "--at": "1.0", "--limit": "3",
    ]

    /// The positional words of a common command line of each command.
    static let goodPositionals = ["list": ["products"], "search": ["mac", "pro"], "suggest": ["mac"], "show": ["0.1"], "delete": ["9"]]

    /// The options that stand for the command's positional word (`show --id 7`, `delete --at 1.0`).
    static let instead = ["--id", "--at"]

    /// The common command lines of `type`: each option alone, each flag alone, all together, with
    /// each option written `--name value` and `--name=value`, and the positional words first or last.
    static func commonForms(_ type: any FastParsableCommand.Type) -> [[String]] {
        let name = type.configuration.commandName!
        let positionals = goodPositionals[name]!
        func form(_ options: [String], equals: Bool, positionalsLast: Bool = false) -> [String] {
            let named = options.flatMap { option in
                equals ? [option + "=" + goodValues[option]!] : [option, goodValues[option]!]
            }
            let words = options.contains { instead.contains($0) } ? [] : positionals
            return [name] + (positionalsLast ? named + words : words + named)
        }
        var forms = [[name] + positionals]
        if ["list", "search"].contains(name) { forms.append([name]) }
        for equals in [false, true] {
            forms += type.grammar.options.map { form([$0], equals: equals) }
            let together = type.grammar.options.filter { !instead.contains($0) }
            forms.append(form(together, equals: equals) + type.grammar.flags)
            forms.append(form(together, equals: equals, positionalsLast: true))
            if let other = type.grammar.options.first(where: { instead.contains($0) }) {
                forms.append(form(together + [other], equals: equals) + type.grammar.flags)
            }
        }
        forms += type.grammar.flags.map { [name] + positionals + [$0] }
        return forms
    }

    @Test func theCommonFormsAreParsedFastAsArgumentParserParsesThem() {
        for type in Self.fastParsableTypes {
            for arguments in Self.commonForms(type) {
                #expect(Self.checkAgainstArgumentParser(arguments), "not parsed fast: \(arguments)")
            }
        }
        #expect(CatalogCommand.fastParsedCommand(["show", "0.0", "--search", "a"]) is CatalogCommand.Show)
    }

    @Test(arguments: [
        ["show", "0.0", "-h"], ["show", "--help"], ["show", "0.0", "--version"], ["search", "--", "mac"], ["search", "-x"],
        ["show", "0.0", "--search"], ["show", "0.0", "--search", "-a"], ["show", "0.0", "--search=-a"], ["show", "0.0", "0.1"],
        ["show", "0.0", "--json", "--json"], ["show", "0.0", "--sort", "year", "--sort", "name"], ["show", "0.0", "--json=1"],
        ["show", "0.0", "--limit", "3"], ["show", "0.0", "--format", "xml"], ["show", "x.y"], ["show"], ["suggest"],
        ["suggest", "a", "b"], ["list", "--scope", "device", "phones"], ["show", "--id", "7", "0.0"], ["delete", "--at", "-1.0"],
        ["show", "0.0", "--generate-completion-script", "bash"], ["show", "0.0", "--experimental-dump-help"], ["watch"],
        ["help", "show"], [], ["show", "-0.0"], ["list", "--sort", "maker"], ["suggest", "mac", "--limit", "10001"],
    ])
    func anythingElseIsLeftToArgumentParser(_ arguments: [String]) {
        #expect(CatalogCommand.fastParsedCommand(Self.normalized(arguments)) == nil)
    }

    /// Words of every kind the arguments of these commands may hold.
    static let alphabet: [String] = {
        let names = Self.fastParsableTypes.flatMap { $0.grammar.options + $0.grammar.flags }
        let values = [
            "x.sqlite", "products", "phones", "product", "PHONES", "desktop", "device", "portable", "tv", "name", "year",
            "Price", "maker", "mac", "ｍａｃ", "Café", "cafe\u{301}", "\u{301}x", "\u{FE0F}", "\u{3099}", "東京", "ﾃﾞｼﾞ",
            "👍🏽", "mac pro", "", " ", "a=b", "=", "==x", "json", "JSON", "csv", "xml", "table", "7", "0", "-1", "-0.0",
            "99999999999999999999", "0.0", "1.0", "0.1", "2.15", "1.2.3", " 1.2", "-1.0", "10001", "3", "help", "show",
            "list", "search", "-", "-x", "-h", "--", "--help", "--version", "--help-hidden", "--experimental-dump-help",
            "--generate-completion-script", "--foo", "--foo=bar", "--json=true", "-\u{301}", "--search\u{301}",
        ]
        return names + names.map { $0 + "=" } + values
    }()

    /// Random argument vectors, from the whole alphabet and from the well-formed part of it:
    /// whenever the fast parse gives a command, ArgumentParser's root parse gives the same command.
    @Test func everyFastParseIsWhatArgumentParserGives() {
        var random = SplitMix64(seed: 20_261_127)
        let commands = Self.fastParsableTypes.map { $0.configuration.commandName! } + ["watch", "add"]
        var fast = 0
        let cases = 4000
        for index in 0..<cases {
            var arguments = [commands.randomElement(using: &random)!]
            if index.isMultiple(of: 2) {
                // Distinct well-formed words of a command, which the fast parse often takes.
                let type = Self.fastParsableTypes.randomElement(using: &random)!
                let name = type.configuration.commandName!
                let options = type.grammar.options.map { [$0, Self.goodValues[$0]!] }
                    + type.grammar.options.map { [$0 + "=" + Self.goodValues[$0]!] }
                let words = options + type.grammar.flags.map { [$0] } + Self.goodPositionals[name]!.map { [$0] }
                arguments = [name] + words.shuffled(using: &random).prefix(Int.random(in: 0...4, using: &random)).joined()
            } else {
                for _ in 0..<Int.random(in: 0...7, using: &random) {
                    var word = Self.alphabet.randomElement(using: &random)!
                    if word.hasSuffix("="), let value = Self.alphabet.randomElement(using: &random) { word += value }
                    arguments.append(word)
                }
            }
            if Self.checkAgainstArgumentParser(arguments) { fast += 1 }
        }
        // The fast parse is no empty promise: it takes a good share of the well-formed half.
        #expect(fast >= cases / 5, "\(fast) of \(cases) parsed fast")
    }
}
