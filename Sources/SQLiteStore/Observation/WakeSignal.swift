#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A self-pipe that wakes a thread blocked in `poll(2)`: any thread may signal, one thread drains.
///
/// Signals coalesce: many signals before a drain wake the thread once. Both ends are non-blocking, so
/// a writer never waits, even when the pipe is full (it is then already signalled).
final class WakeSignal: Sendable {
    /// The end to poll for reading.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    /// Creates the pipe.
    ///
    /// - Throws: ``DatabaseError`` with `SQLITE_CANTOPEN` when the process is out of descriptors.
    init() throws {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "cannot create a pipe (errno \(errno))")
        }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Wakes the polling thread.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Empties the pipe; called by the polling thread after it wakes.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ read(readDescriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
