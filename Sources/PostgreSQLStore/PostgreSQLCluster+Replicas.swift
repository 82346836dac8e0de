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

/// Why a replica did not answer a read: it did not replay the cluster's last write in time.
struct ReplicaLagging: Error {}

extension PostgreSQLCluster {
    /// Runs `read` on the first available replica that answers it, else on the primary.
    ///
    /// Each replica first waits for its replay position to reach ``lastWritePosition`` (bounded by
    /// the configuration's `replicaWaitLimit`), so the read sees every write this cluster committed.
    /// A replica that lags past the bound, cannot be reached or fails with a connection error is
    /// skipped with a logged line, and the read runs on the next one; the primary answers last. A
    /// read's own error (bad SQL, a constraint) is thrown as it is.
    func routeRead<T>(_ read: (SerializedConnection, _ before: (PostgreSQLConnection) throws -> Void) throws -> T) throws -> T {
        let position = lastWritePosition.withLock { $0 }
        let limit = configuration.replicaWaitLimit
        for replica in availableReplicas() {
            do {
                return try read(replica.connection) { db in try Self.waitForReplay(of: position, on: db, limit: limit) }
            } catch {
                try skip(replica, after: error)
            }
        }
        return try read(primaryReader) { _ in }
    }

    /// ``routeRead(_:)`` for an `async` read.
    func routeRead<T: Sendable>(
        _ read: (SerializedConnection, _ before: @escaping @Sendable (PostgreSQLConnection) throws -> Void) async throws -> T
    ) async throws -> T {
        let position = lastWritePosition.withLock { $0 }
        let limit = configuration.replicaWaitLimit
        for replica in availableReplicas() {
            do {
                return try await read(replica.connection) { db in try Self.waitForReplay(of: position, on: db, limit: limit) }
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
        if error is ReplicaLagging {
            configuration.log?(
                "replica \(replica.number) is lagging: it did not replay this cluster's last write within "
                    + "\(configuration.replicaWaitLimit); read on another server")
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
    /// for at 0), polling its replay position.
    ///
    /// - Throws: ``ReplicaLagging`` when it has not within `limit`; ``PostgreSQLError``.
    static func waitForReplay(of position: UInt64, on db: PostgreSQLConnection, limit: Duration) throws {
        guard position > 0 else { return }
        let deadline = ContinuousClock.now + limit
        while true {
            let replayed = try db.scalar(sql: "SELECT pg_last_wal_replay_lsn()::text").flatMap(Self.walPosition) ?? 0
            if replayed >= position { return }
            if ContinuousClock.now >= deadline { throw ReplicaLagging() }
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
