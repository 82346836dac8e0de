/// Where the time of a ``ScriptedBrowse``'s events went, by part, summed since the last reset: the
/// browse benchmark's breakdown of a keystroke (`browse-bench`).
@_spi(Benchmarks) public struct BrowseTimes: Sendable {
    /// The screen model's updates (`BrowseState.update(_:)`): keys, timers, results arriving.
    public var model = Duration.zero
    /// Completions read for the typed text (`CatalogStore.suggest`).
    public var suggestions = Duration.zero
    /// The controllers' fetches (`performFetch()`: the section counts and, for a search, its first batch).
    public var controllerFetch = Duration.zero
    /// The rest of the fetches and the rows read afterwards: placing the result, reading the rows
    /// around the selection and those scrolled to.
    public var rows = Duration.zero
    /// Starting to track the results (after they are drawn) and applying change sets.
    public var tracking = Duration.zero

    public init() {}
}
