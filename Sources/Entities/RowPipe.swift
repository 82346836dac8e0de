import Dispatch
import SQLiteStore
import Synchronization

/// Rows handed by the thread that makes them (``send(_:)``) to a consumer that reads them one by one
/// (``Rows/next()``) on a thread of its own, a batch at a time: so that reading and folding a bulk load's
/// records and sending them (`COPY`) run at once (W1b on PostgreSQL). At most `batchesInFlight`
/// batches wait between the two, so memory stays bounded however many rows pass.
///
/// `@unchecked Sendable`: the consumer takes whatever it captures (a connection) to its thread, and
/// the sender must not touch those until ``finish()`` or ``abandon()`` has waited for it; the queue of
/// batches is behind a mutex, and the two threads wait on semaphores.
final class RowPipe<Row>: @unchecked Sendable {
    /// The rows of one batch.
    private static var batchSize: Int { 512 }
    /// The batches that may wait for the consumer.
    private static var batchesInFlight: Int { 8 }

    /// The batches sent and not yet read, nil after the last; behind `lock`.
    private var batches: [[Row]?] = []
    private let lock = Mutex(())
    /// Signalled for each batch queued (or the end).
    private let queued = DispatchSemaphore(value: 0)
    /// Signalled for each place freed in the queue (and, once the consumer is done, for every sender).
    /// Made at 0 and signalled `batchesInFlight` times: libdispatch traps when a semaphore is freed
    /// below its initial value, as this one is when the consumer throws with batches still queued.
    private let free = DispatchSemaphore(value: 0)
    /// Signalled when the consumer has returned or thrown.
    private let finished = DispatchSemaphore(value: 0)
    /// What the consumer returned or threw, once it has; behind `lock`.
    private var outcome: Result<Void, any Error>?
    /// Whether the sender gave up (``abandon()``): the consumer's next read throws; behind `lock`.
    private var abandoned = false
    /// Whether ``finish()`` or ``abandon()`` has waited for the consumer: the wait happens once.
    private var ended = false
    private let consume: (Rows) throws -> Void
    private var filling: [Row] = []

    /// Starts `consume` on a thread of its own with the rows sent, in order, which end at ``finish()``.
    /// A thread of its own, not a dispatch queue's: the sender, itself on a connection's queue,
    /// blocks until the consumer reads, which must not wait for a pool thread that others hold.
    init(_ consume: @escaping (Rows) throws -> Void) {
        self.consume = consume
        for _ in 0..<Self.batchesInFlight { free.signal() }
        DetachedThread.start { [self] in
            let result = Result { try self.consume(Rows(pipe: self)) }
            lock.withLock { _ in outcome = result }
            // The consumer reads no more: a sender waiting for a place finds that it ended.
            free.signal()
            finished.signal()
        }
    }

    /// Hands `row` to the consumer.
    ///
    /// - Throws: What the consumer threw, when it has ended early.
    func send(_ row: Row) throws {
        filling.append(row)
        if filling.count == Self.batchSize { try flush(filling) }
    }

    /// Ends the rows, waits for the consumer and throws what it threw.
    func finish() throws {
        if !ended {
            ended = true
            if !filling.isEmpty { try? flush(filling) }
            try? flush(nil)
            finished.wait()
        }
        try lock.withLock { _ in outcome }?.get()
    }

    /// Gives up: the consumer's next read throws ``Abandoned`` (so a `COPY` it runs is aborted, not
    /// ended), whatever is queued is dropped, and this waits for the consumer to return. Once the
    /// rows ended (``finish()``), it does nothing: it may be called any number of times.
    func abandon() {
        guard !ended else { return }
        ended = true
        filling = []
        lock.withLock { _ in abandoned = true }
        queued.signal()  // wakes a consumer waiting for a batch
        finished.wait()
    }

    /// What the consumer's read throws once the sender gave up (``abandon()``).
    struct Abandoned: Error, CustomStringConvertible {
        var description: String { "the rows' sender gave up" }
    }

    private func flush(_ batch: [Row]?) throws {
        filling = []
        filling.reserveCapacity(Self.batchSize)
        free.wait()
        if let outcome = lock.withLock({ _ in outcome }) {
            free.signal()
            try outcome.get()
            throw CancellationError()  // The consumer returned before the last row: never so.
        }
        lock.withLock { _ in batches.append(batch) }
        queued.signal()
    }

    /// The rows sent, as the consumer reads them: each `next()` waits for a batch when the last is
    /// read, and throws ``Abandoned`` then once the sender gave up.
    struct Rows {
        fileprivate let pipe: RowPipe
        private var batch: [Row] = []
        private var index = 0
        private var ended = false

        fileprivate init(pipe: RowPipe) { self.pipe = pipe }

        mutating func next() throws -> Row? {
            if index == batch.count {
                guard !ended else { return nil }
                pipe.queued.wait()
                let next = try pipe.lock.withLock { _ in
                    if pipe.abandoned { throw Abandoned() }
                    return pipe.batches.removeFirst()
                }
                pipe.free.signal()
                guard let next else {
                    ended = true
                    return nil
                }
                (batch, index) = (next, 0)
            }
            index += 1
            return batch[index - 1]
        }
    }
}
