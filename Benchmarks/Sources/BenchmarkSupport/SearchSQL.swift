/// W3's SQL for raw C and GRDB: the store's search semantics, written by hand over the same schema.
///
/// The store's rules (`SearchQuery` in `Sources/Catalog`): the text is split on white space into terms
/// (duplicates dropped); every term must match; a term matches a product whose folded name contains it,
/// and a term that reads as a number (`2000`, `599.5`) also matches a product whose year or price equals
/// it. A contender that ran the search text as one FTS5 phrase would find other rows for `air pro`
/// (phrase vs. two terms) and for `2000` (a year), so raw C and GRDB run this instead:
///
/// - the terms of 3+ characters that are not numbers, together, in the trigram index
///   (`products_search MATCH '"t1" AND "t2"'`, exact on folded names since migration 0002);
/// - every other term checked on each row: `instr(name_folded, ?) > 0`, `OR year_introduced = ? OR
///   intro_price = ?` for a number. With no 3+ character term, that is a scan of the table.
///
/// It uses none of the store's own search structures (short-gram tables, gram counts, ordered scans):
/// it is what a hand-written program does with the trigram index the schema has.
public struct SearchSQL: Sendable {
    /// A value bound to a `?` of ``pageSQL`` and ``countSQL`` (both take the same arguments).
    public enum Argument: Sendable, Hashable {
        case text(String)
        case real(Double)
    }

    /// The first page of 50 in list order.
    public var pageSQL: String
    /// The total count.
    public var countSQL: String
    public var arguments: [Argument]

    /// The SQL for a search text (already folded by the runner; each term is folded again, as the
    /// store does, which changes nothing).
    public init(searching text: String) {
        var seen = Set<String>()
        let terms = text.unicodeScalars
            .split(whereSeparator: { $0.properties.isWhitespace })
            .map { Folding.fold(String(String.UnicodeScalarView($0))) }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
        let indexed = terms.filter { $0.unicodeScalars.count >= 3 && Self.number(in: $0) == nil }
        let checked = terms.filter { $0.unicodeScalars.count < 3 || Self.number(in: $0) != nil }

        var conditions: [String] = []
        var arguments: [Argument] = []
        if !indexed.isEmpty {
            // The store's trigram index carries the type above an id's 48 bits (migration 8); on a
            // plain index (ids below 2⁴⁸) the mask changes nothing.
            conditions.append("id IN (SELECT rowid & 281474976710655 FROM products_search WHERE products_search MATCH ?)")
            arguments.append(.text(indexed.map(Folding.ftsPhrase).joined(separator: " AND ")))
        }
        for term in checked {
            if let number = Self.number(in: term) {
                conditions.append("(instr(name_folded, ?) > 0 OR year_introduced = ? OR intro_price = ?)")
                arguments += [.text(term), .real(number), .real(number)]
            } else {
                conditions.append("instr(name_folded, ?) > 0")
                arguments.append(.text(term))
            }
        }
        let condition = conditions.isEmpty ? "1" : conditions.joined(separator: " AND ")
        pageSQL = "SELECT \(BenchSQL.productColumns) FROM products WHERE \(condition) ORDER BY \(BenchSQL.listOrder) LIMIT 50"
        countSQL = checked.isEmpty && !indexed.isEmpty
            ? "SELECT count(*) FROM products_search WHERE products_search MATCH ?"
            : "SELECT count(*) FROM products WHERE \(condition)"
        self.arguments = arguments
    }

    /// The store's reading of a folded term as a number: ASCII digits, at most one dot, a digit first,
    /// at most 40 characters, finite.
    static func number(in folded: String) -> Double? {
        let scalars = folded.unicodeScalars
        guard let first = scalars.first, ("0"..."9").contains(first), scalars.count <= 40 else { return nil }
        var dots = 0
        for scalar in scalars {
            if scalar == "." { dots += 1 } else if !("0"..."9").contains(scalar) { return nil }
        }
        guard dots <= 1, let value = Double(folded), value.isFinite else { return nil }
        return value
    }
}
