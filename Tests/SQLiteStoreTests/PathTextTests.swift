import Foundation
import SQLiteStore
import Testing

/// Paths taken apart as `PathText` defines it, and as Foundation's `NSString` methods did for every
/// path they handled (they trap on some one-component paths, and differ on repeated separators).
struct PathTextTests {
    @Test(arguments: [
        ("/data/catalog.sqlite", "/data", "catalog.sqlite"),
        ("/catalog.sqlite", "/", "catalog.sqlite"),
        ("catalog.sqlite", ".", "catalog.sqlite"),
        ("x", ".", "x"),
        ("x/", ".", "x"),
        ("data/backups/", "data", "backups"),
        ("data//backups", "data", "backups"),
        ("./x", ".", "x"),
        ("../x", "..", "x"),
        ("/", "/", "/"),
        ("//x", "/", "x"),
        ("é/ü.sqlite", "é", "ü.sqlite"),
        ("", ".", ""),
    ])
    func folderAndLastComponent(path: String, folder: String, last: String) {
        #expect(PathText.folder(of: path) == folder)
        #expect(PathText.lastComponent(of: path) == last)
    }

    @Test func appending() {
        #expect(PathText.appending("catalog.sqlite", to: "/data") == "/data/catalog.sqlite")
        #expect(PathText.appending("catalog.sqlite", to: "/") == "/catalog.sqlite")
        #expect(PathText.appending("catalog.sqlite", to: "data/") == "data/catalog.sqlite")
        #expect(PathText.appending("", to: "/data") == "/data")
        #expect(PathText.appending("x", to: "") == "x")
    }

    /// Every path of up to 6 of `a`, `b`, `é`, `.` and `/` without a repeated separator: as `NSString`
    /// did (its `deletingLastPathComponent` only where the path has a folder part: it traps on `a`,
    /// `.`, `a/`, and gives "" where the command line showed `.`).
    @Test func asFoundationDid() {
        var paths = [""]
        var longest = [""]
        for _ in 1...6 {
            longest = longest.flatMap { path in ["a", "b", "é", ".", "/"].map { path + $0 } }
            paths += longest
        }
        for path in paths where !path.contains("//") {
            let foundation = path as NSString
            #expect(PathText.lastComponent(of: path) == foundation.lastPathComponent, "\(path)")
            for name in ["x", "x.sqlite"] where !path.isEmpty {
                #expect(PathText.appending(name, to: path) == foundation.appendingPathComponent(name), "\(path)")
            }
            var trimmed = Substring(path)
            while trimmed.last == "/" { trimmed.removeLast() }
            if trimmed.contains("/") {
                let folder = foundation.deletingLastPathComponent
                #expect(PathText.folder(of: path) == (folder.isEmpty ? "." : folder), "\(path)")
            }
        }
    }
}
