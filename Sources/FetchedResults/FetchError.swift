/// Why a fetch request cannot be run.
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The predicate uses a construct that has no SQL translation; its name is given (`ForcedUnwrap`,
    /// `StringCaseInsensitiveCompare`…).
    case unsupportedPredicate(String)
    /// A key path in the predicate, a sort descriptor or the section key path has no column.
    case unmappedKeyPath(String)
    /// The database changed since the fetch so that rows no longer fit its sections: fetch again.
    case resultChanged
    /// The request is inconsistent (a negative limit…).
    case invalidRequest(String)

    public var description: String {
        switch self {
        case .unsupportedPredicate(let construct):
            "unsupported predicate construct \(construct): it has no SQL translation"
        case .unmappedKeyPath(let keyPath):
            "key path \(keyPath) maps to no column"
        case .resultChanged:
            "the database changed since the result was fetched; fetch again"
        case .invalidRequest(let reason):
            "invalid fetch request: \(reason)"
        }
    }
}
