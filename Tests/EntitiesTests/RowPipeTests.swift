import Testing
@testable import Entities

/// `RowPipe`, the hand-over of a bulk load's rows to the thread that sends them, checked against
/// what it promises: the rows arrive in order, a consumer that fails is reported as it failed, and
/// a sender that gives up ends the consumer's rows with an error.
@Suite struct RowPipeTests {
    struct Refused: Error, Equatable {}

    /// The rows the consumer read; read by the test only after `finish()` has waited for it.
    final class Read: @unchecked Sendable {
        var rows: [Int] = []
        var error: (any Error)?
    }

    @Test func theConsumerReadsEveryRowInOrder() throws {
        let read = Read()
        let pipe = RowPipe<Int> { rows in
            var rows = rows
            while let row = try rows.next() { read.rows.append(row) }
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

    /// A sender that gives up (`abandon()`) after some rows: the consumer's next read throws once it
    /// has read what was queued (a COPY it runs is aborted, not ended), `abandon()` returns once the
    /// consumer has, and ending the pipe again does nothing (no second wait that never ends).
    @Test func anAbandonedPipeEndsItsConsumersRowsWithAnError() throws {
        let read = Read()
        let pipe = RowPipe<Int> { rows in
            var rows = rows
            do {
                while let row = try rows.next() { read.rows.append(row) }
            } catch {
                read.error = error
                throw error
            }
        }
        for row in 0..<2_000 { try pipe.send(row) }
        pipe.abandon()
        #expect(read.error is RowPipe<Int>.Abandoned)
        #expect(read.rows == Array(0..<read.rows.count))
        #expect(read.rows.count < 2_000)
        pipe.abandon()
        #expect(throws: RowPipe<Int>.Abandoned.self) { try pipe.finish() }
    }

    /// Abandoning a pipe whose rows ended (`finish()`) does nothing: its consumer returned already.
    @Test func abandoningAFinishedPipeDoesNothing() throws {
        let read = Read()
        let pipe = RowPipe<Int> { rows in
            var rows = rows
            while let row = try rows.next() { read.rows.append(row) }
        }
        for row in 0..<1_000 { try pipe.send(row) }
        try pipe.finish()
        pipe.abandon()
        try pipe.finish()
        #expect(read.rows == Array(0..<1_000))
    }
}
