import SQLiteStore

/// Counts, per scope value, the rows whose texts hold each substring that
/// ``SearchDescription/substringCountsTable`` holds, as the triggers of
/// ``SearchDescription/triggersSQL`` count them: a row counts once for each distinct held
/// substring of 3 to ``SearchDescription/substringCountMaximumLength`` scalars that one of its texts
/// contains (texts read up to their first U+0000, ``RowScalars``). For a bulk insert's new rows
/// (``SearchDescription/build(forRowsAfter:_:)``) and for the recount of
/// ``SearchDescription/indexProblems(foldedFrom:_:)``.
///
/// The held substrings are one Aho-Corasick automaton over their scalars: a trie of their prefixes,
/// each node linked to the node of its longest proper suffix that is also a held prefix. A row's
/// scalars are read once, each one step (a probe of the transition table, or a few when a prefix
/// cannot be extended and falls back along its links, ``IntegerKeyTable``), and each held substring found is one array
/// tally, where looking up every 3- to 8-scalar window of each position costs a hashed lookup per
/// length and another per substring counted.
final class HeldSubstringCounter {
    /// The held substrings, by their number (the index of their tallies).
    private let substrings: [String]
    /// The trie's transitions: the node each leads to, under ``transitionKey(_:_:)``.
    private let transitions: IntegerKeyTable
    /// Per node, the node of its longest proper suffix that is a node too (the root's: itself).
    private let fallbacks: [Int32]
    /// Per node, where its held substrings start in ``foundSubstrings`` (and the next node's, where they end):
    /// the node's prefix if it is held and every held suffix of it.
    private let foundStarts: [Int32]
    private let foundSubstrings: [Int32]

    /// Per scope number, then per substring number, the rows counted.
    private var tallies: [RowTally] = []
    private var scopes = ScopeNumbers()
    /// The number of the row being counted, from 1.
    private var row = 0

    /// The root node: the empty prefix.
    private static let root: Int32 = 0

    /// A counter of `held`; substrings of fewer than 3 or more than
    /// ``SearchDescription/substringCountMaximumLength`` scalars are left out, as the triggers never count them.
    init(_ held: some Sequence<String>) {
        let counted = Set(held).filter { (3...SearchDescription.substringCountMaximumLength).contains($0.unicodeScalars.count) }
        substrings = counted.sorted()
        // At most one node per scalar, and a table at most half full.
        let nodeLimit = 1 + substrings.reduce(0) { $0 + $1.unicodeScalars.count }
        var transitions = IntegerKeyTable(capacity: nodeLimit)
        // The trie: each node's parent, the scalar leading to it, and its depth; the held substring it ends.
        var parents: [Int32] = [Self.root]
        var scalars: [UInt32] = [0]
        var depths: [Int] = [0]
        var ends: [Int32] = [-1]
        for (number, substring) in substrings.enumerated() {
            var node = Self.root
            for scalar in substring.unicodeScalars {
                if let next = Self.child(of: node, scalar.value, in: transitions) {
                    node = next
                } else {
                    let next = Int32(parents.count)
                    transitions.add(Int(next), to: Self.transitionKey(node, scalar.value))
                    parents.append(node)
                    scalars.append(scalar.value)
                    depths.append(depths[Int(node)] + 1)
                    ends.append(-1)
                    node = next
                }
            }
            ends[Int(node)] = Int32(number)
        }
        // The fallbacks and the substrings found at each node, shallower nodes first: a node's
        // fallback is shallower than it.
        var fallbacks = Array(repeating: Self.root, count: parents.count)
        var found: [[Int32]] = Array(repeating: [], count: parents.count)
        for node in parents.indices.dropFirst().sorted(by: { depths[$0] < depths[$1] }) {
            let parent = parents[node]
            if parent != Self.root {
                var candidate = fallbacks[Int(parent)]
                while true {
                    if let next = Self.child(of: candidate, scalars[node], in: transitions) {
                        fallbacks[node] = next
                        break
                    }
                    if candidate == Self.root { break }
                    candidate = fallbacks[Int(candidate)]
                }
            }
            found[node] = (ends[node] >= 0 ? [ends[node]] : []) + found[Int(fallbacks[node])]
        }
        var foundStarts: [Int32] = [0]
        var foundSubstrings: [Int32] = []
        for list in found {
            foundSubstrings += list
            foundStarts.append(Int32(foundSubstrings.count))
        }
        self.transitions = transitions
        self.fallbacks = fallbacks
        self.foundStarts = foundStarts
        self.foundSubstrings = foundSubstrings
    }

    /// Counts one row's distinct held substrings under its scope value.
    func add(_ texts: RowScalars, scope: DatabaseValue) {
        row += 1
        let row = self.row
        let number = scopes.number(of: scope)
        if tallies.count < (number + 1) * substrings.count {
            tallies += Array(repeating: RowTally(), count: (number + 1) * substrings.count - tallies.count)
        }
        let first = number * substrings.count
        tallies.withUnsafeMutableBufferPointer { tallies in
            var node = Self.root
            for scalar in texts.values {
                while true {
                    if let next = Self.child(of: node, scalar, in: transitions) {
                        node = next
                        break
                    }
                    if node == Self.root { break }
                    node = fallbacks[Int(node)]
                }
                for index in Int(foundStarts[Int(node)])..<Int(foundStarts[Int(node) + 1]) {
                    tallies[first + Int(foundSubstrings[index])].add(row: row)
                }
            }
        }
    }

    /// The rows counted per held substring and scope value, those counting 0 left out.
    var counts: [(substring: String, scope: DatabaseValue, count: Int)] {
        tallies.indices.compactMap { index in
            let tally = tallies[index]
            guard tally.count > 0 else { return nil }
            return (substrings[index % substrings.count], scopes.values[index / substrings.count], tally.count)
        }
    }

    /// The key of the transition from `node` by `scalar` in ``transitions``: the node in the high
    /// word, the scalar's value in the low one.
    private static func transitionKey(_ node: Int32, _ scalar: UInt32) -> UInt64 {
        UInt64(UInt32(bitPattern: node)) << 32 | UInt64(scalar)
    }

    /// The node `scalar` leads to from `node`; nil when no held substring continues so.
    private static func child(of node: Int32, _ scalar: UInt32, in transitions: IntegerKeyTable) -> Int32? {
        transitions.value(for: transitionKey(node, scalar)).map { Int32(truncatingIfNeeded: $0) }
    }
}
