import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// A file a development version made before the baseline schema, given to `catalog`: at that
/// version's 12 it is adopted by the first command that opens it, before that refused (exit 6) and
/// left as it was.
struct PreBaselineCommandTests {
    let workspace: Workspace

    init() throws {
        workspace = try Workspace()
    }

    /// A closed catalog file holding one product, its records those of a development version at `version`.
    private func oldFile(version: Int) throws -> String {
        let path = workspace.path("old-\(version).sqlite")
        let store = try CatalogStore(path: path)
        try store.insert(Product(type: .desktop, name: "Mac Pro", yearIntroduced: 2006, introPrice: 2499))
        try store.file!.close()
        try PreBaselineFile.rewrite(path, toVersion: version)
        return path
    }

    @Test func listAdoptsAFileAtVersion12() throws {
        let path = try oldFile(version: 12)
        let list = try workspace.catalog(["list"], database: path)
        #expect(list.status == 0, "\(list)")
        #expect(list.output.contains("Mac Pro"))
        let status = try workspace.catalog(["migrate", "--status"], database: path)
        #expect(status.output.split(separator: "\n").dropFirst().map { $0.split(separator: " ").prefix(4).joined(separator: " ") }
            == ["catalog 1 baseline applied", "catalog 2 drop_products_by_name applied", "catalog 3 index_search_grams applied",
                "catalog 4 count_products_by_type applied", "catalog 5 index_search_pairs applied",
                "catalog 6 drop_older_count_function applied", "catalog 7 count_search_by_statement applied"], "\(status)")
        #expect(try workspace.catalog(["search", "pro"], database: path).output.contains("Mac Pro"))
    }

    @Test(arguments: [1, 11]) func listRefusesAnEarlierFileUnchanged(version: Int) throws {
        let path = try oldFile(version: version)
        let bytes = try #require(FileManager.default.contents(atPath: path))
        for arguments in [["list"], ["migrate"], ["migrate", "--status"]] {
            let result = try workspace.catalog(arguments, database: path)
            #expect(result.status == 6, "\(arguments) \(result)")
            #expect(result.output.isEmpty)
            #expect(result.error == "catalog: error: the database has the catalog schema of a development version (\(version), before the baseline), which this program cannot open; start a new database; it was left as it was\n", "\(result)")
        }
        #expect(FileManager.default.contents(atPath: path) == bytes)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: workspace.path("")).filter { $0.contains("before-migration") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
