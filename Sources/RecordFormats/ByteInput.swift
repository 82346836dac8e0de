#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes read from a file descriptor in chunks, one at a time: how every reader streams its input,
/// holding one chunk in memory whatever the file's size.
public final class ByteInput {
    /// The bytes read at a time: large enough that the read calls cost nothing next to parsing.
    static let chunkSize = 1 << 16

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8]
    private var position = 0
    private var end = 0
    private var isAtEnd = false
    /// The bytes given whole at creation, for input already in memory.
    private let isInMemory: Bool

    /// Reads the file at `path`.
    ///
    /// - Throws: ``FileError`` naming why it cannot be opened.
    public init(path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw FileError(path: path, code: errno) }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw FileError(path: path, code: EISDIR)
        }
        self.descriptor = descriptor
        ownsDescriptor = true
        isInMemory = false
        buffer = [UInt8](repeating: 0, count: Self.chunkSize)
    }

    /// Reads standard input.
    public static func standardInput() -> ByteInput { ByteInput(descriptor: 0) }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
        ownsDescriptor = false
        isInMemory = false
        buffer = [UInt8](repeating: 0, count: Self.chunkSize)
    }

    /// Reads bytes already in memory.
    public init(bytes: [UInt8]) {
        descriptor = -1
        ownsDescriptor = false
        isInMemory = true
        buffer = bytes
        end = bytes.count
        isAtEnd = true
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// The next byte without consuming it; nil at the end.
    @inline(__always)
    public func peek() throws -> UInt8? {
        if position == end {
            guard try refill() else { return nil }
        }
        return buffer[position]
    }

    /// The next byte; nil at the end.
    @inline(__always)
    public func next() throws -> UInt8? {
        if position == end {
            guard try refill() else { return nil }
        }
        defer { position += 1 }
        return buffer[position]
    }

    /// Consumes the run of bytes read so far that `isInRun` accepts, from the next one up to the first
    /// it refuses or the end of the chunk, and gives them to `body` (an empty run at a refused byte or
    /// the end of the input): a reader takes plain text at once instead of byte by byte (a JSON
    /// string's: the `import` rows of Ingest, Benchmarks/README.md).
    @inline(__always)
    func consumeRun(while isInRun: (UInt8) -> Bool, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        if position == end {
            guard try refill() else { return }
        }
        try buffer.withUnsafeBufferPointer { all in
            var index = position
            while index < end, isInRun(all[index]) { index += 1 }
            let start = position
            position = index
            try body(UnsafeBufferPointer(rebasing: all[start..<index]))
        }
    }

    /// Gives `body` the bytes read and not consumed yet (empty at the end of the chunk read so far),
    /// and consumes as many as it returns: a reader parses a whole record in place, and asks for
    /// ``readMore()`` when the record goes on past them.
    @inline(__always)
    func consumeBuffered(_ body: (UnsafeBufferPointer<UInt8>) throws -> Int) rethrows {
        try buffer.withUnsafeBufferPointer { all in
            position += try body(UnsafeBufferPointer(rebasing: all[position..<end]))
        }
    }

    /// Reads more of the input after the bytes not consumed yet, which stay: they move to the start
    /// of the buffer, and the buffer doubles when they fill it. False at the end of the input.
    func readMore() throws -> Bool {
        guard !isAtEnd, !isInMemory else { return false }
        if position > 0 {
            buffer.withUnsafeMutableBufferPointer { all in
                _ = all.baseAddress.map { memmove($0, $0 + position, end - position) }
            }
            end -= position
            position = 0
        }
        if end == buffer.count { buffer += repeatElement(0, count: buffer.count) }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + end, $0.count - end) }
            if count > 0 {
                end += count
                return true
            }
            if count == 0 {
                isAtEnd = true
                return false
            }
            if errno != EINTR { throw FileError(path: nil, code: errno) }
        }
    }

    /// The first byte that is not white space or a UTF-8 byte-order mark, looking only as far as the
    /// bytes read so far (at least one chunk) and consuming nothing: how a format is told by its first
    /// character.
    public func firstNonSpaceByte() throws -> UInt8? {
        if position == end {
            guard try refill() else { return nil }
        }
        var index = position
        if end - index >= 3, buffer[index] == 0xEF, buffer[index + 1] == 0xBB, buffer[index + 2] == 0xBF { index += 3 }
        while index < end, [0x20, 0x09, 0x0A, 0x0D].contains(buffer[index]) { index += 1 }
        return index < end ? buffer[index] : nil
    }

    private func refill() throws -> Bool {
        guard !isAtEnd, !isInMemory else { return false }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, Self.chunkSize) }
            if count > 0 {
                position = 0
                end = count
                return true
            }
            if count == 0 {
                isAtEnd = true
                return false
            }
            if errno != EINTR { throw FileError(path: nil, code: errno) }
        }
    }
}

/// A file that cannot be opened, read or written: the system's error code and message.
public struct FileError: Error, Sendable, CustomStringConvertible {
    /// The file, when the failure was opening it.
    public let path: String?
    /// The `errno` value.
    public let code: Int32

    /// Whether the file does not exist.
    public var isMissing: Bool { code == ENOENT }
    /// Whether the path names a directory.
    public var isDirectory: Bool { code == EISDIR }

    public var description: String {
        let message = String(cString: strerror(code))
        return path.map { "\($0): \(message)" } ?? message
    }
}
