import FetchedResults
import SQLiteStore

/// PLACEHOLDER, to be replaced by the search semantics of the `search` branch when it is merged:
/// a record matches when every whitespace-separated folded term of the text is a substring of one
/// of `columns`.
enum SearchPlaceholder {
    /// `(instr(c1, ?) > 0 OR instr(c2, ?) > 0) AND …`, one group per term; always true for a blank text.
    static func condition(for text: String, columns: [String]) -> SQLCondition? {
        let terms = TextFolding.fold(text).split(whereSeparator: \.isWhitespace).map(String.init)
        guard !terms.isEmpty else { return SQLCondition.alwaysTrue }
        let groups = terms.map { term in
            SQLCondition(
                sql: "(" + columns.map { "instr(\($0), ?) > 0" }.joined(separator: " OR ") + ")",
                arguments: StatementArguments(values: columns.map { _ in .text(term) }))
        }
        return groups.dropFirst().reduce(groups[0], &&)
    }
}
