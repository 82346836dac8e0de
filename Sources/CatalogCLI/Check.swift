import ArgumentParser
import Catalog
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CatalogCommand {
    /// `catalog check`: whether the database file, its search structures and section counts are
    /// sound; on a server, its search structures and section counts.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            _superCommandName: CatalogCommand.commandName,
            abstract: "Check the database: a file's pages, search indexes and section counts; a server's search structures and section counts.",
            discussion: """
                Prints `ok` and exits 0, or one line per problem and exits 6. Reads every page and \
                row, so it takes longer the larger the database. On a PostgreSQL server, which checks \
                its own pages and indexes (pg_amcheck), it checks the search's indexes and triggers \
                there, recounts its gram and substring counts from the searched texts, and recounts \
                the section counts, on the primary (never on a replica in CATALOG_REPLICAS).

                Examples:
                  catalog check
                  catalog check --json
                """)

        @OptionGroup var store: StoreOptions

        private struct Report: Encodable {
            let ok: Bool
            let problems: [String]
        }

        func run() throws {
            try reportingFailures {
                if try store.location().server == nil {
                    // Not read-only (SQLite runs the FTS5 check as a write), but never creating a file.
                    let path = try store.location().path
                    guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure.noDatabase(path) }
                    // Opening would write the schema into it.
                    var info = stat()
                    if stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_size == 0 {
                        throw CommandFailure.emptyDatabase(path)
                    }
                }
                let problems = try store.openStore().check()
                if store.json {
                    Terminal.print(try renderJSON(Report(ok: problems.isEmpty, problems: problems)))
                } else {
                    Terminal.print(problems.isEmpty ? "ok" : problems.map(Terminal.oneLine).joined(separator: "\n"))
                }
                if !problems.isEmpty { throw ExitCode(ExitStatus.unusableDatabase.rawValue) }
            }
        }
    }
}
