#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Watches a database's files (the file, its `-wal` and its `-journal`) for writes, with Linux inotify.
///
/// It watches the *directory*, so that a `-wal` file created, deleted or replaced after the watch
/// starts is still seen, and keeps only the events about the database's own files. A write does not
/// mean a commit (a transaction may spill pages before it commits, and a checkpoint writes the file),
/// and a commit's last write lands a moment before the commit is visible: the owner confirms with
/// `PRAGMA data_version` and checks again shortly after an unconfirmed event.
///
/// Not `Sendable`: it belongs to the monitor's thread, which closes it.
final class FileChangeWatcher {
    /// The inotify descriptor, to poll for reading.
    let fileDescriptor: Int32
    private let names: Set<String>
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)

    /// Starts watching, or returns nil where inotify is unavailable (not Linux, or out of watches).
    init?(databasePath: String) {
        #if os(Linux)
        let slash = databasePath.lastIndex(of: "/")
        let directory = slash.map { $0 == databasePath.startIndex ? "/" : String(databasePath[..<$0]) } ?? "."
        let file = slash.map { String(databasePath[databasePath.index(after: $0)...]) } ?? databasePath
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
        guard inotify_add_watch(descriptor, directory, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        fileDescriptor = descriptor
        names = [file, file + "-wal", file + "-journal"]
        #else
        return nil
        #endif
    }

    deinit {
        // Closing the inotify descriptor removes its watches.
        close(fileDescriptor)
    }

    /// Reads the pending events without blocking.
    ///
    /// - Returns: whether one of them is about the database's files.
    func drainEvents() -> Bool {
        #if os(Linux)
        var relevant = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return relevant }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                let headerSize = MemoryLayout<inotify_event>.size
                while offset + headerSize <= count {
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + headerSize)..<min(count, offset + headerSize + length)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    if names.contains(name) { relevant = true }
                    offset += headerSize + length
                }
            }
        }
        #else
        return false
        #endif
    }
}
