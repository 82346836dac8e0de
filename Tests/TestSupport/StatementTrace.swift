import Synchronization

/// The SQL statements a connection runs, as its `Configuration.trace` reports them, collected while
/// a body runs.
///
/// ```swift
/// let trace = StatementTrace()
/// var configuration = Configuration()
/// configuration.trace = { trace.record($0) }
/// let statements = try trace.of { try queue.read { db in … } }
/// ```
public final class StatementTrace: Sendable {
    /// The statements recorded since ``of(_:)`` began; nil outside it.
    private let statements = Mutex<[String]?>(nil)

    /// A trace that records nothing until ``of(_:)`` runs.
    public init() {}

    /// Records `sql` when ``of(_:)`` is running (the function to give `Configuration.trace`).
    public func record(_ sql: String) { statements.withLock { $0?.append(sql) } }

    /// The statements that `body` runs, in order.
    public func of(_ body: () throws -> Void) rethrows -> [String] {
        statements.withLock { $0 = [] }
        defer { statements.withLock { $0 = nil } }
        try body()
        return statements.withLock { $0 ?? [] }
    }
}
