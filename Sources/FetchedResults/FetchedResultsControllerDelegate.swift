/// Told of the changes a ``FetchedResultsController`` applies, in the order of Core Data's
/// `NSFetchedResultsControllerDelegate`: will change, each section change, each row change, did change.
///
/// The calls happen inside `FetchedResultsController/applyPendingChanges()`, on the caller's thread
/// or actor, after the controller's sections and rows already show the new state (so a table view can
/// read them in ``controllerDidChangeContent(_:)``, as it does at the end of a batch update). Every
/// method has an empty default.
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// A change set is about to be reported.
    func controllerWillChangeContent()
    /// A section appeared (`isInsertion`, at its new index) or disappeared (at its old index).
    func controllerDidChangeSection(_ section: ChangeSet.SectionChange, isInsertion: Bool)
    /// A row was inserted, deleted, moved or updated.
    func controllerDidChangeObject(_ change: ChangeSet.Change)
    /// The change set has been reported; it holds every change above.
    func controllerDidChangeContent(_ changeSet: ChangeSet)
}

// Empty defaults, so that a delegate implements only what it needs.
extension FetchedResultsControllerDelegate {
    public func controllerWillChangeContent() {}
    public func controllerDidChangeSection(_ section: ChangeSet.SectionChange, isInsertion: Bool) {}
    public func controllerDidChangeObject(_ change: ChangeSet.Change) {}
    public func controllerDidChangeContent(_ changeSet: ChangeSet) {}
}
