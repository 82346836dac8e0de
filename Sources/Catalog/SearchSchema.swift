/// The tables and columns a search of an entity uses.
struct SearchSchema {
    /// The entity's table.
    let table: String
    /// Its FTS5 trigram index over the folded text columns.
    let fullTextTable: String
    /// Its table of 1- and 2-character grams, if it has one.
    let gramsTable: String?
    /// Its table of rows per gram and type, if it has one.
    let gramCountsTable: String?
    /// The folded columns a term is looked for in.
    let textColumns: [String]
    /// The columns a numeric term is compared with.
    let numberColumns: [String]

    var hasNumbers: Bool { !numberColumns.isEmpty }
}

extension Entity {
    /// The tables and columns searched for this entity.
    var searchSchema: SearchSchema {
        switch self {
        case .products:
            SearchSchema(
                table: "products", fullTextTable: "products_search", gramsTable: "products_grams",
                gramCountsTable: "products_gram_counts", textColumns: ["name_folded"],
                numberColumns: ["year_introduced", "intro_price"])
        case .phones:
            SearchSchema(
                table: "phones", fullTextTable: "phones_search", gramsTable: nil, gramCountsTable: nil,
                textColumns: ["name_folded", "maker_folded"], numberColumns: [])
        }
    }
}
