@_spi(Testing) import Catalog
import FetchedResults
import Foundation
import SQLiteStore
import Testing
import TestSupport
import TextSearch

/// Every path a search takes runs the one planned executor: `catalog search X` and `list --search X`
/// (`CatalogStore.sections`), `show 0.0 --search X` (`CatalogStore.record(_:at:in:)`), a
/// `FetchedResultsController` with `searchText`, and `searchPage`. Shown by the SQL trace of each
/// (bound values expanded): each reads the same term estimates, in the same order, in its read, and
/// the driver's index query they bind is the same.
struct OneExecutorTests {
    /// The named slow queries, short and long terms, numbers, Japanese, no match.
    static let queries = ["pro pa", "touch s", "x in", "2 le", "3 a", "a", "mac", "ip", "café pro", "カメ", "2000", "zoë max 2", "qqq"]
    /// Those of one term of 3+ scalars, not a number.
    static let singleLongTerms: Set = ["mac", "qqq"]

    /// The statements that read a term's estimate, each once, in the order first run: its gram count,
    /// its trigram rows counted up to a cap, its rows in a number column counted up to a cap. (The
    /// executor may read a gram count again for a total.)
    static func estimates(_ trace: [String]) -> [String] {
        var seen = Set<String>()
        return trace.filter { statement in
            ["SELECT coalesce(sum(count), 0) FROM products_gram_counts", "SELECT count FROM products_gram_counts",
             "SELECT count(*) FROM (SELECT 1 FROM "].contains { statement.hasPrefix($0) }
                && seen.insert(statement).inserted
        }
    }

    /// The driver's subquery over an index, as bound, after `SELECT rowid`: ` FROM products_grams WHERE products_grams MATCH '"6970"'`.
    static func drivers(_ trace: [String]) -> Set<String> {
        var found = Set<String>()
        for statement in trace {
            var rest = statement[...]
            while let start = rest.range(of: "IN (SELECT rowid") {
                let tail = rest[start.upperBound...]
                let end = tail.firstIndex(of: ")") ?? tail.endIndex
                found.insert(String(tail[..<end]))
                rest = tail[end...]
            }
        }
        return found
    }

    /// Whether a statement reads within one type: a gram count of a type, a walk of its list entries, a trigram rowid range, a
    /// grams query with a type's token.
    static func isScoped(_ statement: String) -> Bool {
        statement.contains(" AND type = '") || statement.contains("WHERE type = '") || statement.contains("rowid BETWEEN") || statement.contains(" AND \"x")
    }

