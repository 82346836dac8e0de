/// Integers under 64-bit keys in one open-addressing table (linear probing, at most half full,
/// doubled when it would be more), for the lookups a bulk build makes for each scalar and each gram
/// of each new row (millions for 100,000 rows): a multiply, a shift and a compare or a few, where a
/// `Dictionary` hashes each key with SipHash. The transitions of ``HeldSubstringCounter``'s
/// automaton, a bulk build's gram counts (on PostgreSQL too: `GramTally`) and the trigrams' rows
/// of ``SubstringCounter``.
package struct IntegerKeyTable {
    private var keys: [UInt64]
    private var values: [Int]
    private var used = 0
    /// The right shift that takes a hashed key to a slot: 64 − log2 of the table's size.
    private var slotShift: UInt64

    /// The key no value has: it marks an empty slot.
    static let emptyKey = UInt64.max

    /// An empty table with room for `capacity` keys before it grows.
    package init(capacity: Int = 512) {
        var slots = 2
        while slots < 2 * capacity { slots *= 2 }
        keys = Array(repeating: Self.emptyKey, count: slots)
        values = Array(repeating: 0, count: slots)
        slotShift = UInt64(64 - slots.trailingZeroBitCount)
    }

    /// The value under `key`; nil when there is none.
    package func value(for key: UInt64) -> Int? {
        var slot = slot(of: key)
        while true {
            let found = keys[slot]
            if found == key { return values[slot] }
            if found == Self.emptyKey { return nil }
            slot = (slot + 1) & (keys.count - 1)
        }
    }

    /// Adds `amount` to the value under `key` (not ``emptyKey``), 0 when there is none.
    package mutating func add(_ amount: Int, to key: UInt64) {
        update(key) { $0 += amount }
    }

    /// Changes the value under `key` (not ``emptyKey``) in place, 0 when there is none.
    package mutating func update(_ key: UInt64, _ change: (inout Int) -> Void) {
        var slot = slot(of: key)
        while true {
            let found = keys[slot]
            if found == key {
                change(&values[slot])
                return
            }
            if found == Self.emptyKey { break }
            slot = (slot + 1) & (keys.count - 1)
        }
        guard 2 * (used + 1) <= keys.count else {
            grow()
            return update(key, change)
        }
        keys[slot] = key
        values[slot] = 0
        used += 1
        change(&values[slot])
    }

    /// The keys and their values, in no order.
    package var entries: [(key: UInt64, value: Int)] {
        keys.indices.compactMap { keys[$0] == Self.emptyKey ? nil : (keys[$0], values[$0]) }
    }

    private mutating func grow() {
        let old = entries
        self = IntegerKeyTable(capacity: keys.count)
        for (key, value) in old { add(value, to: key) }
    }

    /// The first slot probed for `key`: Fibonacci hashing, the top bits of the key times 2⁶⁴/φ.
    private func slot(of key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> slotShift)
    }
}
