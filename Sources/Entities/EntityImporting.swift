/// What stores one entity's imported records in the caller's transaction: ``EntityImporter`` (a bulk
/// insert on SQLite) or ``EntityCopyImporter`` (another engine's bulk load). ``EntityFiles`` stores
/// every source's records through one of these per entity.
public protocol EntityImporting<Entity>: AnyObject {
    /// The entity whose records it stores.
    associatedtype Entity: DeclaredEntity
    /// What was stored so far.
    var report: ImportReport { get }
    /// Stores one record (checked already), read from `source` (nil: given directly), which names it
    /// in an error found only when the rows held back are stored.
    func add(_ record: Entity, from source: EntitySource?) throws
    /// Inserts the new rows held back so far (to be inserted in bulk): before records of another
    /// entity that refer to them are stored, and at the end.
    func insertPending() throws
    /// Stops what runs for the import (a bulk load on a thread of its own) once the import failed,
    /// before the caller rolls back its transaction.
    func abandon()
}

extension EntityImporting {
    /// Nothing runs for the import.
    public func abandon() {}
}
