/// `count` followed by its noun, singular for 1 and plural otherwise: `1 product`, `0 products`,
/// `2 new phones`.
///
/// ```swift
/// counted(1, "product", "products")           // "1 product"
/// counted(42, "new phone", "new phones")      // "42 new phones"
/// ```
func counted(_ count: Int, _ singular: String, _ plural: String, shownAs shown: String? = nil) -> String {
    "\(shown ?? String(count)) \(count == 1 ? singular : plural)"
}
