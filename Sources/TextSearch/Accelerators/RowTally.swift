/// The rows a counter counted for one substring (and scope value), and the last of them, so that a
/// row holding the substring several times counts once (``SubstringCounter``, ``HeldSubstringCounter``).
struct RowTally {
    /// The distinct rows counted.
    private(set) var count = 0
    /// The number of the last row counted (rows are numbered from 1).
    private var lastRow = 0

    /// Counts row number `row`, unless it was the last one counted.
    mutating func add(row: Int) {
        guard row != lastRow else { return }
        lastRow = row
        count += 1
    }
}
