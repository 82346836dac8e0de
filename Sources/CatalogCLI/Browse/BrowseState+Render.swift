import Catalog
import FetchedResults
import TextSearch

extension BrowseState {
    /// The screen for this state: `size.lines` lines, each `size.columns` wide.
    ///
    /// From the top: the title bar (entity, scope bar, sort), the search field, its completions while
    /// typing, the column titles, the sectioned list with the section index at the right
    /// edge (or the detail, or an empty state), the status line and three key lines.
    func render() -> Screen {
        let width = size.columns
        guard fitsScreen else {
            var lines = [
                ScreenLine("catalog browse needs a terminal of at least 80×24; this one is \(size.columns)×\(size.lines).", .alert),
                ScreenLine("Enlarge it, or press Ctrl-Q to quit."),
            ]
            while lines.count < size.lines { lines.append(ScreenLine()) }
            return Screen(lines: lines.prefix(size.lines).map { $0.fitted(to: width) }, cursor: nil)
        }
        var lines: [ScreenLine] = [titleBar(), searchLine(), completionLine(), columnTitles()]
        lines += mode == .detail ? detailLines() : listLines()
        lines += [statusLine()] + keyLines()
        let prompt = "Search: "
        let cursor = mode == .detail || mode == .confirmDelete
            ? nil : Screen.Cursor(line: 1, column: min(width - 1, DisplayWidth.of(prompt) + 1 + field.cursorColumn))
        return Screen(lines: lines.map { $0.fitted(to: width) }, cursor: cursor)
    }

    // MARK: - Top

    /// The entity, the scope bar (products) and the sort, the chosen ones in brackets.
    private func titleBar() -> ScreenLine {
        var line = ScreenLine("", .title)
        func add(_ name: String, chosen: Bool) {
            line.append(" ", .title)
            line.append(chosen ? "[\(name)]" : name, chosen ? .chosen : .title)
        }
        for candidate in EntityKind.allCases { add(candidate.rawValue, chosen: candidate == entity) }
        if entity.entityType.hasScope {
            line.append("   Scope:", .title)
            add("All", chosen: scope == nil)
            for candidate in ProductType.allCases { add(candidate.title, chosen: candidate == scope) }
        }
        line.append("   Sort: \(sort.rawValue) \(isReversed ? "↓ desc" : "↑ asc")", .title)
        return line
    }

    private func searchLine() -> ScreenLine {
        var line = ScreenLine(" Search: ", .header)
        line.append(field.text)
        if isFetching { line.append("   searching…", .dim) }
        return line
    }

    /// The completions of the typed text on one line under the field, the highlighted one marked.
    private func completionLine() -> ScreenLine {
        guard completionsAreShown else { return ScreenLine() }
        var line = ScreenLine(" ↳", .dim)
        for (offset, name) in completions.prefix(Self.completionLimit).enumerated() {
            line.append(" ")
            line.append(offset == completionIndex ? "[\(name)]" : " \(name) ", offset == completionIndex ? .selected : .plain)
        }
        line.append("   (Tab takes it)", .dim)
        return line
    }

    private func columnTitles() -> ScreenLine {
        if mode == .detail { return ScreenLine(" Detail", .header) }
        return ScreenLine(rowText(BrowseColumns.of(entity).titles, marker: "  "), .header)
    }

    /// The width of the section index at the right edge.
    private static let indexWidth = 3

    /// A row's cells laid out in the entity's columns, `marker` first, leaving room for the index.
    private func rowText(_ cells: [String], marker: String) -> String {
        let columns = BrowseColumns.of(entity)
        let fixed = columns.widths.reduce(0, +) + 2 * columns.widths.count
        let nameWidth = max(10, size.columns - Self.indexWidth - DisplayWidth.of(marker) - fixed)
        var text = marker + DisplayWidth.fitting(cells.first ?? "", toWidth: nameWidth)
        for (offset, width) in columns.widths.enumerated() {
            let index = offset + 1
            let cell = index < cells.count ? cells[index] : ""
            text += "  " + DisplayWidth.fitting(cell, toWidth: width, alignRight: columns.rightAligned.contains(index))
        }
        return text
    }

    // MARK: - List

    private func listLines() -> [ScreenLine] {
        var lines: [ScreenLine] = []
        if let summary, summary.count == 0 {
            lines.append(ScreenLine())
            lines.append(ScreenLine("  " + emptyText(summary), .alert))
        } else if summary == nil {
            lines.append(ScreenLine())
            lines.append(ScreenLine("  Loading…", .dim))
        } else {
            let contentWidth = size.columns - Self.indexWidth
            for line in top..<min(top + listHeight, layout.lineCount) {
                switch layout.content(ofLine: line) {
                case .header(let section):
                    let info = summary!.sections[section]
                    lines.append(ScreenLine(" \(info.name) (\(info.count))", .header).fitted(to: contentWidth))
                case .row(let flat):
                    let selected = flat == selection
                    let marker = selected ? "› " : "  "
                    let text = rows[flat].map { rowText($0.cells, marker: marker) } ?? marker + "…"
                    lines.append(ScreenLine(text, selected ? .selected : .plain).fitted(to: contentWidth))
                }
            }
        }
        while lines.count < listHeight { lines.append(ScreenLine().fitted(to: size.columns - Self.indexWidth)) }
        return addingSectionIndex(to: lines)
    }

