import ArgumentParser
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `catalog` command: the root of the command tree.
public struct CatalogCommand: AsyncParsableCommand {
    /// The version printed by `catalog --version`.
    public static let version = "0.1.0"

    /// The root command's name, which each command under it also gives as its super-command name (see
    /// ``parsedCommand(_:)``).
    static let commandName = "catalog"

    public static let configuration = CommandConfiguration(
        commandName: commandName,
        abstract: "A product and phone catalog in an SQLite file, with sectioned lists and search.",
        discussion: """
            The database is --database PATH, else $CATALOG_DATABASE, else catalog.sqlite in the user's \
            data directory ($XDG_DATA_HOME/catalog, or ~/.local/share/catalog), which is created and \
            seeded with the built-in products and phones on first use.

            Examples:
              catalog list                          Products by type, with index paths
              catalog list phones --sort maker      Phones by maker
              catalog show 1.2                      The row that `list` printed at 1.2
              catalog search mac --scope desktop    Products whose name holds "mac"
              catalog suggest macb                  Names that start with "macb"
              catalog add product --type device --name "iPhone 16" --year 2024 --price 799
              catalog update 10 --name "iPhone 16 Pro"
              catalog delete 10
              catalog watch --scope device          Print the list, then each change as it commits
              catalog browse                        Search as you type, live, full screen
              catalog seed Seeds/phones.json        Add records from a file (twice adds nothing)
              catalog export > products.json        All products as JSON; `catalog import` reads it back
              catalog export --format csv | catalog import - --format csv --keep-ids --database copy.sqlite
              catalog backup ~/catalog-copy.sqlite  A consistent copy, while others write
              catalog migrate --status
              catalog check                         Every page and the search indexes: ok, or what is wrong
            """,
        version: version,
        // Every command names itself (`commandName:`): ArgumentParser's default derives the name from
        // `String(describing: Self.self)`, whose dynamic casts scan every protocol conformance in the
        // program on first use (W7).
        subcommands: subcommandTypes
    )

    /// The commands under `catalog`, in the order its help lists them.
    static let subcommandTypes: [any ParsableCommand.Type] = [
        List.self, Search.self, Suggest.self, Show.self, Watch.self, Browse.self, Add.self, Update.self, Delete.self,
        Seed.self, Import.self, Export.self, Backup.self, Migrate.self, Check.self,
    ]

    public init() {}

    /// Parses the process's arguments and runs the command they name: what the `catalog` executable
    /// does, as ArgumentParser's `main()` would, but a command that does not await (all but `watch` and
    /// `browse`) runs on the calling thread, with no task.
    ///
    /// Swift's asynchronous `main` parks the main thread in `dispatch_main()`, whose `pthread_exit`
    /// unwinds the main thread's stack, and runs the program on a new thread with its own `malloc`
    /// arena, which grows one `mprotect` call per page; in the release binary
    /// (Package.swift) that unwinding first sorts the frame descriptions of the whole program, many
    /// times the rest of a short command (W7). `watch` and `browse` run in a task while this thread
    /// waits.
    public static func runMain() {
        // Past `ulimit -f`, a write fails with EFBIG, said as one line, instead of killing the process.
        signal(SIGXFSZ, SIG_IGN)
        let arguments = joiningNegativeValues(normalizedArguments(Array(CommandLine.arguments.dropFirst())))
        var command: any ParsableCommand
        do {
            command = try parsedCommand(arguments)
        } catch {
            exit(withError: error)
        }
        if awaitingCommandTypes.contains(where: { $0 == type(of: command) }), let awaiting = command as? any AsyncParsableCommand {
            runInTask(awaiting)
            return
        }
        do {
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    /// Runs `command` in a task while this thread waits, and exits on its error.
    ///
    /// Never inlined into ``runMain()``: there, the metadata of the task's `TaskPriority?`, which the
    /// compiler instantiates by its mangled name on entry to the function that creates the task,
    /// costs every command's process a search of the binary's type descriptors (W7).
    @inline(never)
    private static func runInTask(_ command: sending any AsyncParsableCommand) {
        var command = command
        let finished = DispatchSemaphore(value: 0)
        Task {
            do {
                try await command.run()
            } catch {
                exit(withError: error)
            }
            finished.signal()
        }
        finished.wait()
    }

    /// The commands whose `run()` awaits, which ``runMain()`` runs in a task: the types it compares a
    /// parsed command's with before it casts the command to `AsyncParsableCommand`. In the
    /// release binary the first cast of a type to a protocol scans every conformance record in the
    /// program, so casting a command that does not await (`show`'s) would cost two such scans (W7).
    static let awaitingCommandTypes: [any AsyncParsableCommand.Type] = [CatalogCommand.self, Watch.self, Browse.self]

    /// The arguments with each `--option=value` whose `=` starts a grapheme with what follows (a value
    /// that starts with a combining mark, U+FE0F, U+3099 or an emoji modifier: `--search=\u{301}x`)
    /// split into `--option` and `value`, as the argument parser, which reads Characters, would split
    /// it were the value to start with a letter. Arguments after `--` are left as they are.
    ///
    /// ```swift
    /// CatalogCommand.normalizedArguments(["search", "--search=\u{301}x"])  // ["search", "--search", "\u{301}x"]
    /// ```
    public static func normalizedArguments(_ arguments: [String]) -> [String] {
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return result + arguments[index...] }
            let scalars = argument.unicodeScalars
            if argument.hasPrefix("--"), !argument.contains("="), let equals = scalars.firstIndex(of: "=") {
                result += [String(scalars[..<equals]), String(scalars[scalars.index(after: equals)...])]
            } else {
                result.append(argument)
            }
        }
        return result
    }

    /// The options whose value may be typed as a negative number, to be refused with the option's own
    /// error (`--count must be from 0 to 10000000`), not taken for a missing value: record fields, the
    /// counts and ids of `seed`, `suggest` and `show`, and `delete --at`'s index path (`-1.0`).
    /// An array, not a `Set`: instantiating `Set<String>`'s storage by its mangled name looked up
    /// `String: Hashable` by a scan of every conformance record of the static binary (W7).
    static let numericOptions = ["--price", "--year", "--screen", "--count", "--seed", "--limit", "--id", "--at"]

    /// `arguments` with `--price -0` written `--price=-0`: the parser takes any word that starts with `-`
    /// for an option, so it would report a negative value as a missing one.
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            if word == "--" { return result + arguments[index...] }
            if numericOptions.contains(word), index + 1 < arguments.endIndex, looksLikeANegativeNumber(arguments[index + 1]) {
                result.append(word + "=" + arguments[index + 1])
                index += 2
            } else {
                result.append(word)
                index += 1
            }
        }
        return result
    }

    /// Whether `word` reads as a negative number (`-1`, `-0.0`, `-.5`) rather than an option.
    static func looksLikeANegativeNumber(_ word: String) -> Bool {
        word.hasPrefix("-") && word.dropFirst().first.map { $0.isASCII && ($0.isNumber || $0 == ".") } == true
    }
}
