import Foundation
import PostgreSQLStore
import SQLiteStore

/// The engines a suite written once runs on, as a test's arguments:
///
/// ```swift
/// @Test(arguments: StoreEngine.all) func notesRoundTrip(engine: StoreEngine) throws {
///     let store = try engine.makeStore()
///     try store.writer.write { db in try note.insert(db) }
/// }
/// ```
///
/// `postgreSQL` runs on the shared test servers (``PostgreSQLServers/shared()``), each store in a
/// schema of its own. `CATALOG_TEST_ENGINE=sqlite` (or `postgresql`) keeps one engine, for a quick
/// local run; CI runs both.
public enum StoreEngine: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgreSQL = "postgresql"

    /// The engines to test: both, or the one `CATALOG_TEST_ENGINE` names.
    public static var all: [StoreEngine] {
        guard let name = ProcessInfo.processInfo.environment["CATALOG_TEST_ENGINE"], let engine = StoreEngine(rawValue: name.lowercased())
        else { return allCases }
        return [engine]
    }

    public var description: String { rawValue }

    /// `pg_trgm` (a searchable entity's structures use it), created once in `public`: created in a
    /// store's schema, it would go with that schema, and with it every other store's trigram index.
    private static let trigramExtension: Result<Void, any Error> = Result {
        try PostgreSQLConnection(url: try PostgreSQLServers.shared().primary).execute(sql: "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
    }

    /// A fresh, empty store of the engine: an SQLite file in a temporary folder, or a schema of its
    /// own on the test primary (with the test replicas), dropped when the store goes away.
    public func makeStore() throws -> TestStore {
        switch self {
        case .sqlite:
            let directory = try TemporaryDirectory()
            let queue = try DatabaseQueue(path: directory.path())
            return TestStore(
                writer: queue, directory: directory, openAgain: { try DatabaseQueue(path: directory.path()) }, remove: { try? queue.close() })
        case .postgreSQL:
            let servers = try PostgreSQLServers.shared()
            try Self.trigramExtension.get()
            let schema = "test_" + UUID().uuidString.lowercased().replacing("-", with: "")
            try PostgreSQLConnection(url: servers.primary).execute(sql: "CREATE SCHEMA \(schema)")
            let inSchema = { (url: String) in url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)" }
            let configuration = PostgreSQLConfiguration(primary: inSchema(servers.primary), replicas: servers.replicas.map(inSchema))
            let cluster = try PostgreSQLCluster(configuration)
            return TestStore(writer: cluster, directory: nil, openAgain: { try PostgreSQLCluster(configuration) }) {
                cluster.close()
                try? PostgreSQLConnection(url: servers.primary).execute(sql: "DROP SCHEMA \(schema) CASCADE")
            }
        }
    }
}

/// A store a test made (``StoreEngine/makeStore()``), removed when it goes away.
public final class TestStore: Sendable {
    /// The store.
    public let writer: any StoreWriter
    private let directory: TemporaryDirectory?
    private let opening: @Sendable () throws -> any StoreWriter
    private let remove: @Sendable () -> Void

    init(
        writer: any StoreWriter, directory: TemporaryDirectory?, openAgain: @escaping @Sendable () throws -> any StoreWriter,
        remove: @escaping @Sendable () -> Void
    ) {
        self.writer = writer
        self.directory = directory
        self.opening = openAgain
        self.remove = remove
    }

    /// Another store on the same database, as a second process would open it: a connection of its own
    /// to the SQLite file, or a cluster of its own on the schema.
    public func openAgain() throws -> any StoreWriter { try opening() }

    deinit { remove() }
}
