/// One versioned schema change: the SQL of a file named `NNNN_description.sql`.
public struct Migration: Sendable, Hashable {
    /// The version: the file name's leading number. Migrations run in increasing version order.
    public let version: Int
    /// The description: the file name after the number, without its extension.
    public let name: String
    /// The SQL to run, possibly several statements.
    public let sql: String

    /// Creates a migration.
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// Creates a migration from a file's name and text.
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

    /// A fingerprint of ``sql``: 64-bit FNV-1a of its UTF-8 bytes, as 16 hexadecimal digits.
    ///
    /// It tells a changed migration file from the one that was applied; it is not a cryptographic hash
    /// (nothing here defends against someone forging a file on purpose).
    public var checksum: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sql.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `NNNN_name`, as the file was called.
    public var identifier: String {
        let number = String(version)
        return String(repeating: "0", count: max(0, 4 - number.count)) + number + "_" + name
    }
}
