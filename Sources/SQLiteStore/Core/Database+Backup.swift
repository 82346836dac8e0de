import CSQLite
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

extension Database {
    /// Copies the whole database into a new file at `destination`, with SQLite's online backup API:
    /// a consistent snapshot, taken in one read transaction, while other connections and processes
    /// go on writing (in WAL mode they are not blocked).
    ///
    /// The copy is written beside `destination` and moved there once complete, so a failed backup
    /// leaves nothing behind and `destination` is never half-written. A restore is copying the file back
    /// (with no connection open on it).
    ///
    /// ```swift
    /// try queue.writeWithoutTransaction { db in try db.backup(to: "/backups/catalog.sqlite") }
    /// ```
    ///
    /// - Parameters:
    ///   - destination: the path of the copy.
    ///   - replacing: whether an existing file at `destination` is replaced; otherwise it is an
    ///     error, and the file is left alone.
    /// - Throws: ``DatabaseError``: `SQLITE_CANTOPEN` when `destination` exists (and `replacing` is
    ///   false) or cannot be created; any error of the copy.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/backup.html>
    public func backup(to destination: String, replacing: Bool = false) throws {
        if !replacing && FileManager.default.fileExists(atPath: destination) {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "\(destination) already exists")
        }
        let temporary = destination + ".partial-\(getpid())"
        defer { unlink(temporary) }
        try copy(to: temporary)
        // link() refuses an existing name, so a file that appeared meanwhile is not replaced either.
        let moved = replacing ? rename(temporary, destination) : link(temporary, destination)
        guard moved == 0 else {
            let reason = errno == EEXIST ? "already exists" : String(cString: strerror(errno))
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "\(destination): \(reason)")
        }
    }

    /// Copies every page into a new database file at `path`.
    private func copy(to path: String) throws {
        var handle: SQLiteConnection?
        let opened = sqlite3_open_v2(
            Self.literalFileName(path), &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_EXRESCODE, nil)
        defer { sqlite3_close(handle) }
        guard opened == SQLITE_OK, let handle else {
            throw DatabaseError(resultCode: ResultCode(rawValue: opened), message: "cannot create \(path)")
        }
        // > sqlite3_backup_init() is called once to initialize the backup […] sqlite3_backup_step() is
        // > called one or more times to transfer the data […] sqlite3_backup_finish() is called to
        // > release all resources. (https://www.sqlite.org/c3ref/backup_finish.html)
        // One step of -1 copies every page while holding one read transaction on the source: the copy
        // is of one snapshot, and writers of a WAL database are not blocked meanwhile.
        guard let backup = sqlite3_backup_init(handle, "main", try connection, "main") else {
            throw DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(handle)), message: String(cString: sqlite3_errmsg(handle)))
        }
        let stepped = sqlite3_backup_step(backup, -1)
        let finished = sqlite3_backup_finish(backup)
        guard stepped == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: stepped), message: String(cString: sqlite3_errmsg(handle)))
        }
        guard finished == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: finished), message: String(cString: sqlite3_errmsg(handle)))
        }
    }
}
