@testable import PostgreSQLStore
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening connection's connect ends once abandoned, even while the server never answers, and
/// closes its socket: `watch` stopped during it (SIGTERM) could otherwise exit under libpq's connect,
/// whose Kerberos probe then aborts on the exit's clean-up of its library.
@Suite struct AbandonedConnectTests {
    @Test func anAbandonedConnectEndsAndClosesItsSocketWhileTheServerIsSilent() throws {
        let server = try SilentServer()
        defer { close(server.socket) }
        let asked = Atomic<Int>(0)
        // Abandoned the fifth time it is asked: after the server has been silent a while.
        let connection = try PostgreSQLConnection(url: "postgresql://postgres@127.0.0.1:\(server.port)/postgres") {
            asked.add(1, ordering: .relaxed).newValue >= 5
        }
        #expect(connection == nil)
        #expect(asked.load(ordering: .relaxed) == 5)
        #expect(server.peerHasClosed())
    }

    @Test func aConnectTimeoutStillBoundsIt() throws {
        let server = try SilentServer()
        defer { close(server.socket) }
        let error = try #require(throws: PostgreSQLError.self) {
            try PostgreSQLConnection(url: "postgresql://postgres@127.0.0.1:\(server.port)/postgres?connect_timeout=2") { false }
        }
        #expect(error.sqlState == PostgreSQLError.cannotConnect)
        #expect(error.message == "cannot connect to PostgreSQL: timeout expired")
        #expect(server.peerHasClosed())
    }
}

/// A TCP socket listening on 127.0.0.1 that never accepts: the kernel completes a client's
/// connection, and nothing ever answers what the client sends.
private struct SilentServer {
    struct Unavailable: Error {}

    let socket: Int32
    let port: UInt16

    init() throws {
        #if canImport(Glibc)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && listen(socket, 1) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard socket >= 0 && bound else { throw Unavailable() }
        self.socket = socket
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Whether the one client connected has closed its end: what it sent is read, then the end.
    func peerHasClosed() -> Bool {
        let client = accept(socket, nil, nil)
        guard client >= 0 else { return false }
        defer { close(client) }
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 { return true }
            if count < 0 { return false }
        }
    }
}
