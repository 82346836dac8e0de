import Foundation

/// A file a command writes whole (`export --output`, `backup`'s destination): written beside its path
/// and renamed over it when complete, so its folder must take a new file and the path must not hold
/// anything but a regular file (a rename would replace a device or FIFO, and cannot replace a folder).
enum OutputFile {
    /// Checks, before any work, that a file can be written beside `path` and moved there.
    ///
    /// ```swift
    /// try OutputFile.checkWritable("/backups/catalog.sqlite")
    /// ```
    ///
    /// - Throws: ``CommandFailure/outputNotCreatable(path:reason:)`` (exit 66) when `path` is a folder,
    ///   FIFO or device, or its folder is missing, not a folder, or not writable by this user.
    static func checkWritable(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw CommandFailure.outputNotCreatable(path: path, reason: "it is a folder")
            default: throw CommandFailure.outputNotCreatable(path: path, reason: "it is a device, FIFO or socket, not a regular file")
            }
        }
        let folder = (path as NSString).deletingLastPathComponent
        let shownFolder = folder.isEmpty ? "." : folder
        guard stat(shownFolder, &info) == 0 else {
            throw CommandFailure.outputNotCreatable(path: path, reason: "the folder \(shownFolder) does not exist")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw CommandFailure.outputNotCreatable(path: path, reason: "\(shownFolder) is not a folder")
        }
        // The file is created beside `path`: the folder must take new files (access() answers for
        // this user, root included).
        guard access(shownFolder, W_OK | X_OK) == 0 else {
            throw CommandFailure.outputNotCreatable(path: path, reason: "this user may not create files in \(shownFolder)")
        }
    }
}
