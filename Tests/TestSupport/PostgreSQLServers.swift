import Foundation

/// A PostgreSQL primary and its streaming replicas for the tests, started by Scripts/postgres.
///
/// ```swift
/// let servers = try PostgreSQLServers.shared()
/// let db = try PostgreSQLConnection(url: servers.primary)
/// ```
///
/// ``shared()`` is the pair CI starts (`.ci/run` exports `CATALOG_TEST_POSTGRESQL_PRIMARY` and
/// `CATALOG_TEST_POSTGRESQL_REPLICA`). Without them, outside CI, the first call starts a throwaway
/// cluster with the script (fsync off) in a temporary folder and stops it when the test process
/// exits, so that `swift test` alone runs the PostgreSQL suites; with `CI=true`, missing variables
/// fail the suites, never skip them.
public final class PostgreSQLServers: Sendable {
    /// The primary's URL.
    public let primary: String
    /// The replicas' URLs.
    public let replicas: [String]
    /// The folder of a cluster these tests started (nil for CI's).
    public let directory: String?

    init(primary: String, replicas: [String], directory: String?) {
        self.primary = primary
        self.replicas = replicas
        self.directory = directory
    }

    /// The servers every PostgreSQL suite shares.
    ///
    /// - Throws: when they are not configured in CI, or cannot be started.
    public static func shared() throws -> PostgreSQLServers { try sharedServers.get() }

    private static let sharedServers: Result<PostgreSQLServers, any Error> = Result {
        let environment = ProcessInfo.processInfo.environment
        if let primary = environment["CATALOG_TEST_POSTGRESQL_PRIMARY"], !primary.isEmpty {
            let replicas = environment["CATALOG_TEST_POSTGRESQL_REPLICA"].map { [$0] } ?? []
            return PostgreSQLServers(primary: primary, replicas: replicas, directory: nil)
        }
        if environment["CI"] == "true" {
            throw ServerError(
                "CATALOG_TEST_POSTGRESQL_PRIMARY is not set: in CI the PostgreSQL suites run against the servers .ci/run starts")
        }
        let servers = try start(replicas: 1)
        stopAtExit = servers.directory
        atexit { PostgreSQLServers.stopSharedCluster() }
        return servers
    }

    /// The folder of the shared cluster, stopped at exit.
    nonisolated(unsafe) private static var stopAtExit: String?

    private static func stopSharedCluster() {
        guard let directory = stopAtExit else { return }
        _ = try? shell(script.path, "stop", directory)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts a cluster of its own for a test that stops or restarts servers; ``stop()`` it at the
    /// end. Its ports are drawn at random (clusters started at once would find the same free ports),
    /// and drawn again when taken.
    public static func start(replicas: Int) throws -> PostgreSQLServers {
        var failures: [String] = []
        for _ in 0..<3 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-postgres-\(UUID().uuidString)").path
            let port = Int.random(in: 2000..<4000) * 10
            let result = try shell(script.path, "start", "--replicas", String(replicas), "--no-fsync", directory, String(port))
            guard result.status == 0 else {
                _ = try? shell(script.path, "stop", directory)
                try? FileManager.default.removeItem(atPath: directory)
                failures.append(result.output)
                continue
            }
            let lines = result.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            guard let primary = lines.first(where: { $0.first == "primary" })?.last else {
                throw ServerError("Scripts/postgres printed no primary: \(result.output)")
            }
            return PostgreSQLServers(
                primary: primary, replicas: lines.filter { $0.first == "replica" }.compactMap(\.last), directory: directory)
        }
        throw ServerError("Scripts/postgres start failed: \(failures.joined(separator: "\n"))")
    }

    /// Stops the servers of a cluster started by ``start(replicas:)`` and removes its folder.
    public func stop() {
        guard let directory else { return }
        _ = try? Self.shell(Self.script.path, "stop", directory)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Stops one server of a cluster started by ``start(replicas:)``: `replica1`, or `primary`.
    public func stopServer(_ name: String) throws {
        try control(name, "stop", "-m", "fast")
    }

    /// Starts again a server stopped by ``stopServer(_:)``.
    public func startServer(_ name: String) throws {
        try control(name, "start", "-l", "\(directory!)/\(name).log")
    }

    private func control(_ name: String, _ arguments: String...) throws {
        guard let directory else { throw ServerError("only a cluster these tests started can be stopped") }
        var command = ["/usr/lib/postgresql/15/bin/pg_ctl", "-D", "\(directory)/\(name)", "-w"] + arguments
        if getuid() == 0 { command = ["runuser", "-u", "postgres", "--"] + command }
        let result = try Self.shell(command)
        guard result.status == 0 else {
            throw ServerError("pg_ctl \(arguments.joined(separator: " ")) \(name) failed: \(result.output)")
        }
    }

    /// Runs Scripts/postgres with `arguments`: its exit status and what it printed.
    public static func runScript(_ arguments: String...) throws -> (status: Int32, output: String) {
        try shell([script.path] + arguments)
    }

    /// Runs a command with posix_spawn and waitpid, its output gathered in a file. Not Foundation's
    /// Process: its wait never returned for the script, whose servers outlive it.
    private static func shell(_ command: String...) throws -> (status: Int32, output: String) {
        try shell(command)
    }

    private static func shell(_ command: [String]) throws -> (status: Int32, output: String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-postgres-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let quoted = command.map { "'" + $0.replacing("'", with: "'\\''") + "'" }.joined(separator: " ")
        // The servers outlive this call: the shell first closes every descriptor past standard error
        // that this process had open (another test's pipe to a child, say), so that no server holds
        // one and keeps that child from ever seeing the end of its input.
        let closeInherited = "{ for fd in /proc/$$/fd/*; do fd=${fd##*/}; if [ \"$fd\" -gt 2 ]; then exec {fd}>&-; fi; done; } 2>/dev/null"
        let arguments = ["/bin/bash", "-c", "\(closeInherited); \(quoted) </dev/null >'\(output)' 2>&1"]
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/bash", nil, nil, &cArguments, environ)
        guard spawned == 0 else { throw ServerError("cannot run /bin/bash: error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return ((status >> 8) & 0xff, text)
    }

    /// Scripts/postgres in this package.
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/postgres")

    struct ServerError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
