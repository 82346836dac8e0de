import CPostgreSQL
import StoreCore

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
    /// Connects like ``init(url:)``, with libpq's non-blocking connect, and gives up (nil) once
    /// `isAbandoned()` is true: it is asked at least every 250 ms while the server has not answered,
    /// so that a listening loop stopped meanwhile ends that soon, even when the server never answers.
    /// A `connect_timeout` (in `url` or `PGCONNECT_TIMEOUT`) bounds the whole connect, as libpq's
    /// blocking connect bounds each host's.
    ///
    /// - Throws: ``PostgreSQLError`` with ``PostgreSQLError/cannotConnect``, as ``init(url:)``.
    convenience init?(url: String, abandonedWhen isAbandoned: () -> Bool) throws {
        try Self.checkLibpqLoaded()
        guard !isAbandoned() else { return nil }
        let handle = PQconnectStart(url)
        if let handle, PQstatus(handle) != CONNECTION_BAD {
            let deadline = Self.connectTimeout(handle).map { ContinuousClock.now + $0 }
            var polling = PGRES_POLLING_WRITING
            while polling != PGRES_POLLING_OK && polling != PGRES_POLLING_FAILED {
                guard !isAbandoned() else {
                    PQfinish(handle)
                    return nil
                }
                if let deadline, ContinuousClock.now >= deadline {
                    PQfinish(handle)
                    throw PostgreSQLError(sqlState: PostgreSQLError.cannotConnect, message: "cannot connect to PostgreSQL: timeout expired")
                }
                let events = polling == PGRES_POLLING_READING ? POLLIN : POLLOUT
                var descriptor = pollfd(fd: PQsocket(handle), events: Int16(events), revents: 0)
                if poll(&descriptor, 1, 250) > 0 { polling = PQconnectPoll(handle) }
            }
        }
        try self.init(connected: handle)
    }

    /// The connection's `connect_timeout`, if any: libpq treats 1 second as 2.
    private static func connectTimeout(_ handle: OpaquePointer) -> Duration? {
        guard let options = PQconninfo(handle) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "connect_timeout" {
                guard let value = option.pointee.val, let seconds = Int(String(cString: value)), seconds > 0 else { return nil }
                return .seconds(max(seconds, 2))
            }
            option += 1
        }
        return nil
    }

    /// Starts receiving the notifications sent on `channel` (`LISTEN`). Replicas cannot listen: call
    /// it on a connection to the primary.
    ///
    /// Related PostgreSQL documentation: <https://www.postgresql.org/docs/15/sql-listen.html>
    public func listen(_ channel: String) throws {
        try execute(sql: "LISTEN " + SQLText.identifier(channel))
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