    /// The empty states: nothing stored at all, or nothing matching.
    func emptyText(_ summary: ResultSummary) -> String {
        if !summary.storeHasEntities { return "No \(entity.rawValue) yet — `catalog seed` adds the samples" }
        if !SearchQuery(searchedText).isEmpty { return "No results for \(String(reflecting: searchedText))" }
        return "No \(entity.rawValue) in \(scope?.title ?? "this list")"
    }

    /// The section index down the right edge: the index titles, the selected row's highlighted; when
    /// there are more titles than lines, every n-th.
    private func addingSectionIndex(to lines: [ScreenLine]) -> [ScreenLine] {
        guard let summary, summary.count > 0 else { return lines }
        var titles: [(title: String, section: Int)] = []
        for (index, section) in summary.sections.enumerated() where titles.last?.title != section.indexTitle {
            titles.append((section.indexTitle, index))
        }
        let current = layout.section(of: selection)
        let currentTitle = summary.sections[current].indexTitle
        let step = max(1, (titles.count + lines.count - 1) / lines.count)
        var result = lines
        for (line, entry) in stride(from: 0, to: titles.count, by: step).map({ titles[$0] }).enumerated() where line < lines.count {
            let role: ScreenLine.Role = entry.title == currentTitle ? .indexCurrent : .dim
            result[line].append(" " + DisplayWidth.fitting(entry.title, toWidth: 2), role)
        }
        return result
    }

    // MARK: - Detail

    private func detailLines() -> [ScreenLine] {
        var lines: [ScreenLine] = []
        guard let row = rows[selection] else { return lines }
        let path = layout.path(of: selection)
        let section = summary?.sections[path.section].name ?? ""
        lines.append(ScreenLine())
        var fields = [BrowseRow.Field(label: "index path", value: "\(path) (section \(section), row \(path.row + 1))")]
        fields += row.fields
        let labelWidth = fields.map { DisplayWidth.of($0.label) }.max() ?? 0
        for field in fields {
            var line = ScreenLine("   " + DisplayWidth.fitting(field.label + ":", toWidth: labelWidth + 1) + "  ", .header)
            line.append(field.value)
            lines.append(line)
        }
        while lines.count < listHeight { lines.append(ScreenLine()) }
        return Array(lines.prefix(listHeight))
    }

    // MARK: - Bottom

    private func statusLine() -> ScreenLine {
        if mode == .confirmDelete, let row = rows[selection] {
            return ScreenLine(" Delete \(String(reflecting: row.cells.first ?? "")) (id \(row.id))? y deletes it, any other key keeps it", .alert)
        }
        var parts: [String] = []
        if let summary {
            let count = summary.count
            let noun = count == 1 ? entity.singular : entity.rawValue
            let sections = summary.sections.count == 1 ? "1 section" : "\(summary.sections.count) sections"
            parts.append("\(count) \(noun) in \(sections)")
            if count > 0 { parts.append("row \(selection + 1) of \(count)") }
        }
        var line = ScreenLine()
        guard let message else {
            line.append(" " + (parts + ["last change " + (lastChange ?? "none yet")]).joined(separator: " · "), .dim)
            return line
        }
        // A message takes the place of the last change, and what the counts leave of the line: a long
        // one (the path of a damaged state file) is cut, never the counts.
        let counts = parts.isEmpty ? "" : " " + parts.joined(separator: " · ")
        let room = size.columns - DisplayWidth.of(counts) - 3
        line.append(" " + DisplayWidth.truncating(message, toWidth: max(room, 1)) + (counts.isEmpty ? "" : " ·"), .alert)
        line.append(counts, .dim)
        return line
    }

    /// The keys of the mode, on three lines: every key of the screen is named here.
    static func keyLines(for mode: Mode) -> [String] {
        switch mode {
        case .detail:
            ["Esc back · ↑↓ previous/next record · ^D delete · ^Q quit", "", ""]
        case .list, .confirmDelete:
            [
                "↑↓ PgUp PgDn Home End move · Alt+letter section · Enter search/detail · Esc back",
                "Tab take completion · ^N ^P choose · ←→ ^A ^E cursor · Bksp Del ^U erase",
                "^T ⇧Tab scope · ^O sort · ^R asc/desc · ^X products/phones · ^D delete · ^Q quit",
            ]
        }
    }

    private func keyLines() -> [ScreenLine] {
        Self.keyLines(for: mode).map { ScreenLine($0, .dim) }
    }
}
