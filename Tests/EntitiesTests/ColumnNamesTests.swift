import Entities
import Testing

/// The column-name rule of `ColumnNames`, as a table written from its definition.
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
        let attribute = EntityAttribute<Note>.value("recipeID", \Note.priority)
        #expect(attribute.label == "recipe id" && attribute.column == "recipe_id")
        #expect(EntityAttribute<Note>.value("recipeID", \Note.priority, column: "rid").column == "rid")
    }
}
