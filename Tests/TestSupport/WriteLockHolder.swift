import Foundation

/// Another program holding a database's write lock: Python's `sqlite3` module (not this package's
/// store, so that the file is left in whatever journal mode it has, even a new file's rollback
/// journal) runs `BEGIN IMMEDIATE`, holds the lock for a while, then rolls back and exits.
public final class WriteLockHolder {
    private let process = Process()

    /// Starts the other program on the database at `path` and returns once it holds the write lock,
    /// which it keeps for `seconds` (or until ``release()``).
    public init(path: String, seconds: Double) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute('BEGIN IMMEDIATE')
            print('locked', flush=True)
            time.sleep(float(sys.argv[2]))
            c.execute('ROLLBACK')
            """
        process.arguments = ["python3", "-c", script, path, String(seconds)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        _ = output.fileHandleForReading.availableData  // waits for "locked"
    }

    deinit { release() }

    /// Waits until the other program has let the lock go by itself and exited.
    public func waitUntilReleased() {
        process.waitUntilExit()
    }

    /// Ends the other program now (its lock goes with it) and waits for it to exit. SIGKILL, since
    /// the program inherits the test runner's thread's signal mask, in which SIGTERM may be blocked
    /// (then `terminate()` would leave it holding the lock until its time is up).
    public func release() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
