import CPostgreSQL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A notification sent with `NOTIFY channel, 'payload'` (or `pg_notify`), delivered when the
/// sending transaction commits.
public struct PostgreSQLNotification: Sendable, Hashable {
    /// The channel it was sent on.
    public let channel: String
    /// Its payload; empty when none was given.
    public let payload: String
    /// The server process of the connection that sent it.
    public let senderProcessID: Int32
}

extension PostgreSQLConnection {
    /// Starts receiving the notifications sent on `channel` (`LISTEN`). Replicas cannot listen: call
    /// it on a connection to the primary.
    ///
    /// Related PostgreSQL documentation: <https://www.postgresql.org/docs/15/sql-listen.html>
    public func listen(_ channel: String) throws {
        try execute(sql: "LISTEN " + Self.quoted(channel))
    }

    /// The notifications received, waiting up to `timeoutMilliseconds` for the first when none is
    /// there yet (-1: as long as it takes).
    ///
    /// - Throws: ``PostgreSQLError`` with ``PostgreSQLError/connectionFailure`` when the connection
    ///   is lost (the server stopped or restarted): nothing more will arrive on it.
    public func notifications(waitingMilliseconds timeoutMilliseconds: Int32) throws -> [PostgreSQLNotification] {
        let handle = try idleHandle(for: nil)
        var received = try consumeNotifications(handle)
        if received.isEmpty && timeoutMilliseconds != 0 {
            var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, timeoutMilliseconds)
            if ready > 0 { received = try consumeNotifications(handle) }
        }
        return received
    }

    /// Reads what the server sent, and the notifications in it.
    private func consumeNotifications(_ handle: OpaquePointer) throws -> [PostgreSQLNotification] {
        guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else {
            throw PostgreSQLError(
                sqlState: PostgreSQLError.connectionFailure,
                message: "the connection to PostgreSQL was lost: " + PostgreSQLError.firstLine(String(cString: PQerrorMessage(handle))))
        }
        var received: [PostgreSQLNotification] = []
        while let notify = PQnotifies(handle) {
            received.append(PostgreSQLNotification(
                channel: String(cString: notify.pointee.relname), payload: String(cString: notify.pointee.extra),
                senderProcessID: notify.pointee.be_pid))
            PQfreemem(notify)
        }
        return received
    }
}
