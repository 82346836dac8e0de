#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private let systemWrite = write

/// Text written to a file descriptor through a buffer: how every writer streams its output. A file is
/// written beside its destination and renamed over it by ``commit()``, so a failed export leaves no
/// half-written file.
public final class ByteOutput {
    /// Bytes gathered before a write call: large enough that the calls cost nothing next to formatting.
    static let bufferSize = 1 << 16

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// For a file: where it is written, and where ``commit()`` moves it.
    private let paths: (temporary: String, destination: String)?
    private var isCommitted = false

    /// Writes to standard output.
    public static func standardOutput() -> ByteOutput { ByteOutput(descriptor: 1, paths: nil) }

    private init(descriptor: Int32, paths: (temporary: String, destination: String)?) {
        self.descriptor = descriptor
        self.paths = paths
        buffer.reserveCapacity(Self.bufferSize)
    }

    /// Writes to a new file beside `path` that ``commit()`` renames to `path`.
    ///
    /// - Throws: ``FileError`` when the file cannot be created.
    public convenience init(replacing path: String) throws {
        let temporary = path + ".partial-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw FileError(path: path, code: errno) }
        self.init(descriptor: descriptor, paths: (temporary, path))
    }

    deinit {
        if let paths {
            close(descriptor)
            if !isCommitted { unlink(paths.temporary) }
        }
    }

    /// Appends text.
    @inline(__always)
    public func write(_ text: String) throws {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Appends one byte.
    @inline(__always)
    public func write(byte: UInt8) throws {
        buffer.append(byte)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Writes out what is buffered.
    public func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw FileError(path: paths?.destination, code: errno)
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, and for a file makes it durable and moves it to its destination.
    public func commit() throws {
        try flush()
        guard let paths else { return }
        guard fsync(descriptor) == 0, rename(paths.temporary, paths.destination) == 0 else {
            throw FileError(path: paths.destination, code: errno)
        }
        isCommitted = true
    }
}
