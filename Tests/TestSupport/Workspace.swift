import Foundation

/// A temporary directory with a catalog database path in it, and the built `catalog` run against it.
public struct Workspace {
    public let directory: TemporaryDirectory
    /// The database the commands use unless told otherwise.
    public let database: String

    /// A new, empty directory; the database in it does not exist yet.
    public init() throws {
        directory = try TemporaryDirectory()
        database = directory.path("catalog.sqlite")
    }

    /// The path of `name` in the directory.
    public func path(_ name: String) -> String { directory.path(name) }

    /// Runs `catalog` with `arguments` and `--database` (this workspace's unless given; before a `--`
    /// that ends the options, else last), with `HOME` in the workspace so that the user's default
    /// database is never touched.
    @discardableResult
    public func catalog(
        _ arguments: [String], database: String? = nil, environment: [String: String] = [:], input: String? = nil
    ) throws -> ProcessResult {
        var arguments = arguments
        arguments.insert(contentsOf: ["--database", database ?? self.database], at: arguments.firstIndex(of: "--") ?? arguments.endIndex)
        return try ProcessRunner.run("catalog", arguments, environment: environment, home: path("home"), input: input)
    }

    /// Runs `catalog` with `arguments` on this workspace's database.
    @discardableResult
    public func catalog(_ arguments: String..., environment: [String: String] = [:]) throws -> ProcessResult {
        try catalog(arguments, environment: environment)
    }

    /// Writes `text` to `name` in the directory and returns its path.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        try write(Data(text.utf8), to: name)
    }

    /// Writes `data` to `name` in the directory and returns its path.
    @discardableResult
    public func write(_ data: Data, to name: String) throws -> String {
        let file = path(name)
        try data.write(to: URL(fileURLWithPath: file))
        return file
    }
}
