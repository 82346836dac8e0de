import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder a command creates a new file in: the database it creates, a file it writes whole.
enum NewFileFolder {
    /// Why no new file can be created at `path`, in the words of an error message, or nil when its
    /// folder exists, is a folder, and takes new files from this user.
    ///
    /// ```swift
    /// NewFileFolder.problem(creatingFileAt: "/no/such/folder/x.sqlite")  // "the folder /no/such/folder does not exist"
    /// ```
    static func problem(creatingFileAt path: String) -> String? {
        let shownFolder = PathText.folder(of: path)
        var info = stat()
        guard stat(shownFolder, &info) == 0 else { return "the folder \(shownFolder) does not exist" }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(shownFolder) is not a folder" }
        // access() answers for this user, root included.
        guard access(shownFolder, W_OK | X_OK) == 0 else { return "this user may not create files in \(shownFolder)" }
        return nil
    }
}
