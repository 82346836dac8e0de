/// Paths taken apart as text, as Foundation's `NSString` path methods did for the package's paths
/// (without Foundation): `/` separates components; separators at the end name no component.
///
/// For the package's modules (the store's WAL file check, the command line's files), not for embedders.
package enum PathText {
    /// The folder holding what `path` names: the path without its last component and the
    /// separators before that; `/` for a component of the root folder, `.` for a path of one
    /// relative component.
    ///
    /// ```swift
    /// PathText.folder(of: "/data/catalog.sqlite")  // "/data"
    /// PathText.folder(of: "/catalog.sqlite")       // "/"
    /// PathText.folder(of: "catalog.sqlite")        // "."
    /// PathText.folder(of: "data/backups/")         // "data"
    /// ```
    package static func folder(of path: String) -> String {
        let bytes = Array(path.utf8)
        let end = trimmedEnd(bytes)
        guard let separator = bytes[..<end].lastIndex(of: slash) else { return end == 0 && !bytes.isEmpty ? "/" : "." }
        let folderEnd = trimmedEnd(Array(bytes[..<separator]))
        return folderEnd == 0 ? "/" : String(decoding: bytes[..<folderEnd], as: UTF8.self)
    }

    /// The last component of `path`: what follows its last separator, separators at the end
    /// ignored; `/` for the root folder, empty for an empty path.
    ///
    /// ```swift
    /// PathText.lastComponent(of: "/data/catalog.sqlite")  // "catalog.sqlite"
    /// PathText.lastComponent(of: "data/backups/")         // "backups"
    /// ```
    package static func lastComponent(of path: String) -> String {
        let bytes = Array(path.utf8)
        let end = trimmedEnd(bytes)
        guard end > 0 else { return bytes.isEmpty ? "" : "/" }
        let start = bytes[..<end].lastIndex(of: slash).map { $0 + 1 } ?? 0
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// `name` inside `folder`: joined by one separator unless `folder` ends with one; either alone
    /// when the other is empty.
    ///
    /// ```swift
    /// PathText.appending("catalog.sqlite", to: "/data")  // "/data/catalog.sqlite"
    /// PathText.appending("catalog.sqlite", to: "/")      // "/catalog.sqlite"
    /// ```
    package static func appending(_ name: String, to folder: String) -> String {
        if name.isEmpty { return folder }
        if folder.isEmpty { return name }
        return folder.utf8.last == slash ? folder + name : folder + "/" + name
    }

    private static let slash = UInt8(ascii: "/")

    /// The end of `bytes` without the separators that end it.
    private static func trimmedEnd(_ bytes: [UInt8]) -> Int {
        var end = bytes.count
        while end > 0 && bytes[end - 1] == slash { end -= 1 }
        return end
    }
}
