import SQLiteStore

/// Counts, per scope value, the rows whose texts hold substrings of 3 to
/// ``SearchDescription/substringCountMaximumLength`` scalars without a space, in Swift, as the
/// triggers of ``SearchDescription/substringCountsSQL`` count them: each distinct substring once a
/// row, the texts read up to their first U+0000 as SQLite's `substr()` and `length()` read them.
/// Which substrings it counts is its ``Selection``.
final class SubstringCounter {
    /// Which substrings a counter counts.
    enum Selection {
        /// Every 3-scalar substring: the first pass of ``SearchDescription/refreshSubstringCounts(_:)``.
        case trigrams
        /// Every substring whose 3-scalar substrings are all in the set (a substring is in no more
        /// rows than any of its parts): the second pass.
        case madeOf(frequentTrigrams: Set<SubstringKey>)
        /// The substrings of the set, and `prefixes` every prefix of each of them, which a scan
        /// extends a substring through: a bulk insert's new rows, counted for the substrings
        /// ``SearchDescription/substringCountsTable`` holds.
        case held(Set<SubstringKey>, prefixes: Set<SubstringKey>)
    }

    private let selection: Selection
    /// The scope values in the order first seen; a scope's number is its index here.
    private(set) var scopes: [DatabaseValue] = []
    private var scopeNumbers: [DatabaseValue: Int] = [:]
    /// Per scope number, the rows holding each substring.
    private(set) var counts: [[SubstringKey: Int]] = []
    /// The current row's distinct substrings (kept to reuse its storage).
    private var rowSubstrings = Set<SubstringKey>()

    init(_ selection: Selection) {
        self.selection = selection
    }

    /// Counts one row's distinct selected substrings under its scope value.
    func add(_ texts: [String?], scope: DatabaseValue) {
        rowSubstrings.removeAll(keepingCapacity: true)
        let runs = Self.runs(of: texts).filter { $0.count >= 3 }
        switch selection {
        case .trigrams:
            for run in runs {
                for end in 2..<run.count { rowSubstrings.insert(SubstringKey(run[(end - 2)...end])) }
            }
        case .madeOf(let frequentTrigrams):
            for run in runs { addSubstrings(of: run, madeOf: frequentTrigrams) }
        case .held(let held, let prefixes):
            for run in runs { addSubstrings(of: run, in: held, prefixes: prefixes) }
        }
        guard !rowSubstrings.isEmpty else { return }
        let number = scopeNumber(scope)
        for substring in rowSubstrings { counts[number][substring, default: 0] += 1 }
    }

    /// Adds the substrings of `run` of 3 to the maximum scalars whose 3-scalar substrings are all in
    /// `frequentTrigrams`.
    private func addSubstrings(of run: [UInt32], madeOf frequentTrigrams: Set<SubstringKey>) {
        for start in run.indices {
            var key = SubstringKey()
            for end in start..<min(run.count, start + SearchDescription.substringCountMaximumLength) {
                key.append(run[end])
                guard key.count >= 3 else { continue }
                // A longer substring from here holds this trigram too.
                guard frequentTrigrams.contains(SubstringKey(run[(end - 2)...end])) else { break }
                rowSubstrings.insert(key)
            }
        }
    }

    /// Adds the substrings of `run` that are in `held`, extending each from a position as long as it
    /// is in `prefixes`.
    private func addSubstrings(of run: [UInt32], in held: Set<SubstringKey>, prefixes: Set<SubstringKey>) {
        for start in run.indices {
            var key = SubstringKey()
            for end in start..<min(run.count, start + SearchDescription.substringCountMaximumLength) {
                key.append(run[end])
                guard prefixes.contains(key) else { break }
                if held.contains(key) { rowSubstrings.insert(key) }
            }
        }
    }

    /// The substrings counted in at least `minimumRows` rows in all.
    func substrings(inAtLeast minimumRows: Int) -> Set<SubstringKey> {
        var totals: [SubstringKey: Int] = [:]
        for scopeCounts in counts {
            for (substring, count) in scopeCounts { totals[substring, default: 0] += count }
        }
        return Set(totals.filter { $0.value >= minimumRows }.keys)
    }

    /// The number of `scope`, numbered when first seen.
    private func scopeNumber(_ scope: DatabaseValue) -> Int {
        if let known = scopeNumbers[scope] { return known }
        let number = scopes.count
        scopeNumbers[scope] = number
        scopes.append(scope)
        counts.append([:])
        return number
    }

    /// The runs of scalars between spaces of `texts` (nil: NULL, no text), each text up to its first U+0000.
    private static func runs(of texts: [String?]) -> [[UInt32]] {
        var runs: [[UInt32]] = []
        for case let text? in texts {
            var run: [UInt32] = []
            for scalar in text.unicodeScalars {
                let value = scalar.value
                if value == 0 { break }
                if value == space {
                    if !run.isEmpty { runs.append(run) }
                    run = []
                } else {
                    run.append(value)
                }
            }
            if !run.isEmpty { runs.append(run) }
        }
        return runs
    }

    private static let space: UInt32 = 0x20
}
