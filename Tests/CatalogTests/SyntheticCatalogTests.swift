@testable import Catalog
import SeededRandom
import Testing

/// `SyntheticCatalog.ProductSequence`, which remembers names by a key, against the definition that
/// remembers the names themselves: the same products in the same order, every name unique.
struct SyntheticCatalogTests {
    /// The products as the definition makes them: a name already made gets a model number, and a
    /// numbered name already made is drawn again.
    static func reference(count: Int, seed: UInt64) -> [Product] {
        var generator = SplitMix64(seed: seed)
        var seen = Set<String>()
        var products: [Product] = []
        while products.count < count {
            var name = SyntheticCatalog.brands.randomElement(using: &generator)! + " "
                + SyntheticCatalog.models.randomElement(using: &generator)!
            let edition = SyntheticCatalog.editions.randomElement(using: &generator)!
            if !edition.isEmpty { name += " " + edition }
            if seen.contains(name) {
                name += " " + String(Int.random(in: 1...9_999, using: &generator))
                if seen.contains(name) { continue }
            }
            seen.insert(name)
            products.append(Product(
                type: ProductType.allCases.randomElement(using: &generator)!, name: name,
                yearIntroduced: Int.random(in: 1976...2025, using: &generator),
                introPrice: Double(Int.random(in: 49...4_999, using: &generator)) + [0, 0.99, 0.5].randomElement(using: &generator)!))
        }
        return products
    }

    @Test(arguments: [(UInt64(1), 60_000), (42, 30_000)])
    func theSequenceMakesTheProductsOfTheDefinition(seed: UInt64, count: Int) {
        let products = Array(SyntheticCatalog.ProductSequence(count: count, seed: seed))
        #expect(products == Self.reference(count: count, seed: seed))
        #expect(Set(products.map(\.name)).count == count)
    }
}
