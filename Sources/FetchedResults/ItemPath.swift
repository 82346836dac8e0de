/// The place of a row in a sectioned result: a section and a row within it, both from 0, written
/// `section.row` (`1.3`).
///
/// The library's own index path type: Foundation's `IndexPath` on Linux has no `section` or `row`.
/// Paths order section first, then row.
public struct ItemPath: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The section, from 0.
    public var section: Int
    /// The row within the section, from 0.
    public var row: Int

    /// Creates a path.
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// Reads `section.row`, two non-negative decimal integers separated by one dot (`0.0`, `2.15`).
    ///
    /// - Throws: ``ItemPathParseError`` for anything else: `-1.0`, `1.`, `.1`, `a.b`, `1.2.3`, ` 1.2`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        func number(_ part: Substring) -> Int? {
            guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(part)
        }
        guard parts.count == 2, let section = number(parts[0]), let row = number(parts[1]) else {
            throw ItemPathParseError(text: text)
        }
        self.init(section: section, row: row)
    }

    public var description: String { "\(section).\(row)" }

    public static func < (lhs: ItemPath, rhs: ItemPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }
}

/// Text that is not an index path of the form `section.row`.
public struct ItemPathParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text that was read.
    public let text: String

    /// Creates the error for `text`.
    public init(text: String) {
        self.text = text
    }

    public var description: String {
        "invalid index path \(String(reflecting: String(text.prefix(40)))): expected section.row, such as 0.2"
    }
}
