@testable import Entities
import SQLiteStore
import Testing

/// `InsertedKeys` against a set of the keys stored: never "absent" for a stored key (a false answer
/// would insert a taken key), and no answer once a key of another type is stored.
struct InsertedKeysTests {
    @Test func aStoredTextIsNeverSaidAbsent() {
        let keys = InsertedKeys()
        var stored = Set<String>()
        #expect(!keys.mayHold(.text("anything")))
        for index in 0..<50_000 {
            let text = index % 3 == 0 ? "Café \(index)" : index % 3 == 1 ? "東京 \(index * 7)" : "e\u{301} \(index)"
            keys.insert(.text(text))
            stored.insert(text)
        }
        #expect(stored.allSatisfy { keys.mayHold(.text($0)) })
        // Canonically equivalent texts are different keys to SQLite's BINARY collation: an answer for
        // one may not stand for the other, but a "maybe" only costs a lookup.
        let absent = (0..<10_000).map { "absent \($0)" }.filter { !keys.mayHold(.text($0)) }
        #expect(absent.count > 9_900)
    }

    @Test func aKeyOfAnotherTypeTurnsTheAnswersOff() {
        let keys = InsertedKeys()
        keys.insert(.text("a"))
        #expect(!keys.mayHold(.text("5")))
        keys.insert(.integer(5))
        #expect(keys.mayHold(.text("5")))
        #expect(keys.mayHold(.text("b")))
        #expect(keys.mayHold(.integer(7)))
    }
}
