import SQLiteStore
import Synchronization

/// The SQL statements a connection runs, as its `Configuration.trace` reports them, collected while
/// a body runs.
///
/// ```swift
/// let trace = StatementTrace()
/// let queue = try DatabaseQueue(path: path, configuration: trace.configuration)
/// let statements = try trace.of { try queue.read { db in … } }
/// ```
public final class StatementTrace: Sendable {
    /// The statements recorded since ``of(_:)`` began; nil outside it.
    private let statements = Mutex<[String]?>(nil)

    /// A trace that records nothing until ``of(_:)`` runs.
    public init() {}

    /// A default configuration whose `trace` is ``record(_:)``.
    public var configuration: Configuration {
        var configuration = Configuration()
        configuration.trace = { [self] in record($0) }
        return configuration
    }

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
