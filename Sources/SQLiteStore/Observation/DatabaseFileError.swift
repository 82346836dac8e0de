#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a ``ChangeMonitor`` stopped: the file at its path is no longer the database it opened.
///
/// A connection keeps reading the file it opened, even once another file took its path (a rename over
/// it, or a delete and a new file): without this check, a watcher would go on serving a database nobody
/// writes any more. The monitor compares the path's device and inode with those it opened at least
/// every ``ChangeMonitor/identityCheckInterval``, and on every file event in the folder.
public enum DatabaseFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No file is at the path any more: the database was deleted or renamed away.
    case removed(path: String)
    /// Another file is at the path: the database was replaced by a rename, or deleted and made again.
    case replaced(path: String)
    /// The file can no longer be read as the database: it is damaged, or was overwritten in place with
    /// something else (SQLite's message).
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .removed(let path): "the database file \(path) was deleted or moved away while it was watched"
        case .replaced(let path): "the database file \(path) was replaced by another file while it was watched"
        case .unreadable(let path, let reason): "the database file \(path) can no longer be read while it was watched: \(reason)"
        }
    }
}

/// A file's device and inode: what stays the same while a file is written in place, and changes when
/// another file takes its path.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path`, or nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// What happened to the file at `path`, if it is no longer this database: gone, another file, or,
    /// the same file, of a size SQLite never gives a database (`pageSize` bytes a page: it was
    /// truncated or overwritten in place). One `stat`: the file is never opened, since closing a
    /// descriptor of it would drop this process's SQLite locks on it.
    func change(at path: String, pageSize: Int) -> DatabaseFileError? {
        var info = stat()
        guard stat(path, &info) == 0 else { return .removed(path: path) }
        guard UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode else { return .replaced(path: path) }
        let size = Int(info.st_size)
        if pageSize > 0 && (size == 0 || size % pageSize != 0) {
            return .unreadable(
                path: path, reason: "it is \(size) byte\(size == 1 ? "" : "s"), not a whole number of \(pageSize)-byte pages (truncated or overwritten)")
        }
        return nil
    }
}
