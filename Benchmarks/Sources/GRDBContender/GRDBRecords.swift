import BenchmarkSupport
import GRDB

/// A product read with a hand-written `init(row:)`: GRDB's fast path.
struct GRDBProduct: FetchableRecord {
    var id: Int64
    var type: String
    var name: String
    var yearIntroduced: Int
    var introPrice: Double

    init(row: Row) throws {
        id = row[0]
        type = row[1]
        name = row[2]
        yearIntroduced = row[3]
        introPrice = row[4]
    }

    var bench: BenchProduct {
        BenchProduct(id: id, type: type, name: name, yearIntroduced: yearIntroduced, introPrice: introPrice)
    }
}

/// The same product read through `Decodable`: what most GRDB apps write.
struct GRDBCodableProduct: Codable, FetchableRecord {
    var id: Int64
    var type: String
    var name: String
    var yearIntroduced: Int
    var introPrice: Double

    enum CodingKeys: String, CodingKey {
        case id, type, name
        case yearIntroduced = "year_introduced"
        case introPrice = "intro_price"
    }
}

/// A new product written through `PersistableRecord`, `name_folded` included.
struct GRDBNewProduct: PersistableRecord {
    static let databaseTableName = "products"
    var product: SyntheticProduct

    func encode(to container: inout PersistenceContainer) {
        container["type"] = product.type
        container["name"] = product.name
        container["name_folded"] = Folding.fold(product.name)
        container["year_introduced"] = product.yearIntroduced
        container["intro_price"] = product.introPrice
    }
}
