import Catalog
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `browse` remembers between runs: the search text, scope, sort, entity and selected record,
/// in `browse.json` under `$XDG_STATE_HOME/catalog/` (else `~/.local/state/catalog/`).
///
/// The selected record is restored only for the same database file (its id means nothing in another).
struct SavedBrowseState: Codable, Hashable, Sendable {
    /// The database the state was saved for (an absolute path).
    var databasePath: String
    var entity: EntityKind
    var scope: ProductType?
    var sort: SortField
    var isReversed: Bool
    var searchText: String
    var selectedID: Int64?

    /// The state file: `$XDG_STATE_HOME/catalog/browse.json` when that variable holds an absolute
    /// path (the XDG rule), else `~/.local/state/catalog/browse.json`.
    static func fileURL(environment: [String: String]) -> URL {
        let base: URL
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = URL(fileURLWithPath: state)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
            base = URL(fileURLWithPath: home).appendingPathComponent(".local/state")
        }
        return base.appendingPathComponent("catalog/browse.json")
    }

    /// What loading the state file found.
    enum LoadResult: Equatable {
        /// There is no state file.
        case none
        case loaded(SavedBrowseState)
        /// The file exists and cannot be used: one line saying why.
        case damaged(String)
    }

    /// Reads the state file at `url`.
    static func load(from url: URL) -> LoadResult {
        guard FileManager.default.fileExists(atPath: url.path) else { return .none }
        do {
            let data = try Data(contentsOf: url)
            let state = try JSONDecoder().decode(SavedBrowseState.self, from: data)
            try state.validate()
            return .loaded(state)
        } catch {
            return .damaged("ignoring the damaged state file \(url.path)")
        }
    }

    /// Checks that the sort field and scope fit the entity.
    private func validate() throws {
        try ListChoice(entity: entity, scope: scope, sort: sort, isReversed: isReversed).validate()
    }

    /// Writes the state file at `url` (creating its folder), replacing it atomically.
    func save(to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(self).write(to: url, options: .atomic)
    }

    /// The state to start from for the database at `databasePath`: the saved one, without its
    /// selection when it was saved for another database.
    func restored(forDatabase databasePath: String) -> SavedBrowseState {
        var state = self
        if state.databasePath != databasePath { state.selectedID = nil }
        return state
    }
}
