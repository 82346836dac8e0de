import Catalog
import FetchedResults
import TextSearch

extension BrowseState {
    /// Applies `event` and returns the work it calls for: the `update(state, event) -> (state,
    /// effects)` of the Elm architecture, as a mutating method.
    mutating func update(_ event: BrowseEvent) -> [BrowseEffect] {
        switch event {
        case .key(let key):
            return handle(key)
        case .resize(let size):
            self.size = size
            scrollToSelection()
            return loadVisibleRows()
        case .debounceElapsed(let edit):
            guard edit == self.edit else { return [] }
            return searchIfChanged()
        case .completions(let edit, let names):
            guard edit == self.edit else { return [] }
            completions = names
            completionIndex = 0
            return []
        case .resultArrived(let arrival):
            return receive(arrival)
        case .rowsLoaded(let stamp, let loaded):
            guard stamp == self.stamp else { return [] }
            rows.merge(loaded) { _, new in new }
            if let row = rows[selection] { selectedID = row.id }
            return []
        case .commitNoticed:
            return applyChangesWhenIdle()
        case .changesApplied(let arrival):
            return receive(arrival)
        case .nothingChanged:
            isApplyingChanges = false
            return hasPendingCommit ? applyChangesWhenIdle() : []
        case .deleted(let summary):
            message = "Deleted \(summary)"
            return applyChangesWhenIdle()
        case .failed(let text):
            message = text
            isFetching = false
            isApplyingChanges = false
            return []
        }
    }

    // MARK: - Keys

    private mutating func handle(_ key: Key) -> [BrowseEffect] {
        if case .control("c") = key { return [.quit] }
        if case .control("q") = key { return [.quit] }
        switch mode {
        case .confirmDelete:
            mode = .list
            if key == .text("y") || key == .text("Y"), let row = rows[selection] {
                message = "Deleting \(row.cells.first ?? "")…"
                return [.delete(entity: entity, id: row.id)]
            }
            message = "Not deleted."
            return []
        case .detail:
            switch key {
            case .escape, .enter, .backspace, .left: mode = .list
            case .up: return moveSelection(to: selection - 1)
            case .down: return moveSelection(to: selection + 1)
            case .control("d"): return confirmDelete()
            default: break
            }
            return []
        case .list:
            return handleInList(key)
        }
    }

    private mutating func handleInList(_ key: Key) -> [BrowseEffect] {
        switch key {
        case .text(let text):
            field.insert(text)
            return edited()
        case .backspace:
            field.deleteBackward()
            return edited()
        case .delete:
            field.deleteForward()
            return edited()
        case .control("u"):
            field.clear()
            return edited()
        case .left: field.moveCursor(by: -1)
        case .right: field.moveCursor(by: 1)
        case .control("a"): field.moveCursor(toEnd: false)
        case .control("e"): field.moveCursor(toEnd: true)
        case .up: return moveSelection(to: selection - 1)
        case .down: return moveSelection(to: selection + 1)
        case .pageUp: return moveSelection(to: selection - max(1, listHeight - 1))
        case .pageDown: return moveSelection(to: selection + max(1, listHeight - 1))
        case .home: return moveSelection(to: 0)
        case .end: return moveSelection(to: layout.count - 1)
        case .alt(let letter): return jump(toIndexTitle: letter)
        case .control("n"), .control("p"):
            guard completionsAreShown else { return [] }
            let step = key == .control("n") ? 1 : completions.count - 1
            completionIndex = (completionIndex + step) % min(completions.count, Self.completionLimit)
        case .tab:
            guard showsCompletions, completionIndex < completions.count else { return [] }
            field.replace(with: completions[completionIndex])
            edit += 1
            showsCompletions = false
            return searchIfChanged()
        case .enter:
            if completionsAreShown || !sameQuery(field.text, searchedText) {
                showsCompletions = false
                return searchIfChanged()
            }
            if rows[selection] != nil { mode = .detail }
        case .escape:
            if completionsAreShown {
                showsCompletions = false
            } else if !field.text.isEmpty {
                field.clear()
                edit += 1
                return searchIfChanged()
            } else {
                return [.quit]
            }
        case .control("t"): return changeScope(by: 1)
        case .backTab: return changeScope(by: ProductType.allCases.count)
        case .control("o"):
            let fields = Self.sortFields(of: entity)
            sort = fields[((fields.firstIndex(of: sort) ?? 0) + 1) % fields.count]
            return fetch(following: selectedID)
        case .control("r"):
            isReversed.toggle()
            return fetch(following: selectedID)
        case .control("x"):
            entity = EntityKind.allCases[(EntityKind.allCases.firstIndex(of: entity)! + 1) % EntityKind.allCases.count]
            scope = nil
            if !Self.sortFields(of: entity).contains(sort) { sort = .name }
            completions = []
            showsCompletions = false
            return fetch(following: nil)
        case .control("d"):
            return confirmDelete()
        default:
            break
        }
        return []
    }

