import FetchedResults
import RecordFormats

extension EntityDeclaration {
    /// The values of a declaration, held by reference.
    ///
    /// Each `Entity(row:)` reads its type's declaration through the `DeclaredEntity` protocol, whose
    /// getter returns a copy; as a struct of nine fields (arrays, strings, closures), each copy retained
    /// and released each of their objects, once per row decoded, and those objects are shared by every
    /// thread decoding that entity, so concurrent readers took turns at those reference counts (W8's
    /// fetch in Benchmarks/README.md). Held by one object, a copy is one retain.
    @usableFromInline
    final class Storage: Sendable {
        let table: String
        @usableFromInline let template: Entity
        let attributes: [EntityAttribute<Entity>]
        @usableFromInline let folding: @Sendable (String) -> String
        @usableFromInline let storedColumns: [String]
        let selection: String
        /// Each attribute's read (``ColumnReads``), in order: decoding calls these without copying the
        /// attributes (each copy of an `EntityAttribute` retains all its closures).
        @usableFromInline let reads: [ColumnRead]
        /// Each attribute's write (``ColumnWrite``), in order, for the same reason.
        @usableFromInline let writes: [ColumnWrite<Entity>]
        let recordLayout: RecordLayout<Entity>
        let indexes: [EntityIndex<Entity>]
        let tracksChanges: Bool

        init(
            table: String, template: Entity, attributes: [EntityAttribute<Entity>],
            folding: @escaping @Sendable (String) -> String, storedColumns: [String], selection: String,
            reads: [ColumnRead], writes: [ColumnWrite<Entity>], recordLayout: RecordLayout<Entity>,
            indexes: [EntityIndex<Entity>], tracksChanges: Bool
        ) {
            self.table = table
            self.template = template
            self.attributes = attributes
            self.folding = folding
            self.storedColumns = storedColumns
            self.selection = selection
            self.reads = reads
            self.writes = writes
            self.recordLayout = recordLayout
            self.indexes = indexes
            self.tracksChanges = tracksChanges
        }
    }
}
