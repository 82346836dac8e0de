import SQLiteStore

/// The plain ``RowSource``: a request's predicate translated to SQL, with the condition of a further
/// source (``FetchRequest/filter``) AND-ed when it has one. Its sections are counted over the
/// condition and its pages read through it; what it reads first is the further source's choice when
/// that source has no counts of its own.
struct PredicateRows<Entity: FetchableEntity>: RowSource {
    /// The predicate's condition; nil without a predicate.
    var predicate: SQLFragment?
    /// The further source, whose condition is AND-ed.
    var filter: (any RowSource<Entity>)?

    func condition(_ db: any SQLConnection) throws -> SQLFragment {
        switch (predicate, try filter?.condition(db)) {
        case (let predicate?, let filter?): predicate && filter
        case (let predicate?, nil): predicate
        case (nil, let filter?): filter
        case (nil, nil): .alwaysTrue
        }
    }

    func firstRead(_ counts: SectionMatches?, batchSize: Int) -> FirstRead {
        filter?.firstRead(nil, batchSize: batchSize) ?? .sections
    }
}
