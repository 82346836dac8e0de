import FetchedResults

/// Where rows and section headers fall in a sectioned list: a row's flat position (0 for the first
/// row of the first section) against its ``ItemPath``, and against its line on screen (every section
/// starts with a header line). Counts only: a million rows cost nothing.
struct SectionLayout: Hashable, Sendable {
    /// The flat position of each section's first row.
    private(set) var starts: [Int]
    /// The number of rows.
    let count: Int

    init(_ sections: [SectionSummary]) {
        var starts: [Int] = []
        var total = 0
        for section in sections {
            starts.append(total)
            total += section.count
        }
        self.starts = starts
        count = total
    }

    /// The section holding flat position `flat`.
    func section(of flat: Int) -> Int {
        precondition(flat >= 0 && flat < count, "row \(flat) is outside the result")
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= flat { low = middle } else { high = middle - 1 }
        }
        // Skip empty sections that start at the same position.
        while low + 1 < starts.count && starts[low + 1] <= flat { low += 1 }
        return low
    }

    /// The index path of flat position `flat`.
    func path(of flat: Int) -> ItemPath {
        let section = section(of: flat)
        return ItemPath(section: section, row: flat - starts[section])
    }

    /// The flat position of `path`.
    func flat(of path: ItemPath) -> Int { starts[path.section] + path.row }

    /// The flat position of a section's first row.
    func start(ofSection section: Int) -> Int { starts[section] }

    /// The number of list lines: a header per section and a line per row.
    var lineCount: Int { count + starts.count }

    /// The line of flat position `flat` (after its section's header and those before it).
    func line(of flat: Int) -> Int { flat + section(of: flat) + 1 }

    /// What is on list line `line`: a section header, or a row.
    enum Line: Hashable {
        case header(section: Int)
        case row(flat: Int)
    }

    /// What list line `line` shows.
    func content(ofLine line: Int) -> Line {
        precondition(line >= 0 && line < lineCount)
        // The section whose header is at or before `line`: header of section s is at starts[s] + s.
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] + middle <= line { low = middle } else { high = middle - 1 }
        }
        let header = starts[low] + low
        return line == header ? .header(section: low) : .row(flat: line - low - 1)
    }
}