    /// A driver without its narrowing to one type (the trigram index's rowid range, the grams
    /// index's type token).
    static func unscoped(_ driver: String) -> String {
        driver.replacing(#/ AND rowid BETWEEN \d+ AND \d+/#, with: "").replacing(#/ AND "x[0-9A-F]+"/#, with: "")
    }

    @Test func everyPathPlansTheSameDriverAsSearchPage() throws {
        let directory = try TemporaryDirectory()
        let trace = StatementTrace()
        var configuration = trace.configuration
        configuration.tracesBoundValues = true
        let store = try CatalogStore(path: directory.path("catalog.sqlite"), configuration: configuration)
        try store.seed([SeedFile(SyntheticCatalog.products(count: 3_000, seed: 12))])
        var comparedDrivers = 0
        for text in Self.queries {
            let request = ListRequest<Product>(searchText: text)
            let viaPage = try trace.of { _ = try store.searchPage(request, limit: 50) }
            // searchPage reading its matches by id rather than walking the list index: it binds its driver.
            var byID = SearchCosts.standard
            byID.entriesPerRowRead = 0
            let viaPageByID = try trace.of { _ = try store.searchPage(request, limit: 50, offset: 0, costs: byID) }
            let viaSearch = try trace.of { _ = try store.sections(request) as [EntitySection<Product>] }
            let viaShow = trace.of { _ = try? store.record(at: ItemPath(section: 0, row: 0), in: request) }
            // `show` plans each type's search apart (whether it matches, then its row), as searchPage
            // plans a page within one type; its row, read uncounted, may come through one query of all
            // terms (`AND` in one index's MATCH) rather than the driver's.
            var viaScopedPages: [String] = []
            for type in ProductType.allCases {
                let scoped = ListRequest<Product>(scope: type, searchText: text)
                viaScopedPages += try trace.of { _ = try store.searchPage(scoped, limit: 1) }
                viaScopedPages += try trace.of { _ = try store.searchPage(scoped, limit: 1, offset: 0, costs: byID) }
            }
            let viaController = try trace.of {
                var fetch = FetchRequest<Product>(sortDescriptors: [SortDescriptor(\.name)], searchText: text, sectionKeyPath: \Product.type)
                fetch.batchSize = 50  // as `catalog browse` and W3 read it
                let controller = FetchedResultsController(request: fetch, reader: store.file!)
                try controller.performFetch()
            }
            let expected = Self.estimates(viaPage)
            #expect(!expected.isEmpty, "\(text): searchPage read no estimate")
            for (path, statements) in [("catalog search", viaSearch), ("show --search", viaShow), ("controller", viaController)] {
                // (The controller also reads its first batch as searchPage reads a page within that
                // section's type: the same plan, narrowed to the type.)
                let unscoped = statements.filter { !Self.isScoped($0) }
                // (The controller plans its condition only when it reads through it: when the entity's
                // search gives its sections and batches, it reads no estimate beyond theirs.)
                let estimates = Self.estimates(unscoped)
                if Self.singleLongTerms.contains(text) {
                    // One term of 3+ scalars drives whatever its estimate: the condition reads only
                    // a bound of its rows (its 2-scalar grams' counts), where searchPage counts them.
                    #expect(
                        estimates.allSatisfy { $0.hasPrefix("SELECT coalesce(sum(count), 0) FROM products_gram_counts") },
                        "\(text): \(path) counted the term's rows to plan")
                } else {
                    #expect(
                        estimates == expected || (path != "catalog search" && estimates.allSatisfy(expected.contains)),
                        "\(text): \(path) planned from other estimates")
                }
                // (A path whose counts and page come from indexes without the driver binds none. The
                // controller, and `show`, may read its batches as searchPage's pages, planned
                // in their read: then they drive as searchPage does.)
                let drivers = Set(Self.drivers(statements).map(Self.unscoped))
                let planned = Self.drivers(viaSearch).union(Self.drivers(viaPage)).union(Self.drivers(viaPageByID))
                    .union(path == "show --search" ? Set(Self.drivers(viaScopedPages).map(Self.unscoped)) : [])
                #expect(
                    drivers.isEmpty || drivers == Self.drivers(viaSearch)
                        || (path != "catalog search" && drivers.filter { path != "show --search" || !$0.contains("\" AND \"") }.isSubset(of: planned)),
                    "\(text): \(path) drives otherwise than catalog search and searchPage: \(drivers) vs \(planned)")
            }
            // Short terms: the controller's sections are gram counts per type, or counts in the grams
            // index per type's rowid range, not a count of rows.
            if ["a", "ip", "カメ", "x in"].contains(text) {
                #expect(!viaController.contains { $0.contains("GROUP BY") }, "\(text): the controller counted rows")
            }
            if ["a", "ip", "カメ"].contains(text) {
                #expect(viaController.contains { $0.hasPrefix("SELECT type, count FROM products_gram_counts") })
            }
            // Sections from the indexes' counts per type and batches as searchPage's pages within a
            // type: the controller never plans its condition, so it reads no estimate of the whole table.
            if ["a", "ip", "カメ", "x in", "mac", "café pro"].contains(text) {
                #expect(Self.estimates(viaController.filter { !Self.isScoped($0) }).isEmpty, "\(text): the controller planned its condition")
            }
            // More matches than a one pass reads: the first batch is the executor's page within the
            // first section's type.
            if text == "a" {
                #expect(viaController.contains(where: Self.isScoped), "\(text): the controller read no page within a type")
            }
            if text == "x in" {
                #expect(viaController.contains { $0.hasPrefix("SELECT count(*) FROM products_grams WHERE products_grams MATCH") })
            }
            // searchPage binds the driver's query where its strategy reads the driver's rows (not when a
            // gram count gives the total and a walk in list order the page).
            // (Its plan may treat a number as a plain term within its read, and then drive by all
            // short terms at once, which a condition kept for later reads may not.)
            let pageDrivers = Self.drivers(viaPage)
            let controllerDrivers = Set(Self.drivers(viaController).map(Self.unscoped))
            if !pageDrivers.isEmpty, !pageDrivers.contains(where: { $0.contains(" AND ") }) {
                #expect(pageDrivers == controllerDrivers, "\(text): searchPage drives by \(pageDrivers), the controller by \(controllerDrivers)")
                comparedDrivers += 1
            }
        }
        #expect(comparedDrivers >= 5)
    }
}
