#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rows' texts and scope numbers written to a temporary file (made by `mkstemp(3)` in `TMPDIR`, else
/// `/tmp`, and unlinked at once: gone when closed) and read back in order: the substring counts'
/// second pass of a bulk load reads them there, on a thread of its own, while the server builds the
/// table's indexes on the load's connection (``PostgreSQLTextSearch/load(_:columns:_:meanwhile:)``),
/// where reading them back from the table would wait for it. On disk, not in memory: the load's
/// memory stays bounded.
final class TextSpill {
    /// The file (its tests cut it short).
    let file: UnsafeMutablePointer<FILE>

    /// A new empty file in `directory`.
    ///
    /// - Throws: ``TextSpillError`` when the file cannot be made there.
    init(directory: String = TextSpill.temporaryDirectory) throws {
        var path = Array((directory + "/catalog-texts-XXXXXX").utf8CString)
        let descriptor = path.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw TextSpillError(errno: errno, "could not be made in \(directory)") }
        unlink(path)
        guard let file = fdopen(descriptor, "w+") else {
            let error = TextSpillError(errno: errno, "could not be opened")
            close(descriptor)
            throw error
        }
        self.file = file
    }

    deinit { fclose(file) }

    /// The folder of temporary files: `TMPDIR`, else `/tmp` (as `tmpfile(3)` of glibc does not).
    static var temporaryDirectory: String {
        guard let directory = getenv("TMPDIR"), directory.pointee != 0 else { return "/tmp" }
        return String(cString: directory)
    }

    /// Adds one row: its scope's number and its texts (nil: NULL).
    func append(scope: Int, texts: [String?]) {
        var number = UInt32(scope)
        fwrite(&number, 4, 1, file)
        for text in texts {
            guard var text else {
                var length = Int32(-1)
                fwrite(&length, 4, 1, file)
                continue
            }
            text.withUTF8 { bytes in
                var length = Int32(bytes.count)
                fwrite(&length, 4, 1, file)
                if let start = bytes.baseAddress { fwrite(start, 1, bytes.count, file) }
            }
        }
    }

    /// Calls `body` with each row appended, in order: its scope's number and its `textCount` texts.
    ///
    /// - Throws: ``TextSpillError`` when a write before or a read failed (a full disk, say), or the
    ///   file ends within a row.
    func forEach(textCount: Int, _ body: (_ scope: Int, _ texts: [String?]) -> Void) throws {
        guard fflush(file) == 0, ferror(file) == 0 else { throw TextSpillError(errno: errno, "could not be written") }
        rewind(file)
        var texts = [String?](repeating: nil, count: textCount)
        var bytes: [UInt8] = []
        var number: UInt32 = 0
        while try read(&number, 4, atRowStart: true) {
            for place in 0..<textCount {
                var length: Int32 = 0
                _ = try read(&length, 4)
                guard length >= 0 else {
                    texts[place] = nil
                    continue
                }
                bytes = [UInt8](repeating: 0, count: Int(length))
                _ = try bytes.withUnsafeMutableBytes { try read($0.baseAddress, Int(length)) }
                texts[place] = String(decoding: bytes, as: UTF8.self)
            }
            body(Int(number), texts)
        }
    }

    /// Reads `count` bytes into `buffer`: false when the file ends before the first of them at the
    /// start of a row.
    ///
    /// - Throws: ``TextSpillError`` when the read fails, or the file ends within a row.
    private func read(_ buffer: UnsafeMutableRawPointer?, _ count: Int, atRowStart: Bool = false) throws -> Bool {
        let read = count == 0 ? 0 : fread(buffer, 1, count, file)
        if read == count { return true }
        if ferror(file) != 0 { throw TextSpillError(errno: errno, "could not be read") }
        if atRowStart && read == 0 { return false }
        // At the end of the file: `errno` says nothing.
        throw TextSpillError(description: "the bulk load's temporary file of texts ends within a row")
    }
}

/// A bulk load's temporary file of texts could not be made, written or read.
public struct TextSpillError: Error, CustomStringConvertible {
    /// What went wrong, in one line.
    public let description: String

    init(description: String) { self.description = description }

    /// What the system said (`errno`) when the file `failure` (could not be read…).
    init(errno: Int32, _ failure: String) {
        description = "the bulk load's temporary file of texts \(failure): \(String(cString: strerror(errno)))"
    }
}
