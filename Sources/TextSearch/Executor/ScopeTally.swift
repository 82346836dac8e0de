import SQLiteStore

/// Rows of the search indexes counted by scope number as they are read (their rowids carry it:
/// ``SearchDescription/indexRowID(of:)``), with their ids while they are at most
/// ``SearchCosts/idListLimit`` in all.
struct ScopeTally {
    /// Per scope number (0: a row of no value of the scope values), the rows read.
    private var counts: [Int]
    /// Per scope number, the ids of the rows read, while ``total`` is within the id list limit.
    private var ids: [[Int64]]
    /// The rows read with a scope number of a scope value.
    private(set) var total = 0

    /// A tally of `scopeNumbers` scope values (numbers 1 to `scopeNumbers`).
    init(scopeNumbers: Int) {
        counts = Array(repeating: 0, count: scopeNumbers + 1)
        ids = Array(repeating: [], count: scopeNumbers + 1)
    }

    /// Counts the row of index rowid `rowid`.
    mutating func add(_ rowid: Int64) {
        let number = Int(rowid >> Int64(SearchDescription.scopeNumberShift))
        guard number > 0, number < counts.count else { return counts[0] += 1 }
        counts[number] += 1
        total += 1
        if total <= SearchCosts.idListLimit { ids[number].append(rowid & SearchDescription.largestScopedID) }
    }

    /// The rows read per value of `scopeValues` (values counting 0 left out), with their ids when they
    /// are at most the id list limit; nil when a row had no value of them (number 0).
    func matches(_ scopeValues: [String]) -> ScopeMatches? {
        guard counts[0] == 0 else { return nil }
        var perScope: [DatabaseValue: Int] = [:]
        var idsPerScope: [DatabaseValue: [Int64]] = [:]
        for number in 1..<counts.count where counts[number] > 0 {
            perScope[.text(scopeValues[number - 1])] = counts[number]
            idsPerScope[.text(scopeValues[number - 1])] = ids[number]
        }
        return ScopeMatches(counts: perScope, ids: total <= SearchCosts.idListLimit ? idsPerScope : nil)
    }
}
