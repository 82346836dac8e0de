import Catalog
import FetchedResults

/// Work the screen model asks for; the driver does it and sends the outcome back as a ``BrowseEvent``.
enum BrowseEffect: Hashable, Sendable {
    /// Send ``BrowseEvent/debounceElapsed(edit:)`` after `delay`.
    case startTimer(edit: Int, delay: Duration)
    /// Read completions of `prefix` and send ``BrowseEvent/completions(edit:_:)``.
    case suggest(edit: Int, prefix: String, entity: EntityKind)
    /// Fetch a request's result (cancelling any fetch still running) and send
    /// ``BrowseEvent/resultArrived(_:)``.
    case fetch(FetchOrder)
    /// Read the rows at flat positions `range` of the current result and send
    /// ``BrowseEvent/rowsLoaded(stamp:rows:)``.
    case loadRows(stamp: Int, range: Range<Int>)
    /// Apply the commits noticed since the last change set and send ``BrowseEvent/changesApplied(_:)``.
    case applyChanges(FetchOrder)
    /// Delete a record, then send ``BrowseEvent/deleted(_:)`` (or ``BrowseEvent/failed(_:)``).
    case delete(entity: EntityKind, id: Int64)
    /// End the program: the terminal is restored and the state saved.
    case quit
}

/// What to fetch, and which rows to read with it.
struct FetchOrder: Hashable, Sendable {
    /// Numbers fetches, so that a late answer to an older one is dropped.
    var version: Int
    var request: ListChoice
    /// The record whose position the answer gives (``ResultArrival/followed``), if any.
    var follow: Int64?
    /// When the followed record is gone, the flat position it had (its neighbour is selected).
    var fallback: Int
    /// How many rows on each side of the selection to read with the result (a screenful).
    var window: Int
}
