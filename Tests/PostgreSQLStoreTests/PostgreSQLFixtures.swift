import Foundation
import PostgreSQLStore
import StoreCore
import TestSupport

/// A schema of its own on the shared test primary for each test, dropped at the end, so that tests
/// run in parallel without seeing each other's tables.
final class TestSchema: Sendable {
    let servers: PostgreSQLServers
    let name: String
    /// The primary's URL with `search_path` set to the schema.
    let primary: String
    /// The replicas' URLs, likewise.
    let replicas: [String]

    /// A schema on `servers`: the shared test servers, or a suite's own.
    init(servers own: PostgreSQLServers? = nil) throws {
        servers = try own ?? PostgreSQLServers.shared()
        let name = "test_" + UUID().uuidString.lowercased().replacing("-", with: "")
        self.name = name
        let admin = try PostgreSQLConnection(url: servers.primary)
        try admin.execute(sql: "CREATE SCHEMA \(name)")
        primary = Self.url(servers.primary, schema: name)
        replicas = servers.replicas.map { Self.url($0, schema: name) }
    }

    deinit {
        if let admin = try? PostgreSQLConnection(url: servers.primary) {
            try? admin.execute(sql: "DROP SCHEMA \(name) CASCADE")
        }
    }

    /// A connection to the primary, in the schema.
    func connect() throws -> PostgreSQLConnection { try PostgreSQLConnection(url: primary) }

    /// `url` with its connections' `search_path` set to `schema`.
    static func url(_ url: String, schema: String) -> String {
        url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }
}
