#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rows' texts and scope numbers written to an anonymous temporary file (`tmpfile(3)`, gone when
/// closed) and read back in order: the substring counts' second pass of a bulk load reads them
/// there, on a thread of its own, while the server builds the table's indexes on the load's
/// connection (``PostgreSQLTextSearch/load(_:columns:_:meanwhile:)``), where reading them back from
/// the table would wait for it. On disk, not in memory: the load's memory stays bounded.
final class TextSpill {
    private let file: UnsafeMutablePointer<FILE>

    /// A new empty file.
    ///
    /// - Throws: ``TextSpillError`` when the system gives no temporary file.
    init() throws {
        guard let file = tmpfile() else { throw TextSpillError(errno: errno) }
        self.file = file
    }

    deinit { fclose(file) }

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
    /// - Throws: ``TextSpillError`` when a write before or a read failed (a full disk, say).
    func forEach(textCount: Int, _ body: (_ scope: Int, _ texts: [String?]) -> Void) throws {
        guard fflush(file) == 0, ferror(file) == 0 else { throw TextSpillError(errno: errno) }
        rewind(file)
        var texts = [String?](repeating: nil, count: textCount)
        var bytes: [UInt8] = []
        var number: UInt32 = 0
        while fread(&number, 4, 1, file) == 1 {
            for place in 0..<textCount {
                var length: Int32 = 0
                guard fread(&length, 4, 1, file) == 1 else { throw TextSpillError(errno: errno) }
                guard length >= 0 else {
                    texts[place] = nil
                    continue
                }
                bytes = [UInt8](repeating: 0, count: Int(length))
                guard bytes.withUnsafeMutableBytes({ fread($0.baseAddress, 1, Int(length), file) }) == Int(length) else {
                    throw TextSpillError(errno: errno)
                }
                texts[place] = String(decoding: bytes, as: UTF8.self)
            }
            body(Int(number), texts)
        }
        guard ferror(file) == 0 else { throw TextSpillError(errno: errno) }
    }
}

/// A bulk load's temporary file of texts could not be made, written or read.
public struct TextSpillError: Error, CustomStringConvertible {
    /// The system's error number.
    public let errno: Int32

    public var description: String {
        "the bulk load's temporary file of texts failed: \(String(cString: strerror(errno)))"
    }
}
