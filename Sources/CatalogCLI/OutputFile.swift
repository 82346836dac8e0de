import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file a command writes whole (`export --output`, `backup`'s destination): written beside its path
/// and renamed over it when complete, so its folder must take a new file and the path must not hold
/// anything but a regular file (a rename would replace a device or FIFO, and cannot replace a folder),
/// nor the database the command reads (a rename over it, or its `-wal`, would destroy it).
enum OutputFile {
    /// Checks, before any work, that a file can be written beside `path` and moved there without
    /// replacing the database at `database` or a file of it.
    ///
    /// ```swift
    /// try OutputFile.checkWritable("/backups/catalog.sqlite", database: location.path)
    /// ```
    ///
    /// - Throws: ``CommandFailure/outputNotCreatable(path:reason:)`` (exit 66) when `path` is a folder,
    ///   FIFO or device, or the database or one of its files (under any name, or by its name when it
    ///   does not exist yet), or its folder is missing, not a folder, or not writable by this user.
    static func checkWritable(_ path: String, database: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw CommandFailure.outputNotCreatable(path: path, reason: "it is a folder")
            default: throw CommandFailure.outputNotCreatable(path: path, reason: "it is a device, FIFO or socket, not a regular file")
            }
            var databaseInfo = stat()
            for suffix in DatabaseLocation.fileSuffixes
            where stat(database + suffix, &databaseInfo) == 0 && databaseInfo.st_dev == info.st_dev && databaseInfo.st_ino == info.st_ino {
                throw CommandFailure.outputNotCreatable(path: path, reason: databaseFileReason(suffix))
            }
        }
        // A file of the database that is not there now (a `-journal`, a `-wal` after a clean close, the
        // database a command is about to create) would be taken for one once written: a bogus hot
        // journal makes every later open fail.
        if let target = resolved(path), let base = resolved(database) {
            for suffix in DatabaseLocation.fileSuffixes where target == base + suffix {
                throw CommandFailure.outputNotCreatable(path: path, reason: databaseFileReason(suffix))
            }
        }
        // The file is created beside `path`: the folder must take new files.
        if let problem = NewFileFolder.problem(creatingFileAt: path) {
            throw CommandFailure.outputNotCreatable(path: path, reason: problem)
        }
    }

    /// Why a path naming the database's file with `suffix` cannot be written.
    private static func databaseFileReason(_ suffix: String) -> String {
        suffix.isEmpty ? "it is the database itself" : "it is the database's \(suffix) file"
    }

    /// `path` with its symbolic links, `.` and `..` resolved, as SQLite names a database's files; for
    /// a file that does not exist, its folder's resolved path and its name. Nil when neither resolves.
    private static func resolved(_ path: String) -> String? {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        guard let real = realpath(PathText.folder(of: path), nil) else { return nil }
        defer { free(real) }
        return PathText.appending(PathText.lastComponent(of: path), to: String(cString: real))
    }
}
