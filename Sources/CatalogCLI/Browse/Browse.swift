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
    /// `catalog browse`: the interactive search screen.
    struct Browse: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "browse",
            _superCommandName: CatalogCommand.commandName,
            abstract: "Search and browse products or phones interactively, live (a full-screen terminal UI).",
            discussion: """
                Type to search: results narrow as you type (after a 150 ms pause), in sections with counts, \
                with completions under the field and a section index at the right edge. Changes committed \
                by any process appear as they happen. Needs a terminal of at least 80×24; in scripts and \
                pipes use `catalog list` or `catalog search`.

                Keys:
                  text               type into the search field (input methods, wide characters, accents)
                  ← → Ctrl-A Ctrl-E  move the cursor in the field
                  Backspace Delete   erase a character (a whole grapheme cluster)
                  Ctrl-U             clear the field
                  Tab                take the highlighted completion
                  Ctrl-N Ctrl-P      highlight the next / previous completion
                  Enter              search the text as typed (while typing), else show the detail
                  Esc                back from the detail; close completions; clear the field; quit
                  ↑ ↓ PgUp PgDn      move the selection
                  Home End           first / last row
                  Alt+letter         jump to the section with that index title
                  Ctrl-T Shift-Tab   next / previous scope: All, Device, Desktop, Portable (products)
                  Ctrl-O             next sort field: name, year, price (products); name, maker, year (phones)
                  Ctrl-R             ascending / descending
                  Ctrl-X             switch between products and phones
                  Ctrl-D             delete the selected record (asks; y confirms)
                  Ctrl-Q Ctrl-C      quit

                The search text, scope, sort, entity and selected record are saved on quit in \
                $XDG_STATE_HOME/catalog/browse.json (else ~/.local/state/catalog/browse.json) and come back \
                next time; --fresh starts clean. NO_COLOR or TERM=dumb turn colours off.

                Examples:
                  catalog browse
                  catalog browse phones
                  catalog browse --database /tmp/big.sqlite --fresh
                """)

        @Argument(entityWordHelp: "products or phones (default: the saved one, else products).")
        var entityWord: EntityKind?

        @OptionGroup var database: DatabaseOption

        @Flag(name: .long, help: "Start clean: ignore the saved search, scope, sort and selection.")
        var fresh = false

        /// The exit status when standard input or output is not a terminal (EX_USAGE).
        static let notATerminalStatus: Int32 = 64

        func run() async throws {
            guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else {
                Terminal.note("error: browse needs a terminal; in scripts and pipes use `catalog list` or `catalog search`")
                throw ExitCode(Self.notATerminalStatus)
            }
            let environment = ProcessInfo.processInfo.environment
            try await reportingFailures {
                let location = try database.location { environment[$0] }
                let catalog = try location.open(readonly: false)
                let databasePath = URL(fileURLWithPath: location.path).standardizedFileURL.path
                let stateURL = SavedBrowseState.fileURL(environment: environment)
                var saved: SavedBrowseState?
                var warning: String?
                if !fresh {
                    switch SavedBrowseState.load(from: stateURL) {
                    case .none: break
                    case .loaded(let state): saved = state.restored(forDatabase: databasePath)
                    case .damaged(let reason):
                        warning = "warning: " + reason
                        Terminal.note(warning!)
                    }
                }
                if let entityWord, saved?.entity != entityWord {
                    saved = saved.map { SavedBrowseState.starting(entityWord, databasePath: $0.databasePath) }
                        ?? SavedBrowseState.starting(entityWord, databasePath: databasePath)
                }
                let style = ScreenStyle(environment: environment)
                let terminal = try TerminalSession(style: style)
                defer { terminal.restore() }
                var state = BrowseState(size: TerminalSize.current, saved: saved, style: style)
                state.message = warning
                let final = try await BrowseDriver(catalog: catalog, terminal: terminal).run(state)
                terminal.restore()
                try? final.saved(databasePath: databasePath).save(to: stateURL)
            }
        }
    }
}

extension SavedBrowseState {
    /// A clean start on `entity`.
    static func starting(_ entity: EntityKind, databasePath: String) -> SavedBrowseState {
        SavedBrowseState(
            databasePath: databasePath, entity: entity, scope: nil, sort: .name, isReversed: false, searchText: "",
            selectedID: nil)
    }
}

extension ScreenStyle {
    /// The style the environment asks for: plain under `TERM=dumb`, no colours when `NO_COLOR` is set
    /// to anything but the empty string (no-color.org), else colours.
    init(environment: [String: String]) {
        if environment["TERM"] == "dumb" {
            self = .plain
        } else if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
            self = .monochrome
        } else {
            self = .color
        }
    }
}
