import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the terminal's bytes on a thread of its own and hands over the keys they decode to.
///
/// An Escape byte followed by nothing for ``escapeTimeout`` is the Escape key; bytes arriving
/// together (an input method committing `東京`, a paste) are one ``Key/text(_:)``.
final class KeyReader: Sendable {
    private let input: Int32
    /// Written to by ``stop()`` to wake the thread out of `poll(2)`.
    private let wakeUp: (read: Int32, write: Int32)

    /// How long after an Escape byte a key sequence's next byte may come (terminals send a sequence in
    /// one write; a person pressing Escape then a key takes far longer).
    static let escapeTimeout: Int32 = 40  // milliseconds

    init(input: Int32 = STDIN_FILENO) throws {
        self.input = input
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TerminalError.notATerminal }
        wakeUp = (fds[0], fds[1])
    }

    /// Starts the thread; `deliver` gets each batch of keys, and `nil` when the input ends.
    func start(_ deliver: @escaping @Sendable ([Key]?) -> Void) {
        let input = input
        let wakeUp = wakeUp.read
        DetachedThread.start {
            var decoder = KeyDecoder()
            var buffer = [UInt8](repeating: 0, count: 4096)
            var waitingForMore = false
            while true {
                var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeUp, events: Int16(POLLIN), revents: 0)]
                let ready = poll(&fds, 2, waitingForMore ? Self.escapeTimeout : -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    deliver(nil)
                    return
                }
                if fds[1].revents != 0 { return }
                if ready == 0 {
                    waitingForMore = false
                    let keys = decoder.flush()
                    if !keys.isEmpty { deliver(keys) }
                    continue
                }
                let count = read(input, &buffer, buffer.count)
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if count <= 0 {
                    deliver(nil)
                    return
                }
                let keys = decoder.decode(Array(buffer[0..<count]))
                if !keys.isEmpty { deliver(keys) }
                waitingForMore = decoder.hasPendingBytes
            }
        }
    }

    /// Ends the thread.
    func stop() {
        var byte: UInt8 = 1
        _ = write(wakeUp.write, &byte, 1)
    }

    deinit {
        close(wakeUp.read)
        close(wakeUp.write)
    }
}
