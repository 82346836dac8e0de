/// The tables and columns a search of an entity uses.
struct SearchSchema {
    /// The entity's table.
    let table: String
    /// Its FTS5 trigram index over the folded text columns.
    let fullTextTable: String
    /// Its table of name suffixes (`suffix`, `id`), each cut to ``suffixLength`` characters, if it has one.
    let suffixesTable: String?
    /// Its table of rows per 1- or 2-character gram and type, if it has one.
    let gramCountsTable: String?
    /// The folded columns a term is looked for in.
    let textColumns: [String]
    /// The columns a numeric term is compared with.
    let numberColumns: [String]

    var hasNumbers: Bool { !numberColumns.isEmpty }

    /// The length, in Unicode scalars, at which migration 0002 cuts the suffixes of `products_suffixes`:
    /// terms up to this long are answered by the index alone.
    static let suffixLength = 8
}

extension Entity {
    /// The tables and columns searched for this entity.
    var searchSchema: SearchSchema {
        switch self {
        case .products:
            SearchSchema(
                table: "products", fullTextTable: "products_search", suffixesTable: "products_suffixes",
                gramCountsTable: "products_gram_counts", textColumns: ["name_folded"],
                numberColumns: ["year_introduced", "intro_price"])
        case .phones:
            SearchSchema(
                table: "phones", fullTextTable: "phones_search", suffixesTable: nil, gramCountsTable: nil,
                textColumns: ["name_folded", "maker_folded"], numberColumns: [])
        }
    }
}
