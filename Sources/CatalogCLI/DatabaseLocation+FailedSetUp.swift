#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DatabaseLocation {
    /// Runs `body`; when it fails, puts back the database's files as they were before, as far as the
    /// command made them, so that a failed command leaves nothing that looks like a database it made:
    ///
    /// - a database file that did not exist is removed, with the files SQLite keeps beside it;
    /// - an empty (0-byte) file that was there is emptied again, and the `-wal`, `-shm` and `-journal`
    ///   files that were not there are removed;
    /// - a file that held anything is left alone (its `-wal` may hold others' commits).
    ///
    /// `body` must not keep the store it opened: its connections are closed when it is released,
    /// before the files go.
    func restoringFilesOnFailure<Result>(_ body: () throws -> Result) throws -> Result {
        let existingSuffixes = Set(Self.fileSuffixes.filter { FileManager.default.fileExists(atPath: path + $0) })
        var info = stat()
        let wasEmptyFile = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_size == 0
        do {
            return try body()
        } catch {
            if !existingSuffixes.contains("") {
                for suffix in Self.fileSuffixes { unlink(path + suffix) }
            } else if wasEmptyFile {
                for suffix in Self.fileSuffixes.dropFirst() where !existingSuffixes.contains(suffix) { unlink(path + suffix) }
                if stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG { truncate(path, 0) }
            }
            throw error
        }
    }
}
