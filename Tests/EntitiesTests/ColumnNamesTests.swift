import Catalog
import Entities
import SQLiteStore
import Testing
import TestSupport

/// The column-name rule of `ColumnNames`, as a table written from its definition, and against the
/// columns the catalog's migrations made before the rule read acronyms as words.
struct ColumnNamesTests {
    @Test(arguments: [
        ("title", "title"),
        ("id", "id"),
        ("yearIntroduced", "year_introduced"),
        ("introPrice", "intro_price"),
        ("operatingSystem", "operating_system"),
        ("recipeID", "recipe_id"),
        ("isbnURL", "isbn_url"),
        ("URLString", "url_string"),
        ("HTTPRequestID", "http_request_id"),
        ("URL", "url"),
        ("top10Books", "top10_books"),
        ("année", "année"),
        ("prixÉté", "prix_été"),
    ])
    func aNameReadsAsItsWords(name: String, column: String) {
        #expect(ColumnNames.column(forName: name) == column)
    }

    @Test func aLabelIsTheSameWords() {
        let attribute = EntityAttribute<Product>.value("recipeID", \Product.yearIntroduced)
        #expect(attribute.label == "recipe id" && attribute.column == "recipe_id")
        #expect(EntityAttribute<Product>.value("recipeID", \Product.yearIntroduced, column: "rid").column == "rid")
    }

    @Test func productAndPhoneColumnsKeepTheirNames() throws {
        let directory = try TemporaryDirectory()
        let store = try CatalogStore(path: directory.path())
        let columns = try store.database.read { db in
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
