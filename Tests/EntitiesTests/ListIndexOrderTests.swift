import Entities
@testable import FetchedResults
import SQLiteStore
import Testing
import TestSupport

/// A declared entity's index serves the reads of its list in order on PostgreSQL: a batch of a
/// section is read by walking the index (`EntityIndex`'s promise), never by sorting the section,
/// since the `ORDER BY` of columns that cannot be NULL says nothing of where NULL goes.
struct ListIndexOrderTests {
    /// The statement of a section's batch, planned with sorting disabled (so that a plan that can
    /// walk the index does): its plan has no Sort step.
    @Test func aSectionsBatchWalksTheEntitysIndexOnPostgreSQL() throws {
        guard StoreEngine.all.contains(.postgreSQL) else { return }
        let store = try StoreEngine.postgreSQL.makeStore()
        try Pantry.now.migrate(store.writer)
        // Jar's index: by shelf (its sections), then shelf and label.
        let request = FetchRequest<Jar>(
            sortDescriptors: [SortDescriptor(\.shelf), SortDescriptor(\.label)], sectionKeyPath: \Jar.shelf, batchSize: 10)
        let (plan, sql) = try store.writer.read { db in
            let query = try FetchQuery(request, db)
            let batch = query.rowsQuery(section: .text("top\u{1}Top"), after: nil, limit: 10, offset: 0, withEntities: true)
            try db.execute(sql: "SET LOCAL enable_sort = off", values: [])
            return (try db.fetchRows(sql: "EXPLAIN " + batch.sql, values: batch.arguments.values), batch.sql)
        }
        let steps = plan.map { row in row.map { value in if case .text(let text) = value { text } else { "" } }.joined(separator: " ") }
        #expect(!steps.isEmpty)
        #expect(!steps.contains { $0.contains("Sort") }, "\(steps) \(sql)")
    }
}
