import Catalog

/// What happens to the browse screen: keys, resizes, timers, and the results of effects coming back.
enum BrowseEvent: Hashable, Sendable {
    /// A key was pressed (or text committed).
    case key(Key)
    /// The terminal has a new size.
    case resize(TerminalSize)
    /// The debounce delay of edit number `edit` is over.
    case debounceElapsed(edit: Int)
    /// Completions of the text of edit number `edit`.
    case completions(edit: Int, [String])
    /// The result of a ``BrowseEffect/fetch(_:)``.
    case resultArrived(ResultArrival)
    /// Rows read for a ``BrowseEffect/loadRows(stamp:range:)``, by flat position.
    case rowsLoaded(stamp: Int, rows: [Int: BrowseRow])
    /// Another commit reached the database (from any process).
    case commitNoticed
    /// The result after ``BrowseEffect/applyChanges(_:)``: the change set applied.
    case changesApplied(ChangeArrival)
    /// Applying the noticed commits changed nothing in the result.
    case nothingChanged
    /// A record was deleted (its one-line summary).
    case deleted(String)
    /// An effect failed: one line to show.
    case failed(String)
}

/// The size of the terminal, in columns and lines.
struct TerminalSize: Hashable, Sendable {
    var columns: Int
    var lines: Int

    /// The smallest size the screen is drawn at.
    static let minimum = TerminalSize(columns: 80, lines: 24)
}

/// A fetched result, for the request of fetch number `version`.
struct ResultArrival: Hashable, Sendable {
    /// The fetch it answers.
    var version: Int
    var summary: ResultSummary
    /// The rows read around the selection, by flat position.
    var rows: [Int: BrowseRow]
    /// The flat position of the record the fetch was asked to follow, when it is in the result.
    var followed: Int?
}

/// A result after a change set was applied to the result of fetch number `version`.
struct ChangeArrival: Hashable, Sendable {
    var version: Int
    var summary: ResultSummary
    var rows: [Int: BrowseRow]
    /// Where the selected record is now; nil when it left the result (or there was none).
    var followed: Int?
    /// Counts of the change set's row changes, for the status line (`1 inserted, 2 deleted`).
    var description: String
    /// When it arrived, as the status line shows it (`15:42:07`).
    var time: String
}
