import CSQLite
import Synchronization

/// Whether the task an access runs for was cancelled: set from any thread by a task's cancellation
/// handler, read by the connection's progress handler between virtual machine instructions.
final class CancellationFlag: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// Marks the access cancelled: its running statement stops at the next progress check, and no
    /// statement starts after it (``Database/checkNotCancelled(_:)``).
    func cancel() { cancelled.store(true, ordering: .relaxed) }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// - Throws: `CancellationError` once cancelled.
    func checkCancellation() throws {
        if isCancelled { throw CancellationError() }
    }
}

/// The flag of the access a connection is running, read by its progress handler; touched only on the
/// thread that holds the connection.
final class ProgressHandlerContext {
    var flag: CancellationFlag?
    /// The writes a pool's reader makes way for (``PendingWrites``); nil on other connections.
    var pendingWrites: PendingWrites?
    /// While ``Database/withInstructionLimit(_:_:)`` runs: how many more progress checks its
    /// statements may pass before one is interrupted; nil otherwise.
    var remainingChecks: Int?
    /// Whether the instruction limit interrupted a statement.
    var limitReached = false
}

extension Database {
    /// How many SQLite virtual machine instructions run between two checks for cancellation: a few
    /// microseconds of work, so a cancelled query stops almost at once, while the check (one atomic
    /// load) costs well under 0.1% of a query.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/progress_handler.html>
    public static let cancellationCheckInterval: Int32 = 1000

    /// Installs the progress handler that interrupts a statement once its access is cancelled or its
    /// instruction limit is spent (``withInstructionLimit(_:_:)``), and, on a pool's reader, makes way
    /// for a pending write.
    func installCancellationCheck(_ handle: SQLiteConnection) {
        // > If the progress callback returns non-zero, the operation is interrupted.
        // > (https://www.sqlite.org/c3ref/progress_handler.html)
        sqlite3_progress_handler(handle, Self.cancellationCheckInterval, { context in
            guard let context else { return 0 }
            let progress = Unmanaged<ProgressHandlerContext>.fromOpaque(context).takeUnretainedValue()
            progress.pendingWrites?.yieldIfPending()
            if progress.flag?.isCancelled == true { return 1 }
            if let remaining = progress.remainingChecks {
                guard remaining > 0 else {
                    progress.limitReached = true
                    return 1
                }
                progress.remainingChecks = remaining - 1
            }
            return 0
        }, Unmanaged.passUnretained(progressContext).toOpaque())
    }

    /// Throws what a statement the progress handler interrupts throws (`SQLITE_INTERRUPT`), instead of
    /// starting `sql`, once the running access is cancelled: the handler sees a cancel only inside a
    /// statement, every ``cancellationCheckInterval`` instructions, so a shorter statement started
    /// after it would run to its end.
    func checkNotCancelled(_ sql: @autoclosure () -> String) throws {
        guard progressContext.flag?.isCancelled == true else { return }
        throw DatabaseError(resultCode: .SQLITE_INTERRUPT, message: "the statement was not run: its task was cancelled", sql: sql())
    }

    /// Runs `body` so that cancelling `flag` interrupts its statements: a statement stopped by the
    /// flag throws `CancellationError` instead of `SQLITE_INTERRUPT`, and a transaction left open by a
    /// cancelled `body` is rolled back.
    ///
    /// - Throws: `CancellationError` when `flag` is cancelled before `body` starts or while it runs a
    ///   statement; what `body` throws.
    func cancellable<T>(by flag: CancellationFlag, _ body: () throws -> T) throws -> T {
        try flag.checkCancellation()
        progressContext.flag = flag
        do {
            let result = try body()
            progressContext.flag = nil
            return result
        } catch {
            progressContext.flag = nil
            guard flag.isCancelled else { throw error }
            // > If the interrupted SQL statement is an INSERT, UPDATE, or DELETE that is inside an
            // > explicit transaction, then the entire transaction will be rolled back automatically.
            // > (https://www.sqlite.org/c3ref/interrupt.html) Whatever else stopped it: end it here.
            if isInsideTransaction { try? execute(sql: "ROLLBACK TRANSACTION") }
            throw CancellationError()
        }
    }
}
