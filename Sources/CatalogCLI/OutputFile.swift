import Foundation

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
    ///   FIFO or device, or the database or one of its files (under any name), or its folder is missing,
    ///   not a folder, or not writable by this user.
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
                throw CommandFailure.outputNotCreatable(
                    path: path, reason: suffix.isEmpty ? "it is the database itself" : "it is the database's \(suffix) file")
            }
        }
        // The file is created beside `path`: the folder must take new files.
        if let problem = NewFileFolder.problem(creatingFileAt: path) {
            throw CommandFailure.outputNotCreatable(path: path, reason: problem)
        }
    }
}
