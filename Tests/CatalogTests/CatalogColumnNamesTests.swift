import Catalog
import Entities
import SQLiteStore
import Testing
import TestSupport

/// The products' and phones' columns, made before the column-name rule read acronyms as words, are
/// the names the rule gives their attributes.
struct CatalogColumnNamesTests {
    @Test func productAndPhoneColumnsKeepTheirNames() throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.path())
        let columns = try store.file!.read { db in
            try ["products", "phones"].map { table in
                try Set(db.fetchAll(sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]) { try $0.decode(String.self, at: 0) })
            }
        }
        for attribute in Product.declaration.attributes {
            #expect(ColumnNames.column(forName: attribute.name) == attribute.column)
            #expect(columns[0].isSuperset(of: attribute.storedColumns), "\(attribute.name)")
        }
        for attribute in Phone.declaration.attributes {
            #expect(ColumnNames.column(forName: attribute.name) == attribute.column)
            #expect(columns[1].isSuperset(of: attribute.storedColumns), "\(attribute.name)")
        }
    }
}
