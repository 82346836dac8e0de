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
            let schema = try TestSchema()
            let configuration = PostgreSQLConfiguration(primary: schema.primary, replicas: schema.replicas)
            let cluster = try PostgreSQLCluster(configuration)
            return TestStore(writer: cluster, directory: nil, openAgain: { try PostgreSQLCluster(configuration) }) {
                cluster.close()
                withExtendedLifetime(schema) {}
            }
        }
    }
}

/// A schema of its own on the test servers, dropped when the value goes away, so that tests run in
/// parallel without seeing each other's tables: the URLs of the primary and replicas with their
/// `search_path` set to it, so that whatever connects through them (a `PostgreSQLCluster`, a
/// `catalog` process) works in it alone.
public final class TestSchema: Sendable {
    /// The schema's name.
    public let name: String
    /// The primary's URL, in the schema.
    public let primary: String
    /// The replicas' URLs, in the schema.
    public let replicas: [String]
    private let server: String

    /// `pg_trgm` (a searchable entity's structures use it), created once in `public`: created in a
    /// store's schema, it would go with that schema, and with it every other store's trigram index.
    private static let trigramExtension: Result<Void, any Error> = Result {
        try PostgreSQLConnection(url: try PostgreSQLServers.shared().primary).execute(sql: "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
    }

    /// Creates the schema on `servers`: the shared test servers, or a suite's own.
    ///
    /// - Throws: when the servers are not configured in CI, or cannot be reached.
    public init(servers own: PostgreSQLServers? = nil) throws {
        let servers = try own ?? PostgreSQLServers.shared()
        if own == nil { try Self.trigramExtension.get() }
        let name = "test_" + UUID().uuidString.lowercased().replacing("-", with: "")
        try PostgreSQLConnection(url: servers.primary).execute(sql: "CREATE SCHEMA \(name)")
        self.name = name
        server = servers.primary
        primary = Self.url(servers.primary, schema: name)
        replicas = servers.replicas.map { Self.url($0, schema: name) }
    }

    deinit {
        try? PostgreSQLConnection(url: server).execute(sql: "DROP SCHEMA \(name) CASCADE")
    }

    /// A connection to the primary, in the schema.
    public func connect() throws -> PostgreSQLConnection { try PostgreSQLConnection(url: primary) }

    /// `url` with its connections' `search_path` set to `schema`.
    static func url(_ url: String, schema: String) -> String {
        url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
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
