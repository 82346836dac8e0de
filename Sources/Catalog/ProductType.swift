import SQLiteStore
import TextSearch

/// The kind of a product, as in Apple's UISearchBar samples: also the search scopes and the list's sections.
public enum ProductType: String, CaseIterable, Codable, Sendable, DatabaseValueConvertible {
    case device
    case desktop
    case portable

    /// The type stored as `rawValue`, if any.
    ///
    /// Written out, rather than synthesized: the synthesized one looks the text up in a table of the
    /// case names (`_findStringSwitchCase`), a cost on every row read (W2); comparing with each literal
    /// is a compare of two small strings.
    public init?(rawValue: String) {
        switch rawValue {
        case "device": self = .device
        case "desktop": self = .desktop
        case "portable": self = .portable
        default: return nil
        }
    }

    /// Reads a type from JSON: one of the raw values.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the allowed values, for a seed or import file's
    ///   error line.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let type = ProductType(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected one of \(Self.allCases.map(\.rawValue).joined(separator: ", ")), not \(String(reflecting: String(text.prefix(40))))")
        }
        self = type
    }

    /// The title shown for the type: a section name or a scope button.
    public var title: String {
        switch self {
        case .device: "Device"
        case .desktop: "Desktop"
        case .portable: "Portable"
        }
    }

    /// Reads a type as a user types it: any case, singular (`Device`, `desktop`, `PORTABLE`).
    ///
    /// - Throws: ``CatalogError/invalidValue(field:value:reason:)`` naming the valid types.
    public init(parsing text: String) throws {
        let folded = TextFolding.fold(text.trimming(.spaces))
        guard let type = ProductType(rawValue: folded) else {
            throw CatalogError.invalidValue(
                field: "type", value: text,
                reason: "expected one of " + ProductType.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = type
    }
}
