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
        Array(ProductSequence(count: count, seed: seed))
    }

    /// The products of ``products(count:seed:)``, the same in the same order, made one at a time as
    /// they are read: `catalog seed --count` stores a million without holding them. Names already
    /// made are remembered by a key of 4 bytes each (`nameKey`), not as texts.
    public struct ProductSequence: Sequence, IteratorProtocol {
        private var generator: SplitMix64
        private var seen = Set<UInt32>()
        private var remaining: Int

        /// `count` products generated from `seed`.
        public init(count: Int, seed: UInt64) {
            generator = SplitMix64(seed: seed)
            remaining = count
            seen.reserveCapacity(count)
        }

        public mutating func next() -> Product? {
            defer { if remaining == 0 { seen = [] } }  // the names are no longer needed after the last
            while remaining > 0 {
                let brand = Int.random(in: brands.indices, using: &generator)
                let model = Int.random(in: models.indices, using: &generator)
                let edition = Int.random(in: editions.indices, using: &generator)
                var name = brands[brand] + " " + models[model]
                if !editions[edition].isEmpty { name += " " + editions[edition] }
                var key = nameKey(brand: brand, model: model, edition: edition, number: 0)
                if seen.contains(key) {
                    let number = Int.random(in: 1...9_999, using: &generator)
                    name += " " + String(number)
                    key = nameKey(brand: brand, model: model, edition: edition, number: number)
                    if seen.contains(key) { continue }
                }
                seen.insert(key)
                remaining -= 1
                return Product(
                    type: ProductType.allCases.randomElement(using: &generator)!,
                    name: name,
                    yearIntroduced: Int.random(in: 1976...2025, using: &generator),
                    introPrice: Double(Int.random(in: 49...4_999, using: &generator))
                        + [0, 0.99, 0.5].randomElement(using: &generator)!)
            }
            return nil
        }
    }

    /// A name's key: equal for two names exactly when their texts are equal. Words hold no space and
    /// numbers are digits, so a name's words tell its brand, model, edition and number, except that
    /// an edition that is a number (`2`) reads as that number after no edition: both get one key.
    static func nameKey(brand: Int, model: Int, edition: Int, number: Int) -> UInt32 {
        var (edition, number) = (canonicalEditions[edition], number)
        if number == 0, let asNumber = Int(editions[edition]) { (edition, number) = (canonicalEditions[0], asNumber) }
        return UInt32(brand) << 24 | UInt32(model) << 18 | UInt32(edition) << 14 | UInt32(number)
    }

    /// Each edition's first index among ``editions`` (the same text, the same edition).
    private static let canonicalEditions = editions.map { editions.firstIndex(of: $0)! }
}
