/// A write that names a row the table does not have, or asks what an engine cannot do yet.
public enum EntityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The entity was never saved: it has no id to update.
    case notSaved(table: String)
    /// No row of the table has this id.
    case notFound(table: String, id: Int64)
    /// What is named (a declared entity's search) runs on SQLite only, not yet on PostgreSQL.
    case notOnPostgreSQL(String)

    public var description: String {
        switch self {
        case .notSaved(let table): "the \(table) row was never saved (it has no id)"
        case .notFound(let table, let id): "no \(table) row with id \(id)"
        case .notOnPostgreSQL(let what): "\(what) is not yet on PostgreSQL (it runs on SQLite files only)"
        }
    }
}
