import SQLiteStore

/// Counts, per scope value, the rows whose texts hold substrings of 3 to
/// ``SearchDescription/substringCountMaximumLength`` scalars without a space, in Swift, as the
/// triggers of ``SearchDescription/triggersSQL`` count them: each distinct substring once a
/// row, the texts read up to their first U+0000 as SQLite's `substr()` and `length()` read them
/// (``RowScalars``). Which substrings it counts is its ``Selection``: the two passes of
/// ``SearchDescription/refreshSubstringCounts(_:)``, which choose the substrings; the ones chosen
/// are counted in new rows by a ``HeldSubstringCounter``.
package final class SubstringCounter {
    /// Which substrings a counter counts.
    package enum Selection {
        /// Every 3-scalar substring: the first pass of ``SearchDescription/refreshSubstringCounts(_:)``.
        case trigrams
        /// Every substring whose 3-scalar substrings are all in the set (a substring is in no more
        /// rows than any of its parts): the second pass.
        case madeOf(frequentTrigrams: Set<SubstringKey>)
    }

    /// A substring counted under a scope value's number.
    private struct ScopedSubstring: Hashable {
        let substring: SubstringKey
        let scope: Int

        func hash(into hasher: inout Hasher) {
            hasher.combine(substring.folded &+ UInt64(truncatingIfNeeded: scope))
        }
    }

    private let selection: Selection
    private var scopes = ScopeNumbers()
    /// The rows of each substring counted by ``Selection/madeOf(frequentTrigrams:)``.
    private var tallies: [ScopedSubstring: RowTally] = [:]
    /// The rows of each trigram counted by ``Selection/trigrams``, per scope number, under the
    /// trigram's scalars (``trigramKey(_:)``): the last row counted in the high 32 bits of the value,
    /// the count in the low ones. An integer table, not a `Dictionary`: the first pass looks up every
    /// trigram of every row (about half the CPU of choosing the substrings again in a bulk load).
    private var trigramTallies: [IntegerKeyTable] = []
    /// The number of the row being counted, from 1.
    private var row = 0

    /// The frequent trigrams of ``Selection/madeOf(frequentTrigrams:)`` under ``trigramKey(_:)``: the
    /// second pass looks up every trigram of every row, an integer key is cheaper to find than a
    /// `SubstringKey` in a `Set`.
    private var frequentTrigramKeys = IntegerKeyTable()

    package init(_ selection: Selection) {
        self.selection = selection
        if case .madeOf(let frequentTrigrams) = selection {
            for trigram in frequentTrigrams where trigram.count == 3 {
                frequentTrigramKeys.add(1, to: Self.trigramKey(trigram.scalars[...]))
            }
        }
    }

    /// Counts one row's distinct selected substrings under its scope value.
    package func add(_ texts: RowScalars, scope: DatabaseValue) {
        row += 1
        let number = scopes.number(of: scope)
        let values = texts.values
        // Each run of scalars between spaces and ends of texts.
        var start = 0
        while start < values.count {
            var end = start
            while values[end] != Self.space, values[end] != RowScalars.textEnd { end += 1 }
            if end - start >= 3 { addSubstrings(of: values[start..<end], scope: number) }
            start = end + 1
        }
    }

    /// Counts the selected substrings of `run`.
    private func addSubstrings(of scalars: ArraySlice<UInt32>, scope: Int) {
        let run = scalars.indices
        switch selection {
        case .trigrams:
            while trigramTallies.count <= scope { trigramTallies.append(IntegerKeyTable()) }
            let row = row
            for end in (run.lowerBound + 2)..<run.upperBound {
                trigramTallies[scope].update(Self.trigramKey(scalars[(end - 2)...end])) { tally in
                    if tally >> 32 != row { tally = row << 32 | ((tally & Self.countMask) + 1) }
                }
            }
        case .madeOf:
            for start in run {
                var key = SubstringKey()
                for end in start..<min(run.upperBound, start + SearchDescription.substringCountMaximumLength) {
                    key.append(scalars[end])
                    guard key.count >= 3 else { continue }
                    // A longer substring from here holds this trigram too.
                    guard frequentTrigramKeys.value(for: Self.trigramKey(scalars[(end - 2)...end])) != nil else { break }
                    count(key, scope: scope)
                }
            }
        }
    }

    private func count(_ substring: SubstringKey, scope: Int) {
        tallies[ScopedSubstring(substring: substring, scope: scope), default: RowTally()].add(row: row)
    }

    /// The rows counted per substring and scope value by ``Selection/madeOf(frequentTrigrams:)`` (the
    /// trigrams of the first pass are read by ``substrings(inAtLeast:)`` alone).
    package var counts: [(substring: SubstringKey, scope: DatabaseValue, count: Int)] {
        tallies.map { (substring: $0.key.substring, scope: scopes.values[$0.key.scope], count: $0.value.count) }
    }

    /// The substrings counted in at least `minimumRows` rows in all: only those are made keys.
    package func substrings(inAtLeast minimumRows: Int) -> Set<SubstringKey> {
        switch selection {
        case .trigrams:
            var totals = IntegerKeyTable()
            for table in trigramTallies {
                for entry in table.entries { totals.add(entry.value & Self.countMask, to: entry.key) }
            }
            return Set(totals.entries.lazy.filter { $0.value >= minimumRows }.map { Self.trigram($0.key) })
        case .madeOf:
            var totals: [SubstringKey: Int] = [:]
            for (key, tally) in tallies { totals[key.substring, default: 0] += tally.count }
            return Set(totals.lazy.filter { $0.value >= minimumRows }.map(\.key))
        }
    }

    /// Three scalars' values (each below 2²¹) in one key, the first in the low bits: never
    /// `IntegerKeyTable.emptyKey`, whose top bit is set.
    private static func trigramKey(_ scalars: ArraySlice<UInt32>) -> UInt64 {
        let first = scalars.startIndex
        return UInt64(scalars[first]) | UInt64(scalars[first + 1]) << 21 | UInt64(scalars[first + 2]) << 42
    }

    /// The trigram of a ``trigramKey(_:)``.
    private static func trigram(_ key: UInt64) -> SubstringKey {
        SubstringKey([0, 21, 42].map { UInt32(truncatingIfNeeded: key >> $0) & 0x1F_FFFF })
    }

    /// The count's bits of a trigram's value in ``trigramTallies``.
    private static let countMask = 0xFFFF_FFFF

    private static let space: UInt32 = 0x20
}
