/// One versioned schema change of a ``MigrationSet``: SQL (usually a file named
/// `NNNN_description.sql`) or Swift code.
///
/// ```swift
/// let createNotes = Migration(version: 1, name: "create_notes", sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
/// let fromFile = try Migration(fileName: "0002_index_notes.sql", sql: text)   // version 2
/// let refold = Migration(version: 3, name: "refold_notes", revision: "1", applyOnAnyEngine: { db in
///     for row in try db.fetchRows(sql: "SELECT id, text FROM note", values: []) {
///         guard case .text(let text) = row[1] else { continue }
///         try db.execute(sql: "UPDATE note SET text = ? WHERE id = ?", values: [.text(text.lowercased()), row[0]])
///     }
/// })
/// ```
///
/// A Swift migration runs inside the migration's transaction with its connection: whatever it writes is
/// committed with the migration's record, or rolled back with it when it throws. One written with
/// ``init(version:name:revision:applyOnAnyEngine:)`` gets an ``SQLConnection`` and runs on either engine;
/// SQLiteStore's `init(version:name:revision:apply:)` gives SQLite's `Database`, and runs on SQLite
/// only. The code cannot be fingerprinted, so its ``checksum`` is that of the `revision` string you give it: keep the revision
/// while the step does the same thing, and change it only to make databases that applied the old
/// step refuse to open (they report the migration as changed). To change what an applied step did,
/// add a new migration instead.
///
/// Every open of a database compares the checksums of its applied migrations with the code's, so a
/// revision that is costly to build (SQL generated from a description) can be given by its checksum
/// instead, computed once with ``checksum(ofRevision:)`` and written in the code
/// (``init(version:name:revisionChecksum:applyOnAnyEngine:)``), with a test that it is still the checksum of the
/// revision the code would give.
public struct Migration: Sendable {
    /// What a migration runs.
    public enum Body: Sendable {
        /// SQL text, possibly several statements.
        case sql(String)
        /// Swift code run with the migration's connection, inside its transaction; the
        /// ``Migration/checksum`` of its revision stands for the code.
        case code(@Sendable (any SQLConnection) throws -> Void)
    }

    /// The version within its set: migrations run in increasing version order.
    public let version: Int
    /// The description: for a file, its name after the number, without its extension.
    public let name: String
    /// What the migration runs.
    public let body: Body
    /// A fingerprint of the SQL, or of a Swift migration's revision string: 64-bit FNV-1a of its UTF-8
    /// bytes, as 16 hexadecimal digits.
    ///
    /// It tells a changed migration from the one that was applied; it is not a cryptographic hash
    /// (nothing here defends against someone forging a file on purpose). Computed once, here: every
    /// connection a store opens checks the applied migrations against it.
    public let checksum: String
    /// The one engine, by its dialect, whose databases the migration changes; nil (the default) for
    /// every engine. On another engine it is recorded as applied without running, so that a set's
    /// versions are the same on every engine, and a step that changes nothing there is known as such
    /// (``Migrator/hasPendingChanges(_:)``: `catalog migrate` backs a file up only for a change).
    public private(set) var onlyOn: SQLDialect?

    /// Creates an SQL migration.
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.body = .sql(sql)
        self.checksum = Self.checksum(ofRevision: sql)
    }

    /// Creates a Swift migration that runs on either engine: `apply` runs with the migration's
    /// connection, inside its transaction.
    ///
    /// - Parameters:
    ///   - version: the version within its set.
    ///   - name: a description, as a file's name would give it.
    ///   - revision: what ``checksum`` is computed from, in place of the code: an applied migration
    ///     whose revision changed is refused like a changed SQL file.
    ///   - apply: the step, run with the migration's connection inside its transaction.
    public init(
        version: Int, name: String, revision: String, applyOnAnyEngine apply: @escaping @Sendable (any SQLConnection) throws -> Void
    ) {
        self.init(version: version, name: name, revisionChecksum: Self.checksum(ofRevision: revision), applyOnAnyEngine: apply)
    }

    /// Creates a Swift migration that runs on either engine from the checksum of its revision,
    /// computed before: the migration that ``init(version:name:revision:applyOnAnyEngine:)`` would make
    /// with that revision, without building the revision in every process that opens a database.
    ///
    /// - Parameters:
    ///   - version: the version within its set.
    ///   - name: a description, as a file's name would give it.
    ///   - revisionChecksum: ``checksum(ofRevision:)`` of the revision the step stands for.
    ///   - apply: the step, run with the migration's connection inside its transaction.
    public init(
        version: Int, name: String, revisionChecksum: String,
        applyOnAnyEngine apply: @escaping @Sendable (any SQLConnection) throws -> Void
    ) {
        self.version = version
        self.name = name
        self.body = .code(apply)
        self.checksum = revisionChecksum
    }

    /// The ``checksum`` of a Swift migration with this revision (and of an SQL migration with this SQL).
    public static func checksum(ofRevision revision: String) -> String {
        FNV1a.hexadecimal(revision)
    }

    /// Creates an SQL migration from a file's name and text.
    ///
    /// ```swift
    /// let migration = try Migration(fileName: "0001_create_products.sql", sql: text)  // version 1
    /// ```
    ///
    /// - Throws: ``MigrationError/invalidFileName(_:)`` unless the name is digits, `_`, a description
    ///   and `.sql`.
    public init(fileName: String, sql: String) throws {
        guard fileName.hasSuffix(".sql") else { throw MigrationError.invalidFileName(fileName) }
        let stem = fileName.dropLast(4)
        let digits = stem.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let version = Int(digits), stem.dropFirst(digits.count).first == "_" else {
            throw MigrationError.invalidFileName(fileName)
        }
        self.init(version: version, name: String(stem.dropFirst(digits.count + 1)), sql: sql)
    }

    /// This migration, run only on databases of `dialect`'s engine (``onlyOn``); its checksum stays.
    public func applyingOnly(on dialect: SQLDialect) -> Migration {
        var migration = self
        migration.onlyOn = dialect
        return migration
    }

    /// The SQL of an SQL migration; nil for a Swift one.
    public var sql: String? {
        guard case .sql(let sql) = body else { return nil }
        return sql
    }

    /// `NNNN_name`, as the file was called.
    public var identifier: String {
        let number = String(version)
        return String(repeating: "0", count: max(0, 4 - number.count)) + number + "_" + name
    }

    /// Whether the migration runs on `db`'s engine, rather than being only recorded there.
    func runs(on db: any SQLConnection) -> Bool { onlyOn.map { $0 == db.dialect } ?? true }

    /// Runs the migration on `db`, inside the caller's transaction, where it ``runs(on:)``.
    func apply(_ db: any SQLConnection) throws {
        guard runs(on: db) else { return }
        switch body {
        case .sql(let sql): try db.execute(sql: sql, values: [])
        case .code(let apply): try apply(db)
        }
    }
}
