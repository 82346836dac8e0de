import TestSupport
import Testing
@testable import TextSearch

/// The open-addressing table of a bulk build against a `Dictionary`, across many growths and with
/// keys that share their low or high bits.
struct IntegerKeyTableTests {
    @Test func valuesEqualADictionarys() {
        var random = SplitMix64(seed: 0x7AB1E)
        var table = IntegerKeyTable(capacity: 1)
        var reference: [UInt64: Int] = [:]
        for round in 0..<40_000 {
            let key: UInt64 = switch round % 3 {
            case 0: random.next() % 5_000
            case 1: (random.next() % 5_000) << 42
            default: random.next() & ~(1 << 63)
            }
            let amount = Int(random.next() % 7) - 3
            table.add(amount, to: key)
            reference[key, default: 0] += amount
        }
        #expect(Dictionary(uniqueKeysWithValues: table.entries.map { ($0.key, $0.value) }) == reference)
        for key in reference.keys.prefix(1_000) { #expect(table.value(for: key) == reference[key]) }
        #expect(table.value(for: 5_001) == nil)
    }
}
