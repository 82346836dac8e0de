import Catalog
import SQLiteStore
import Testing

/// The checksums written in the catalog's Swift migrations (the baseline) are those of the revisions they
/// stand for, as the code builds them now: what databases that applied them recorded, so that a
/// database is refused as changed exactly when the code would apply other SQL.
struct CatalogMigrationChecksumTests {
    /// 64-bit FNV-1a of the UTF-8 bytes, as 16 lowercase hexadecimal digits: written here from the
    /// definition, not by calling the code under test.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    @Test func everySwiftMigrationsChecksumIsThatOfItsRevision() throws {
        let swiftMigrations = CatalogMigrations.all.filter { $0.sql == nil }
        #expect(swiftMigrations.map(\.version) == [1, 3, 4, 5, 6, 7])
        #expect(CatalogMigrations.revisions.keys.sorted() == swiftMigrations.map(\.version))
        for migration in swiftMigrations {
            let revision = try #require(CatalogMigrations.revisions[migration.version])
            #expect(migration.checksum == Self.fnv1a(revision), "migration \(migration.version)")
            #expect(migration.checksum == Migration.checksum(ofRevision: revision), "migration \(migration.version)")
        }
    }

    @Test func everySQLMigrationsChecksumIsThatOfItsSQL() throws {
        for migration in CatalogMigrations.all {
            guard let sql = migration.sql else { continue }
            #expect(migration.checksum == Self.fnv1a(sql), "migration \(migration.version)")
        }
    }

    /// A given checksum makes the migration that the revision would: the same record, and a database
    /// that applied another revision is refused as changed.
    @Test func aGivenChecksumIsTheRevisionsChecksum() throws {
        let byRevision = Migration(version: 1, name: "x", revision: "a") { _ in }
        let byChecksum = Migration(version: 1, name: "x", revisionChecksum: Self.fnv1a("a")) { _ in }
        #expect(byChecksum.checksum == byRevision.checksum)
        #expect(Migration.checksum(ofRevision: "a") == "af63dc4c8601ec8c")
    }
}
