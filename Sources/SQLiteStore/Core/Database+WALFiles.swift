import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private let systemRead = read
private let systemClose = close

// MARK: - The -wal and -shm files, and other users

// A WAL database is read through two files beside it, `-wal` and `-shm`, which any connection creates
// when they are missing: owned by its user, with the database's permissions.
//
// > On newer versions of SQLite, a WAL-mode database on read-only media, or a WAL-mode database that
// > lacks write permission, can still be read as long as one or more of the following conditions are met:
// > 1. The -shm and -wal files already exists and are readable
// > 2. There is write permission on the directory containing the database so that the -shm and -wal
// >    files can be created.
// > 3. The database connection is opened using the immutable query parameter.
// > (https://www.sqlite.org/wal.html, "Read-Only Databases")
//
// A user who reads another user's database creates them under condition 2, and, not being able to write
// the database, cannot checkpoint and remove them on close: the owner, finding files it cannot write,
// can then only read (`SQLITE_READONLY`), and in a shared folder (mode 1777) cannot remove them either.
// So the owner keeps its files (``persistWALFiles()``), and another user whose reading would create them
// is refused (``filesAnotherUserWouldLeave(at:)``). Condition 3 is no way out: an immutable reader takes
// no lock, so a checkpoint by the owner could change pages under it.

extension Database {
    /// The size a persistent `-wal` file is cut back to when a checkpoint restarts it
    /// (`PRAGMA journal_size_limit`): 1,000 pages of 4 KiB, the size at which SQLite's automatic
    /// checkpoint (`wal_autocheckpoint`, default 1,000 pages) restarts it anyway. On close, with any limit
    /// set, SQLite empties a persistent `-wal` file.
    static let persistentWALSizeLimit = Int(CommitHandlers.autoCheckpointPageCount) * 4_096

    /// Keeps the `-wal` and `-shm` files beside the database when this connection closes last (emptying
    /// the `-wal`), as Apple's builds of SQLite do, so that another user who may read but not write the
    /// database can read it without creating files of their own. Done only by the file's owner, whose
    /// files they are.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/c_fcntl_begin_atomic_write.html#sqlitefcntlpersistwal>
    func persistWALFiles() throws {
        let handle = try connection
        var info = stat()
        guard stat(path, &info) == 0, info.st_uid == geteuid() else { return }
        var persist: Int32 = 1
        try check(sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist))
        try execute(sql: "PRAGMA journal_size_limit = \(Self.persistentWALSizeLimit)")
    }

    /// Why opening the database at `path` would leave files of this user beside another user's
    /// database, locking that user out of writing it; nil when it would not.
    ///
    /// That is when the file is another user's, in WAL mode, this user cannot write it, and its `-wal`
    /// or `-shm` file is missing from a folder where this user may create it. Root is never refused:
    /// SQLite gives the files it creates to the database's owner.
    static func filesAnotherUserWouldLeave(at path: String) -> String? {
        var info = stat()
        let user = geteuid()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              user != 0, info.st_uid != user, faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0,
              isInWALMode(path)
        else { return nil }
        let missing = ["-wal", "-shm"].filter { access(path + $0, F_OK) != 0 }
        guard !missing.isEmpty, faccessat(AT_FDCWD, PathText.folder(of: path), W_OK, AT_EACCESS) == 0 else { return nil }
        return "\(path) is another user's database and its \(missing.joined(separator: " and ")) "
            + "\(missing.count == 1 ? "file is" : "files are") missing: opening it would create "
            + "\(missing.count == 1 ? "it" : "them") as this user's and lock its owner out of writing "
            + "(its owner's next use restores \(missing.count == 1 ? "it" : "them"))"
    }

    /// Whether the file's header says WAL mode: bytes 18 and 19, the file format's write and read
    /// versions, are 2. (<https://www.sqlite.org/fileformat2.html#the_database_header>)
    private static func isInWALMode(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { _ = systemClose(descriptor) }
        var header = [UInt8](repeating: 0, count: 20)
        var count = 0
        while count < header.count {
            let read = header.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress! + count, $0.count - count) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { return false }
            count += read
        }
        return header.starts(with: Array("SQLite format 3\0".utf8)) && header[18] == 2 && header[19] == 2
    }
}
