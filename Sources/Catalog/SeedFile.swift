import Foundation
import RecordFormats

/// The records of one seed or import file: a JSON array of products or of phones.
///
/// Objects use the records' JSON names (see ``Product`` and ``Phone``); an `id` in the file is ignored.
/// Which entity a file holds is told by its first object's fields: phones have a `maker`. Files of
/// any size, in any `DataFormat`, are read as they are stored through ``SeedSource``.
public enum SeedFile: Sendable, Equatable {
    case products([Product])
    case phones([Phone])

    /// The entity the file holds.
    public var entity: Entity {
        switch self {
        case .products: .products
        case .phones: .phones
        }
    }

    /// The number of records in the file.
    public var count: Int {
        switch self {
        case .products(let products): products.count
        case .phones(let phones): phones.count
        }
    }

    /// The seeds built into the library from the package's `Seeds/` folder: the nine products of
    /// Apple's sample and a list of real phones.
    public static var builtIn: [SeedFile] {
        EmbeddedFiles.seeds.map { file in
            do { return try SeedFile(data: Data(file.text.utf8), path: file.name) } catch { fatalError("\(error)") }
        }
    }

    /// Reads a seed file from disk, in the format its extension names (JSON when it names none).
    ///
    /// - Throws: ``CatalogError/inaccessibleFile(path:reason:)`` when it cannot be read,
    ///   ``CatalogError/invalidFile(path:reason:)`` when it cannot be parsed.
    public init(contentsOf path: String) throws {
        try self.init(SeedSource(path: path, format: DataFormat(fileName: path) ?? .json, entity: nil))
    }

    /// Parses a seed file's bytes, a JSON array; `path` names it in errors.
    ///
    /// - Throws: ``CatalogError/invalidFile(path:reason:)`` naming the line, column and field at fault.
    public init(data: Data, path: String) throws {
        try self.init(SeedSource(name: path, input: ByteInput(bytes: [UInt8](data)), format: .json, entity: nil))
    }

    /// All the records of `source`, in memory.
    private init(_ source: SeedSource) throws {
        let collected = CollectedRecords()
        try source.feed(collected)
        self = source.entity == .phones ? .phones(collected.phones) : .products(collected.products)
    }
}

/// Records gathered in memory.
private final class CollectedRecords: SeedSink {
    var products: [Product] = []
    var phones: [Phone] = []

    func add<Record: CatalogRecord>(_ record: Record) throws {
        if let product = record as? Product { products.append(product) }
        if let phone = record as? Phone { phones.append(phone) }
    }
}
