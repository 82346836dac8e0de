import Foundation
import RecordFormats
import Testing

/// `FixedPoint.text(_:decimals:)` against its definition (the exact binary value rounded to that many
/// decimals, half to even), and against Foundation's `String(format:)`, which it replaces.
struct FixedPointTests {
    @Test(arguments: [
        (6.1, 2, "6.10"),
        (1.0, 0, "1"),
        // 2.675 is 2.67499999999999982236431605997495353221893310546875 in binary: below the half.
        (2.675, 2, "2.67"),
        // 0.05 is 0.05000000000000000277555756156289135105907917022705078125: above the half.
        (0.05, 1, "0.1"),
        // Exact halves go to the even digit.
        (0.125, 2, "0.12"),
        (0.375, 2, "0.38"),
        (2.5, 0, "2"),
        (3.5, 0, "4"),
        (-0.001, 2, "-0.00"),
        (-1.25, 1, "-1.2"),
        (1e-5, 5, "0.00001"),
        (1e20, 1, "100000000000000000000.0"),
        (1299.99, 2, "1299.99"),
        (Double.leastNonzeroMagnitude, 40, "0." + String(repeating: "0", count: 40)),
    ])
    func namedValues(value: Double, decimals: Int, text: String) {
        #expect(FixedPoint.text(value, decimals: decimals) == text)
    }

    /// Random finite doubles of every magnitude, with 0 to 40 decimals, 20,000 times (fixed seed).
    @Test func asFoundationFormatted() {
        var random = Random(state: 20261127)
        var wrong: [String] = []
        for _ in 0..<20_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite else { continue }
            let decimals = random.below(41)
            let text = FixedPoint.text(value, decimals: decimals)
            if text != String(format: "%.\(decimals)f", value) { wrong.append("\(value) \(decimals): \(text)") }
        }
        #expect(wrong == [])
    }
}
