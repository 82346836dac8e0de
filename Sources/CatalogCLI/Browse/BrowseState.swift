import Catalog
import FetchedResults

/// Everything the browse screen shows, as a value: the search field, the request's scope and sort,
/// the result (section counts and the rows read so far), the selection and the mode.
///
/// It changes only through ``update(_:)``, which returns the work to do as ``BrowseEffect``s; the
/// screen is drawn from it by ``render()``. Neither touches a terminal, a database or a clock, so
/// tests drive the whole screen with scripted events.
struct BrowseState: Hashable, Sendable {
    /// What the screen shows.
    enum Mode: Hashable, Sendable {
        /// The search field, completions and the sectioned list.
        case list
        /// Every field of the selected record.
        case detail
        /// The list, asking whether to delete the selected record.
        case confirmDelete
    }

    // MARK: - The request

    var entity: EntityKind
    /// For products, only this type (the scope bar); nil is All.
    var scope: ProductType?
    var sort: SortField
    var isReversed: Bool
    var field = SearchField()

    // MARK: - The screen

    var size: TerminalSize
    var mode = Mode.list
    /// One line of news for the status line (a deletion, an error, a warning).
    var message: String?
    /// Whether colours may be used (not under `NO_COLOR` or `TERM=dumb`); attributes such as reverse
    /// video remain unless the terminal is dumb.
    var style = ScreenStyle.color

    // MARK: - Typing

    /// Edits to the search field so far: a timer or completions for an older edit are ignored.
    var edit = 0
    /// The text of the last fetch.
    var searchedText = ""
    var completions: [String] = []
    /// The highlighted completion.
    var completionIndex = 0
    /// Whether the completions of the field's text are wanted under it: from an edit until Tab, Enter
    /// or Esc. They are on the screen only when there are some (``completionsAreShown``).
    var showsCompletions = false

    /// Whether a line of completions is on the screen: what Esc and Enter close first, so that with
    /// none shown (no name starts with the text) one press clears the field or opens the detail.
    var completionsAreShown: Bool { mode == .list && showsCompletions && !completions.isEmpty }

    // MARK: - The result

    /// Fetches asked for so far: an answer to an older one is stale and dropped.
    var version = 0
    /// Whether the last fetch has not answered yet.
    var isFetching = false
    /// Whether change sets are being applied; commits noticed meanwhile wait in ``hasPendingCommit``.
    var isApplyingChanges = false
    var hasPendingCommit = false
    /// The result shown; nil before the first answer.
    var summary: ResultSummary?
    var layout = SectionLayout([])
    /// The rows read so far, by flat position (around what is on screen).
    var rows: [Int: BrowseRow] = [:]
    /// Changes whenever the result is replaced, so that rows read for an older one are dropped.
    var stamp = 0
    /// The selected row's flat position.
    var selection = 0
    /// The first list line on screen.
    var top = 0
    /// The selected record's id: followed through new results and change sets.
    var selectedID: Int64?
    /// When the last change set arrived and what it did (`15:42:07 (1 inserted)`).
    var lastChange: String?

    /// A screen for `size`, showing what `saved` describes (or products by name).
    init(size: TerminalSize, saved: SavedBrowseState? = nil, style: ScreenStyle = .color) {
        self.size = size
        self.style = style
        entity = saved?.entity ?? .products
        scope = entity.entityType.hasScope ? saved?.scope : nil
        sort = saved?.sort ?? .name
        isReversed = saved?.isReversed ?? false
        if !BrowseState.sortFields(of: entity).contains(sort) { sort = .name }
        field = SearchField(saved?.searchText ?? "")
        searchedText = field.text
        selectedID = saved?.selectedID
    }

    /// The first fetch: what to do as the screen appears.
    mutating func start() -> [BrowseEffect] {
        fetch(following: selectedID)
    }

    /// The request the screen shows: entity, scope, sort and the searched text.
    var request: ListChoice {
        ListChoice(entity: entity, scope: scope, sort: sort, isReversed: isReversed, searchText: searchedText)
    }

    /// What to save for the next `browse`.
    func saved(databasePath: String) -> SavedBrowseState {
        SavedBrowseState(
            databasePath: databasePath, entity: entity, scope: scope, sort: sort, isReversed: isReversed,
            searchText: field.text, selectedID: selectedID)
    }

    /// The fields an entity sorts by, in the order the sort key cycles through them: its record
    /// type's.
    static func sortFields(of entity: EntityKind) -> [SortField] { entity.entityType.sortFields }

    // MARK: - Geometry

    /// Lines above the list: the title bar, the search field, the completions, the column titles.
    static let linesAbove = 4
    /// Lines below the list: the status line and three key lines.
    static let linesBelow = 4
    /// The most completions shown under the field.
    static let completionLimit = 5
    /// How long typing must pause before the text is searched (the issue's ~150 ms).
    static let debounce = Duration.milliseconds(150)

    /// Whether the terminal is big enough to draw the screen.
    var fitsScreen: Bool { size.columns >= TerminalSize.minimum.columns && size.lines >= TerminalSize.minimum.lines }

    /// The lines of the list area.
    var listHeight: Int { max(1, size.lines - Self.linesAbove - Self.linesBelow) }
}

/// How the screen may be styled on this terminal.
enum ScreenStyle: Hashable, Sendable {
    /// Colours and attributes.
    case color
    /// Attributes only (bold, reverse video): `NO_COLOR` is set.
    case monochrome
    /// Plain text: `TERM=dumb`.
    case plain
}
