import Dispatch
import Synchronization

/// A pool's reader connections: handed out one access at a time, opened when first needed, up to a
/// maximum; an access that finds them all busy waits for one, suspending its task (async) or blocking
/// its thread (sync), first come first served.
///
/// Why `@unchecked Sendable` and a ``PThreadLock`` rather than `Mutex` (which would be checked): on
/// Linux, `Synchronization.Mutex` locks with futexes that ThreadSanitizer cannot see, so the TSan run
/// of CI reported every pair of accesses to the pool's state as a race; a pthread mutex is one TSan
/// understands. The invariant the compiler cannot check: `state` is read and written only inside
/// `lock.withLock`.
final class ReaderPool: @unchecked Sendable {
    /// Someone waiting for a reader, resumed with it (or with `CancellationError`).
    private struct Waiter {
        var id: Int
        var resume: @Sendable (Result<SerializedDatabase, any Error>) -> Void
    }

    private struct State {
        var idle: [SerializedDatabase] = []
        var all: [SerializedDatabase] = []
        var waiters: [Waiter] = []
        var nextWaiterID = 0
        var isClosed = false
    }

    /// The most readers opened.
    let maximumCount: Int
    private let makeReader: @Sendable () -> SerializedDatabase
    private let lock = PThreadLock()
    private var unsafeState = State()

    init(maximumCount: Int, makeReader: @escaping @Sendable () -> SerializedDatabase) {
        precondition(maximumCount >= 1, "a pool needs at least one reader")
        self.maximumCount = maximumCount
        self.makeReader = makeReader
    }

    private func withState<T>(_ body: (inout State) throws -> T) rethrows -> T {
        try lock.withLock { try body(&unsafeState) }
    }

    /// The number of readers made so far (a reader's connection opens at its first access).
    var count: Int { withState { $0.all.count } }

    /// A free reader, or a new one, or nil after registering `waiter`.
    private func take(orEnqueue waiter: (inout State) -> Waiter?) throws -> SerializedDatabase? {
        try withState { state in
            if state.isClosed { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the pool is closed") }
            if let reader = state.idle.popLast() { return reader }
            if state.all.count < maximumCount {
                let reader = makeReader()
                state.all.append(reader)
                return reader
            }
            if let waiter = waiter(&state) { state.waiters.append(waiter) }
            return nil
        }
    }

    /// A reader for one access, waiting without blocking a thread until one is free.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it waits.
    func acquire() async throws -> SerializedDatabase {
        let id = withState { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SerializedDatabase, any Error>) in
                do {
                    var isWaiting = false
                    let reader = try take { _ in
                        // Checked under the lock: a cancellation handler that ran before finds no waiter,
                        // one that runs after finds it.
                        if Task.isCancelled { return nil }
                        isWaiting = true
                        return Waiter(id: id, resume: { continuation.resume(with: $0) })
                    }
                    if let reader {
                        continuation.resume(returning: reader)
                    } else if !isWaiting {
                        continuation.resume(throwing: CancellationError())
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            let waiter = withState { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            waiter?.resume(.failure(CancellationError()))
        }
    }

    /// A reader for one access, blocking the calling thread until one is free.
    func acquireBlocking() throws -> SerializedDatabase {
        let handOff = HandOff()
        let reader = try take { state in
            defer { state.nextWaiterID += 1 }
            return Waiter(id: state.nextWaiterID, resume: handOff.deliver)
        }
        return try reader ?? handOff.wait()
    }

    /// Gives a reader back, to the longest waiter if any.
    func release(_ reader: SerializedDatabase) {
        let waiter = withState { state -> Waiter? in
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            state.idle.append(reader)
            return nil
        }
        waiter?.resume(.success(reader))
    }

    /// Closes every reader, once its running access ends; later acquisitions fail.
    func close() throws {
        let (readers, waiters) = withState { state in
            state.isClosed = true
            defer { state.waiters = [] }
            return (state.all, state.waiters)
        }
        for waiter in waiters {
            waiter.resume(.failure(DatabaseError(resultCode: .SQLITE_MISUSE, message: "the pool is closed")))
        }
        for reader in readers { try reader.close() }
    }
}

/// A reader handed from a releasing thread to one blocked in ``ReaderPool/acquireBlocking()``.
private final class HandOff: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let result = Mutex<Result<SerializedDatabase, any Error>?>(nil)

    @Sendable func deliver(_ value: Result<SerializedDatabase, any Error>) {
        result.withLock { $0 = value }
        semaphore.signal()
    }

    func wait() throws -> SerializedDatabase {
        semaphore.wait()
        return try result.withLock { $0! }.get()
    }
}