    /// After an edit of the field: completions now, the search once typing pauses.
    private mutating func edited() -> [BrowseEffect] {
        edit += 1
        completionIndex = 0
        message = nil
        let prefix = field.text
        guard !prefix.allSatisfy(\.isWhitespace) else {
            completions = []
            showsCompletions = false
            return [.startTimer(edit: edit, delay: Self.debounce)]
        }
        showsCompletions = true
        return [.startTimer(edit: edit, delay: Self.debounce), .suggest(edit: edit, prefix: prefix, entity: entity)]
    }

    /// Whether two texts are the same search (same terms), so that the second is not searched again.
    func sameQuery(_ one: String, _ other: String) -> Bool {
        SearchQuery(one).terms == SearchQuery(other).terms
    }

    /// Fetches the field's text unless it is the same search as the one shown (repeats are dropped).
    private mutating func searchIfChanged() -> [BrowseEffect] {
        guard !sameQuery(field.text, searchedText) else { return [] }
        searchedText = field.text
        return fetch(following: nil)
    }

    private mutating func changeScope(by step: Int) -> [BrowseEffect] {
        guard entity.entityType.hasScope else { return [] }
        let scopes: [ProductType?] = [nil] + ProductType.allCases.map { $0 }
        let index = scopes.firstIndex(of: scope) ?? 0
        scope = scopes[(index + step) % scopes.count]
        return fetch(following: selectedID)
    }

    private mutating func confirmDelete() -> [BrowseEffect] {
        guard rows[selection] != nil else { return [] }
        mode = .confirmDelete
        return []
    }

    // MARK: - Fetching

    /// Asks for the result of the current request, following `id` into it.
    mutating func fetch(following id: Int64?) -> [BrowseEffect] {
        version += 1
        isFetching = true
        hasPendingCommit = false
        return [.fetch(order(following: id))]
    }

    private func order(following id: Int64?) -> FetchOrder {
        FetchOrder(version: version, request: request, follow: id, fallback: selection, window: listHeight + 1)
    }

    /// Applies noticed commits now, or once the fetch or change set under way has answered.
    private mutating func applyChangesWhenIdle() -> [BrowseEffect] {
        guard summary != nil, !isFetching, !isApplyingChanges else {
            hasPendingCommit = true
            return []
        }
        hasPendingCommit = false
        isApplyingChanges = true
        return [.applyChanges(order(following: selectedID))]
    }

    private mutating func receive(_ arrival: ResultArrival) -> [BrowseEffect] {
        guard arrival.version == version else { return [] }  // overtaken by a newer fetch: stale
        isFetching = false
        show(arrival.summary, arrival.rows, followed: arrival.followed, keepingPosition: false)
        return hasPendingCommit ? applyChangesWhenIdle() : loadVisibleRows()
    }

