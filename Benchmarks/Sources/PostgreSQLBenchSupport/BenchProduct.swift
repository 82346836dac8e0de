import BenchmarkSupport
import Entities
import Foundation
import TextSearch

/// A product as a declared entity, for the PostgreSQL benchmarks that load and follow one
/// (pg-ingest-bench, pg-live-bench): its table logs its changes, its name is unique and folded, and
/// it is listed by type then name.
public struct DeclaredProduct: DeclaredEntity {
    public var id: Int64?
    public var type: String
    public var name: String
    public var yearIntroduced: Int
    public var introPrice: Double

    public static let declaration = EntityDeclaration<DeclaredProduct>(
        table: "products", template: DeclaredProduct(type: "", name: "", yearIntroduced: 0, introPrice: 0),
        folding: { TextFolding.fold($0) },
        attributes: [
            .text("type", \.type), .text("name", \.name, folded: true, unique: true),
            .value("yearIntroduced", \.yearIntroduced), .value("introPrice", \.introPrice),
        ],
        indexes: [EntityIndex(\.name, sectionedBy: \.type)])

    /// Writes `count` products of catalog-bench's generator (seed 1) to a CSV file at `path`, with a
    /// header of the attributes' names, as `importFile` reads it.
    public static func writeCSV(count: Int, to path: String) throws {
        func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var text = "type,name,yearIntroduced,introPrice\n"
        for product in CatalogGenerator.products(count: count, seed: 1) {
            text += "\(product.type),\(quoted(product.name)),\(product.yearIntroduced),\(product.introPrice)\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// `primary` with `schema` first in the search path.
    public static func url(_ primary: String, schema: String) -> String {
        primary + (primary.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema),public"
    }
}
