/// A ``DatabaseWriter`` whose writes all run on one serialized connection: ``DatabaseQueue`` (its only
/// connection) and ``DatabasePool`` (its writer). The write methods are written once, here.
protocol SerializedWriter: DatabaseWriter {
    /// The connection every write runs on.
    var writerConnection: SerializedDatabase { get }
}

extension SerializedWriter {
    /// Runs `body` in an immediate transaction: committed when it returns, rolled back when it throws.
    ///
    /// The write lock is taken before `body` runs, waiting up to ``Configuration/busyTimeout`` for
    /// another connection to release it.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try writerConnection.write(body)
    }

    /// Runs `body` in an immediate transaction on the writer connection's queue, suspending the calling
    /// task: see ``DatabaseWriter``.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writerConnection.write(body)
    }

    /// Runs `body` with the writer connection and no transaction: for pragmas, VACUUM, or work that
    /// manages its own transactions (like `Migrator`).
    public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try writerConnection.sync(body)
    }

    /// Runs `body` with the writer connection and no transaction, on its queue, suspending the calling
    /// task: see ``DatabaseWriter``.
    public func writeWithoutTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writerConnection.writeWithoutTransaction(body)
    }
}
