import Foundation

/// The records of one seed or import file: a JSON array of products or of phones.
///
/// Objects use the records' JSON names (see ``Product`` and ``Phone``); an `id` in the file is ignored.
/// Which entity a file holds is told by its first object: products have a `type`, phones a `maker`.
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

    /// Reads a seed file from disk.
    ///
    /// - Throws: ``CatalogError/inaccessibleFile(path:reason:)`` when it cannot be read,
    ///   ``CatalogError/invalidFile(path:reason:)`` when it cannot be parsed.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            throw CatalogError.inaccessibleFile(
                path: path, reason: !exists ? "no such file" : isDirectory.boolValue ? "it is a directory" : "it cannot be read")
        }
        try self.init(data: data, path: path)
    }

    /// Parses a seed file's bytes; `path` names it in errors.
    ///
    /// - Throws: ``CatalogError/invalidFile(path:reason:)`` naming the record and field at fault.
    public init(data: Data, path: String) throws {
        guard String(data: data, encoding: .utf8) != nil else {
            throw CatalogError.invalidFile(path: path, reason: "it is not UTF-8 text")
        }
        let objects: [[String: Any]]
        do {
            guard let array = try JSONSerialization.jsonObject(with: data) as? [Any],
                  let dictionaries = array as? [[String: Any]] else {
                throw CatalogError.invalidFile(path: path, reason: "expected a JSON array of objects")
            }
            objects = dictionaries
        } catch let error as CatalogError {
            throw error
        } catch {
            throw CatalogError.invalidFile(path: path, reason: "malformed JSON")
        }
        let decoder = JSONDecoder()
        do {
            if objects.first?["maker"] != nil {
                self = .phones(try decoder.decode([Phone].self, from: data).enumerated().map { index, phone in
                    try Self.validate(phone, index, path)
                })
            } else if objects.first?["type"] != nil || objects.isEmpty {
                self = .products(try decoder.decode([Product].self, from: data).enumerated().map { index, product in
                    try Self.validate(product, index, path)
                })
            } else {
                throw CatalogError.invalidFile(path: path, reason: "records must be products (with a type) or phones (with a maker)")
            }
        } catch let error as DecodingError {
            throw CatalogError.invalidFile(path: path, reason: Self.explain(error))
        }
    }

    private static func validate<Record: CatalogRecord>(_ record: Record, _ index: Int, _ path: String) throws -> Record {
        do {
            var valid = try record.validated()
            valid.id = nil
            return valid
        } catch let error as CatalogError {
            throw CatalogError.invalidFile(path: path, reason: "record \(index + 1): \(error)")
        }
    }

    private static func explain(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            var words: [String] = []
            for key in path {
                if let index = key.intValue { words.append("record \(index + 1)") } else { words.append(key.stringValue) }
            }
            return words.joined(separator: ", ")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(place(context.codingPath)): missing field \(key.stringValue)"
        case .typeMismatch(let type, let context):
            return "\(place(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(place(context.codingPath)): expected \(type), found null"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // The text parsed as JSON already: Foundation on Linux says "not valid JSON" for a number
            // that does not fit its field, without saying which.
            return "a number does not fit its field (years are whole numbers from \(Validation.years.lowerBound) to \(Validation.years.upperBound); prices and screen sizes plain decimals from 0 to \(Int(Validation.maximumAmount)))"
        case .dataCorrupted(let context):
            return "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "unreadable records"
        }
    }
}
