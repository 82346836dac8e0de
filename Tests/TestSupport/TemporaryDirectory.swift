import Foundation

/// A fresh directory under the system's temporary directory, removed when the value is deallocated.
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// let queue = try DatabaseQueue(path: directory.path("test.sqlite"))
/// ```
public final class TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let url: URL

    /// Creates the directory.
    public init() throws {
        url = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("catalog-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the directory.
    public func path(_ name: String = "test.sqlite") -> String {
        url.appendingPathComponent(name).path
    }
}
