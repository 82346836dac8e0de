import Synchronization
import StoreCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One streaming replica of a cluster: its connection, and until when it is left out of reads.
final class Replica: Sendable {
    /// Its place in the configuration, from 1, for log lines (a URL may hold a password).
    let number: Int
    let connection: SerializedConnection
    /// When a replica found down may be tried again; nil while it is up.
    let downUntil = Mutex<ContinuousClock.Instant?>(nil)

    init(number: Int, url: String) {
        self.number = number
        connection = SerializedConnection(url: url, label: "PostgreSQLCluster.replica\(number)")
    }

    /// Whether reads may try it now.
    var isAvailable: Bool {
        downUntil.withLock { until in
            guard let deadline = until else { return true }
            if ContinuousClock.now < deadline { return false }
            until = nil
            return true
        }
    }
}

/// Why a replica did not answer a read: it did not replay the cluster's last write in time, or its
/// replay lags past the configuration's `replicaLagLimit`.
struct ReplicaLagging: Error {
    /// What the logged line says after "is lagging: ".
    let reason: String
}

extension PostgreSQLCluster {
    /// Runs `read` on the first available replica that answers it, else on the primary.
    ///
    /// Each replica first waits for its replay position to reach ``lastWritePosition`` (bounded by
    /// the configuration's `replicaWaitLimit`), so the read sees every write this cluster committed,
    /// and must lag the primary by no more than `replicaLagLimit`, so that a caller that has not
    /// written reads no older state. A replica that lags, cannot be reached or fails with a connection error is
    /// skipped with a logged line, and the read runs on the next one; the primary answers last. A
    /// read's own error (bad SQL, a constraint) is thrown as it is.
    func routeRead<T>(_ read: (SerializedConnection, _ before: (PostgreSQLConnection) throws -> Void) throws -> T) throws -> T {
        let position = lastWritePosition.withLock { $0 }
        let (waitLimit, lagLimit) = (configuration.replicaWaitLimit, configuration.replicaLagLimit)
        for replica in availableReplicas() {
            do {
                return try read(replica.connection) { db in
                    try Self.waitForReplay(of: position, on: db, limit: waitLimit, lagLimit: lagLimit)
                }
            } catch {
                try skip(replica, after: error)
            }
        }
        return try read(primaryReader) { _ in }
    }

    /// ``routeRead(_:)`` for an `async` read, whose wait for a replica stops when its access is cancelled.
    func routeRead<T: Sendable>(
        _ read: (
            SerializedConnection, _ before: @escaping @Sendable (PostgreSQLConnection) throws -> Void
        ) async throws -> T
    ) async throws -> T {
        let position = lastWritePosition.withLock { $0 }
        let (waitLimit, lagLimit) = (configuration.replicaWaitLimit, configuration.replicaLagLimit)
        for replica in availableReplicas() {
            do {
                return try await read(replica.connection) { db in
                    try Self.waitForReplay(of: position, on: db, limit: waitLimit, lagLimit: lagLimit)
                }
            } catch {
                try skip(replica, after: error)
            }
        }
        return try await read(primaryReader) { _ in }
    }

    /// The replicas reads may use now, starting with a different one each call to spread the reads.
    private func availableReplicas() -> [Replica] {
        guard !replicas.isEmpty else { return [] }
        let start = nextReplica.add(1, ordering: .relaxed).oldValue % replicas.count
        return (replicas[start...] + replicas[..<start]).filter(\.isAvailable)
    }

    /// Logs why `replica` was skipped (leaving a down one out for a while), or rethrows `error` when it
    /// is the read's own.
    private func skip(_ replica: Replica, after error: any Error) throws {
        if let lagging = error as? ReplicaLagging {
            configuration.log?("replica \(replica.number) is lagging: \(lagging.reason); read on another server")
            return
        }
        guard let error = error as? PostgreSQLError, Self.meansServerUnavailable(error) else { throw error }
        replica.downUntil.withLock { $0 = ContinuousClock.now + configuration.replicaRetryInterval }
        configuration.log?(
            "replica \(replica.number) is down (\(error.message)); left out of reads for \(configuration.replicaRetryInterval)")
    }

    /// Whether `error` says the server cannot serve (class 08 connection exceptions; 57P01-57P03: shut
    /// down, crashed, starting), rather than that the read was wrong.
    static func meansServerUnavailable(_ error: PostgreSQLError) -> Bool {
        error.sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(error.sqlState)
    }

    /// Waits until the replica `db` has replayed the primary's WAL up to `position` (nothing to wait
    /// for at 0), polling its replay position, then checks that its replay lags by at most `lagLimit`.
    ///
    /// - Throws: ``ReplicaLagging`` when it has not replayed `position` within `limit`, or lags
    ///   more; ``PostgreSQLError``.
    static func waitForReplay(of position: UInt64, on db: PostgreSQLConnection, limit: Duration, lagLimit: Duration) throws {
        let deadline = ContinuousClock.now + limit
        let seconds = Double(lagLimit.components.seconds) + Double(lagLimit.components.attoseconds) / 1e18
        while true {
            // Lagging: no WAL receiver (not a streaming replica), or WAL received and not replayed
            // while the last transaction replayed is older than the bound.
            let row = try db.fetchAll(
                sql: """
                    SELECT pg_last_wal_replay_lsn()::text,
                        NOT EXISTS (SELECT FROM pg_stat_wal_receiver)
                        OR (pg_last_wal_receive_lsn() IS DISTINCT FROM pg_last_wal_replay_lsn()
                            AND coalesce(now() - pg_last_xact_replay_timestamp() > make_interval(secs => $1), true))
                    """,
                arguments: [.real(seconds)]
            ).first
            let replayed = row.flatMap { Self.walPosition($0[0]) } ?? 0
            if replayed >= position {
                guard row?[1] == .integer(0) else {
                    throw ReplicaLagging(reason: "its replay is more than \(lagLimit) behind the primary")
                }
                return
            }
            if ContinuousClock.now >= deadline {
                throw ReplicaLagging(reason: "it did not replay the primary's position this reader must see within \(limit)")
            }
            usleep(200)
        }
    }

    /// Records where the primary's WAL stood after a write committed, for reads to wait for: the
    /// insert position, which is past the write's commit record even before it is flushed.
    func recordWritePosition(_ db: PostgreSQLConnection) throws {
        guard !replicas.isEmpty else { return }
        guard let position = try db.scalar(sql: "SELECT pg_current_wal_insert_lsn()::text").flatMap(Self.walPosition) else { return }
        lastWritePosition.withLock { $0 = max($0, position) }
    }

    /// A `pg_lsn` (`16/B374D848`) as one number.
    static func walPosition(_ value: DatabaseValue) -> UInt64? {
        guard case .text(let text) = value else { return nil }
        let parts = text.split(separator: "/")
        guard parts.count == 2, let high = UInt64(parts[0], radix: 16), let low = UInt64(parts[1], radix: 16) else { return nil }
        return high << 32 | low
    }
}
