import Testing
@testable import Entities

/// `RowPipe`, the hand-over of a bulk load's rows to the thread that sends them, checked against
/// what it promises: the rows arrive in order, and a consumer that fails is reported as it failed.
@Suite struct RowPipeTests {
    struct Refused: Error, Equatable {}

    /// The rows the consumer read; read by the test only after `finish()` has waited for it.
    final class Read: @unchecked Sendable {
        var rows: [Int] = []
    }

    @Test func theConsumerReadsEveryRowInOrder() throws {
        let read = Read()
        let pipe = RowPipe<Int> { rows in
            for row in rows { read.rows.append(row) }
        }
        for row in 0..<5_000 { try pipe.send(row) }
        try pipe.finish()
        #expect(read.rows == Array(0..<5_000))
    }

    /// A consumer that throws with batches still queued (the COPY refused at once): the sender is
    /// told what it threw, not that it was cancelled, and the pipe is freed without a trap.
    @Test func aConsumerThatThrowsIsReportedToTheSender() throws {
        var pipe: RowPipe<Int>? = RowPipe<Int> { _ in throw Refused() }
        #expect(throws: Refused.self) {
            for row in 0..<100_000 { try pipe!.send(row) }
        }
        #expect(throws: Refused.self) { try pipe!.finish() }
        pipe = nil
    }
}
