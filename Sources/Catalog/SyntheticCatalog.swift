import SeededRandom

/// Deterministic synthetic products for large seeds, benchmarks and tests.
///
/// Names are two or three words from a vocabulary that mixes English, words with diacritics
/// (`Café`, `Crème`, `Über`) and Japanese (`携帯電話`, `東京タワー`), plus a model number when needed
/// to keep names unique. The same `seed` always gives the same products.
///
/// ```swift
/// let products = SyntheticCatalog.products(count: 1_000, seed: 42)
/// ```
public enum SyntheticCatalog {
    static let brands = [
        "Mac", "iPhone", "iPad", "Pixel", "Galaxy", "Xperia", "Lumia", "Café", "Crème", "Über", "Ñandú", "Smørrebrød",
        "Élan", "Zoë", "Åland", "Straße", "携帯電話", "東京タワー", "あいうえお", "カメラ", "ノート", "電卓", "Nova", "Astra",
        "Vertex", "Quantum", "Pulse", "Echo", "Orbit", "Prism", "Zenith", "Lumen", "Aero", "Flux", "Halo", "Nimbus",
        "Terra", "Vela", "Kite", "Onyx",
    ]
    static let models = [
        "Pro", "Air", "mini", "Max", "Plus", "Ultra", "Lite", "Touch", "Book", "Studio", "Station", "Pad", "Phone",
        "Watch", "Note", "Fold", "Flip", "Edge", "One", "Go", "Neo", "Prime", "Slim", "Core", "Duo", "Mix", "Play",
        "ライト", "ミニ", "プロ", "Délice", "Fiancé", "Naïve", "Señor", "Größe", "Jalapeño", "Touché", "Rosé",
        "Smart", "Zoom",
    ]
    static let editions = ["", "", "", "2", "3", "S", "X", "SE", "Classic", "Sport", "二", "限定版"]

    /// `count` products with unique names, generated from `seed`.
    public static func products(count: Int, seed: UInt64) -> [Product] {
        var generator = SplitMix64(seed: seed)
        var seen = Set<String>()
        seen.reserveCapacity(count)
        var products: [Product] = []
        products.reserveCapacity(count)
        let types = ProductType.allCases
        while products.count < count {
            var name = brands.randomElement(using: &generator)! + " " + models.randomElement(using: &generator)!
            let edition = editions.randomElement(using: &generator)!
            if !edition.isEmpty { name += " " + edition }
            if seen.contains(name) {
                name += " " + String(Int.random(in: 1...9_999, using: &generator))
                if seen.contains(name) { continue }
            }
            seen.insert(name)
            products.append(Product(
                type: types.randomElement(using: &generator)!,
                name: name,
                yearIntroduced: Int.random(in: 1976...2025, using: &generator),
                introPrice: Double(Int.random(in: 49...4_999, using: &generator)) + [0, 0.99, 0.5].randomElement(using: &generator)!))
        }
        return products
    }
}
