import Dispatch
import SQLiteStore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls `action` with the number of each of `signals` the process gets, instead of their default
/// action (ending it), until released; after that they are ignored.
///
/// The handlers are installed before `init` returns, and each writes its signal's number into a pipe
/// that a thread of its own reads, a thread that never blocks the signals: a signal that comes at any
/// time after `init` is never lost, even when the process started with them blocked (as a parent may
/// leave them). A dispatch signal source could lose one: it needs the signal ignored (`SIG_IGN`)
/// while libdispatch registers it, after `resume()` returns, and a signal that came in between was
/// dropped (`watch` missed a Ctrl-C sent just after its first line, under load).
final class SignalHandlers {
    private let signals: [Int32]

    init(_ signals: [Int32], _ action: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        SignalPipe.start()
        SignalPipe.action.withLock { $0 = action }
        for number in signals { signal(number, SignalPipe.handler) }
    }

    deinit {
        for number in signals { signal(number, SIG_IGN) }
        SignalPipe.action.withLock { $0 = nil }
    }
}

/// The process's one pipe from the signal handlers to the thread that calls ``SignalHandlers``'
/// action, never closed: a handler may still be writing into it as an action is released.
private enum SignalPipe {
    nonisolated(unsafe) static var writeEnd: Int32 = -1
    /// The action of the live ``SignalHandlers``.
    static let action = Mutex<(@Sendable (Int32) -> Void)?>(nil)

    /// Makes the pipe and starts the thread that reads it, once; returns when the thread may take the
    /// signals (it unblocks them for itself).
    static func start() { _ = started }

    private static let started: Bool = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("cannot make a pipe for signals: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A handler never waits: with the pipe full, a signal is dropped, and many are waiting already.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        writeEnd = ends[1]
        let readEnd = ends[0]
        let ready = DispatchSemaphore(value: 0)
        DetachedThread.start {
            var set = sigset_t()
            sigemptyset(&set)
            for number in [SIGINT, SIGTERM, SIGWINCH] { sigaddset(&set, number) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            ready.signal()
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1 else { return }
                let action = SignalPipe.action.withLock { $0 }
                action?(Int32(byte))
            }
        }
        ready.wait()
        return true
    }()

    /// Writes the signal's number into the pipe: `write` is async-signal-safe.
    static let handler: @convention(c) (Int32) -> Void = { number in
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(writeEnd, &byte, 1)
    }
}
