import SeededRandom

/// Deterministic synthetic catalogs: product-like names of two or three words from a vocabulary that
/// mixes English, words with diacritics and Japanese words.
public enum CatalogGenerator {
    /// The product types, in the list's section order.
    public static let types = ["device", "desktop", "portable"]

    /// `count` products with unique names; the same `count` and `seed` always give the same catalog,
    /// and a smaller catalog is not a prefix of a larger one (so no workload benefits from another's cache).
    public static func products(count: Int, seed: UInt64) -> [SyntheticProduct] {
        var random = SplitMix64(seed: seed)
        var names = Set<String>(minimumCapacity: count)
        var products: [SyntheticProduct] = []
        products.reserveCapacity(count)
        let words = Vocabulary.words
        while products.count < count {
            let wordCount = Int.random(in: 0..<4, using: &random) == 0 ? 2 : 3
            var name = words[Int.random(in: 0..<words.count, using: &random)]
            for _ in 1..<wordCount { name += " " + words[Int.random(in: 0..<words.count, using: &random)] }
            // Names are unique in the schema; so are their folded forms in practice ("Cafe X" and
            // "Café X" may both exist, as in a real catalog).
            guard names.insert(name).inserted else { continue }
            products.append(SyntheticProduct(
                type: types[Int.random(in: 0..<types.count, using: &random)],
                name: name,
                yearIntroduced: Int.random(in: 1980...2025, using: &random),
                introPrice: Double(Int.random(in: 1_900...499_900, using: &random)) / 100))
        }
        return products
    }
}

/// The words product names are made of.
public enum Vocabulary {
    public static let words: [String] = english + accented + japanese + models

    static let english = [
        "Air", "Pro", "Max", "Mini", "Studio", "Book", "Phone", "Pad", "Watch", "Vision", "Station", "Plus",
        "Ultra", "Lite", "Go", "Home", "Pod", "Display", "Mac", "Cube", "Tower", "Touch", "Nano", "Shuffle",
        "Classic", "Edge", "Note", "Slim", "Flex", "Core", "Prime", "Turbo", "Sonic", "Nova", "Orbit", "Pixel",
        "Quantum", "Vertex", "Zen", "Echo", "Spark", "Pulse", "Wave", "Beam", "Drive", "Link", "Dock", "Hub",
        "Cinema", "Keyboard", "Mouse", "Speaker", "Camera", "Tablet", "Laptop", "Server", "Router", "Monitor",
        "Stylus", "Charger", "Cable", "Adapter", "Sensor", "Remote", "Console", "Player", "Recorder", "Scanner",
        "Printer", "Projector", "Headset", "Earbuds", "Tracker", "Compass", "Lens", "Flash", "Battery", "Panel",
        "Silver", "Graphite", "Midnight", "Starlight", "Coral", "Indigo", "Crimson", "Amber", "Jade", "Onyx",
    ]
    static let accented = [
        "Café", "Crème", "Über", "Brûlée", "Façade", "Naïve", "Smörgås", "Ångström", "Zoë", "Señor",
        "Jalapeño", "Müller", "Königs", "Øre", "Ćevap", "Déjà", "Fiancée", "Piñata", "Rosé", "Soirée",
        "Élan", "Garçon", "Mañana", "Straße", "Ölberg", "Tête", "Coöp", "Résumé", "Entrée", "Doppelgänger",
    ]
    static let japanese = [
        "あいうえお", "携帯電話", "東京タワー", "カメラ", "ノート", "時計", "電子辞書", "ラジオ", "テレビ", "スマホ",
        "充電器", "イヤホン", "富士山", "さくら", "ゲーム機", "掃除機", "冷蔵庫", "炊飯器", "扇風機", "電卓",
    ]
    static let models = [
        "2", "3", "4", "5", "7", "X", "S", "SE", "XL", "XS", "II", "III", "12", "15", "64", "128", "500", "2000",
        "M1", "M2", "A7", "G5", "Z10", "K9",
    ]
}
