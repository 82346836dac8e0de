/// Where a ``PostgreSQLCluster`` connects, and how it uses its replicas.
///
/// ```swift
/// var configuration = PostgreSQLConfiguration(
///     primary: "postgresql://app@db1:5432/catalog",
///     replicas: ["postgresql://app@db2:5432/catalog", "postgresql://app@db3:5432/catalog"])
/// configuration.log = { line in print(line) }
/// ```
///
/// URLs are libpq's connection strings: `postgresql://user[:password]@host:port/database?options`,
/// or `key=value` pairs.
///
/// Related PostgreSQL documentation: <https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNSTRING>
public struct PostgreSQLConfiguration: Sendable {
    /// The primary: every write, change tracking and notifications.
    public var primary: String
    /// Streaming replicas of the primary, which serve reads.
    public var replicas: [String]
    /// What the cluster reports about its replicas (one skipped as down or lagging, one back), one
    /// line per event; nil reports nothing.
    public var log: (@Sendable (String) -> Void)?

    /// A configuration with a primary and, optionally, replicas.
    public init(primary: String, replicas: [String] = []) {
        self.primary = primary
        self.replicas = replicas
    }
}