    private mutating func receive(_ arrival: ChangeArrival) -> [BrowseEffect] {
        isApplyingChanges = false
        guard arrival.version == version else { return hasPendingCommit ? applyChangesWhenIdle() : [] }
        lastChange = "\(arrival.time) (\(arrival.description))"
        show(arrival.summary, arrival.rows, followed: arrival.followed, keepingPosition: true)
        return hasPendingCommit ? applyChangesWhenIdle() : loadVisibleRows()
    }

    /// Shows a new result. The selection goes to the followed record; when it is gone, to the row now
    /// at its place (its neighbour) if `keepingPosition`, else to the first row. An unchanged result
    /// leaves the state as it was, so nothing is redrawn.
    private mutating func show(_ summary: ResultSummary, _ newRows: [Int: BrowseRow], followed: Int?, keepingPosition: Bool) {
        let newLayout = SectionLayout(summary.sections)
        var newSelection = followed ?? (keepingPosition ? selection : 0)
        newSelection = max(0, min(newSelection, newLayout.count - 1))
        if summary == self.summary && newSelection == selection
            && newRows.allSatisfy({ rows[$0.key] == nil || rows[$0.key] == $0.value }) {
            rows.merge(newRows) { _, new in new }
            return
        }
        self.summary = summary
        layout = newLayout
        rows = newRows
        stamp += 1
        selection = newSelection
        selectedID = rows[selection]?.id ?? (layout.count == 0 ? nil : selectedID)
        if mode == .detail && rows[selection] == nil { mode = .list }
        scrollToSelection()
    }

    // MARK: - Moving

    private mutating func moveSelection(to flat: Int) -> [BrowseEffect] {
        guard layout.count > 0 else { return [] }
        selection = max(0, min(flat, layout.count - 1))
        selectedID = rows[selection]?.id
        scrollToSelection()
        return loadVisibleRows()
    }

    private mutating func jump(toIndexTitle letter: Character) -> [BrowseEffect] {
        guard let summary else { return [] }
        let title = String(letter).uppercased()
        guard let section = summary.sections.firstIndex(where: { $0.indexTitle.uppercased() == title }) else {
            message = "No section \(title)"
            return []
        }
        let effects = moveSelection(to: layout.start(ofSection: section))
        // Show the section's header at the top.
        top = max(0, min(layout.line(of: selection) - 1, max(0, layout.lineCount - listHeight)))
        return effects
    }

    /// Scrolls so that the selected row (and, for a section's first row, its header) is on screen.
    mutating func scrollToSelection() {
        guard layout.count > 0 else {
            top = 0
            return
        }
        let line = layout.line(of: selection)
        let headerAbove = layout.path(of: selection).row == 0 ? 1 : 0
        if line - headerAbove < top { top = line - headerAbove }
        if line >= top + listHeight { top = line - listHeight + 1 }
        top = max(0, min(top, max(0, layout.lineCount - listHeight)))
    }

    /// Flat positions of the rows on screen.
    var visibleRows: Range<Int> {
        guard layout.count > 0 else { return 0..<0 }
        var first: Int?
        var last = 0
        for line in top..<min(top + listHeight, layout.lineCount) {
            if case .row(let flat) = layout.content(ofLine: line) {
                if first == nil { first = flat }
                last = flat
            }
        }
        guard let first else { return 0..<0 }
        return first..<(last + 1)
    }

    /// Reads the rows on screen that are not loaded (a screenful around them), and forgets rows far
    /// from the screen.
    private mutating func loadVisibleRows() -> [BrowseEffect] {
        let visible = visibleRows
        let margin = listHeight
        let kept = max(0, visible.lowerBound - 3 * margin)..<(visible.upperBound + 3 * margin)
        if rows.count > 8 * margin { rows = rows.filter { kept.contains($0.key) } }
        guard visible.contains(where: { rows[$0] == nil }) else { return [] }
        let range = max(0, visible.lowerBound - margin)..<min(layout.count, visible.upperBound + margin)
        return [.loadRows(stamp: stamp, range: range)]
    }
}
