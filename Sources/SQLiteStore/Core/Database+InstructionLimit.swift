extension Database {
    /// Runs `body`, interrupting its statements once they have run about `instructions` SQLite
    /// virtual machine instructions in all; nil when the limit interrupted one.
    ///
    /// A bound on the work of a statement whose length is not known in advance, such as a walk
    /// along an index that stops at a page of matches (`LIMIT` counts rows returned, not rows
    /// read). The limit is checked by the connection's progress handler every
    /// ``cancellationCheckInterval`` instructions, so a statement runs up to that many more.
    /// A read-only statement so interrupted leaves the transaction as it was.
    ///
    /// ```swift
    /// let ids = try db.withInstructionLimit(200_000) {
    ///     try db.fetchAll(sql: "SELECT id FROM products WHERE instr(name_folded, 'mac') > 0 LIMIT 50") { try $0.decode(Int64.self, at: 0) }
    /// }  // nil: the scan read too far
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/progress_handler.html>
    ///
    /// - Throws: what `body` throws, except the interruption by the limit.
    public func withInstructionLimit<T>(_ instructions: Int, _ body: () throws -> T) throws -> T? {
        precondition(instructions >= 0, "a negative instruction limit")
        precondition(progressContext.remainingChecks == nil, "instruction limits do not nest")
        progressContext.remainingChecks = instructions / Int(Self.cancellationCheckInterval)
        progressContext.limitReached = false
        defer {
            progressContext.remainingChecks = nil
            progressContext.limitReached = false
        }
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && progressContext.limitReached {
            return nil
        }
    }
}
