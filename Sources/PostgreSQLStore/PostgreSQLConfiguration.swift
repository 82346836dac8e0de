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
    /// How long a read waits for a replica to replay the primary's position this cluster's reads
    /// must see (after its last write, or a notification's wake-up) before it reads on the primary
    /// instead, logging the replica as lagging.
    public var replicaWaitLimit: Duration = .seconds(1)
    /// How stale a replica's answer may be, for every read: a replica whose replay lags the primary by
    /// more (the time since the last transaction it replayed, while it has received more WAL than it
    /// replayed; or no WAL receiver at all) is skipped with a logged line, and the read goes to
    /// another replica or the primary. A replica whose WAL receiver has not yet noticed a lost
    /// primary counts as current until `wal_receiver_timeout` ends its stream.
    public var replicaLagLimit: Duration = .seconds(1)
    /// How long a replica found down (unreachable, shut down, restarting) is left out of reads before
    /// it is tried again.
    public var replicaRetryInterval: Duration = .seconds(5)
    /// What the cluster reports about its replicas (one skipped as down or lagging) and its
    /// listening connections (one not closed within the bound of a cancel's wait), one line per
    /// event; nil reports nothing.
    public var log: (@Sendable (String) -> Void)?

    /// A configuration with a primary and, optionally, replicas.
    public init(primary: String, replicas: [String] = []) {
        self.primary = primary
        self.replicas = replicas
    }
}
