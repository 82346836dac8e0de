/// A write that names a row the table does not have.
public enum EntityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The entity was never saved: it has no id to update.
    case notSaved(table: String)
    /// No row of the table has this id.
    case notFound(table: String, id: Int64)

    public var description: String {
        switch self {
        case .notSaved(let table): "the \(table) row was never saved (it has no id)"
        case .notFound(let table, let id): "no \(table) row with id \(id)"
        }
    }
}
