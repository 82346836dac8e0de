import Foundation

/// A temporary directory with a catalog database path in it (or, on PostgreSQL, a schema of its own
/// on the test servers), and the built `catalog` run against it.
///
/// ```swift
/// @Test(arguments: StoreEngine.all) func seedThenList(engine: StoreEngine) throws {
///     let workspace = try Workspace(engine: engine)
///     try workspace.catalog("seed")
/// }
/// ```
public struct Workspace {
    public let directory: TemporaryDirectory
    /// The database the commands use unless told otherwise: a file's path, or the test primary's
    /// URL in the workspace's schema.
    public let database: String
    /// The engine of ``database``.
    public let engine: StoreEngine
    /// The schema of a workspace on PostgreSQL (its replicas are given to every command as
    /// `CATALOG_REPLICAS`); nil for a file.
    public let schema: TestSchema?

    /// A new, empty directory; the database in it does not exist yet (on PostgreSQL: an empty schema).
    public init(engine: StoreEngine = .sqlite) throws {
        directory = try TemporaryDirectory()
        self.engine = engine
        switch engine {
        case .sqlite:
            schema = nil
            database = directory.path("catalog.sqlite")
        case .postgreSQL:
            let schema = try TestSchema()
            self.schema = schema
            database = schema.primary
        }
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
        var environment = environment
        if let schema, database == nil, environment["CATALOG_REPLICAS"] == nil {
            environment["CATALOG_REPLICAS"] = schema.replicas.joined(separator: ",")
        }
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
