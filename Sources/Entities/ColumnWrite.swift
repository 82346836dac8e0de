import SQLiteStore

/// Appends the values an attribute stores for an entity (its column's, then its folded column's, if
/// any) to the values of an insert or update.
///
/// A struct around the function, as ``ColumnRead`` is, so that calling it from an array needs no
/// reabstraction thunk.
@usableFromInline
struct ColumnWrite<Entity>: Sendable {
    @usableFromInline let append: @Sendable (Entity, _ fold: (String) -> String, _ values: inout [DatabaseValue]) -> Void

    init(_ append: @escaping @Sendable (Entity, _ fold: (String) -> String, _ values: inout [DatabaseValue]) -> Void) {
        self.append = append
    }
}
