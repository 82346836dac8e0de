import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// What the `catalog` documentation (CatalogCLI.docc: Commands, Exit codes and errors, Guarantees)
/// promises about bad situations, checked against the built binary from the articles' words, for
/// the promises no other suite runs end to end.
struct DocumentedPromisesTests {
    let workspace: Workspace

    init() throws {
        workspace = try Workspace()
    }

    /// Exit codes: "nothing was written" is said only when nothing was. A write command refuses a
    /// damaged file of up to 8 MiB "without changing it" (Guarantees), also when the file is one a
    /// development version made, which opening would otherwise adopt (a write) before the check.
    @Test func aDamagedFileOfADevelopmentVersionIsRefusedUnchanged() throws {
        let store = try CatalogStore(path: workspace.database)
        try store.seed([SeedFile(SyntheticCatalog.products(count: 3_000, seed: 4))])
        try store.database.close()
        try PreBaselineFile.rewrite(workspace.database, toVersion: 12)
        try Self.overwriteALeafPage(of: "products", in: workspace.database)
        let bytes = FileManager.default.contents(atPath: workspace.database)

        for arguments in [["add", "product", "--type", "device", "--name", "X", "--year", "2000", "--price", "1"], ["seed", "--count", "1"]] {
            let result = try workspace.catalog(arguments)
            #expect(result.status == 6, "\(arguments): \(result)")
            #expect(result.error.hasPrefix("catalog: error: the database file is damaged"), "\(arguments): \(result)")
            #expect(result.error.contains("nothing was written"), "\(arguments): \(result)")
            #expect(FileManager.default.contents(atPath: workspace.database) == bytes, "\(arguments) changed the file")
        }
    }

    /// Overwrites the cells of a leaf page of `table` in the middle of its pages (its 8-byte header
    /// kept), so that any statement reading a row of that page fails with `SQLITE_CORRUPT`.
    static func overwriteALeafPage(of table: String, in path: String) throws {
        let queue = try DatabaseQueue(path: path)
        let pages = try queue.read { db in
            try db.fetchAll(sql: "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno", arguments: [table]) {
                try $0.decode(Int.self, at: 0)
            }
        }
        let pageSize = try queue.read { db in try db.scalar(Int.self, sql: "PRAGMA page_size") ?? 4096 }
        try queue.close()
        let page = try #require(pages.dropFirst(pages.count / 2).first)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64((page - 1) * pageSize + 8))
        try handle.write(contentsOf: Data(repeating: 0xAB, count: pageSize - 8))
        try handle.close()
    }
}
