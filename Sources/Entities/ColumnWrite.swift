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

/// How an attribute's writes read and set its property, chosen once, when the entity is declared: a
/// stored property of a struct at its offset in the entity (`MemoryLayout.offset(of:)`, which says
/// that reading and writing there is reading and writing through the key path), any other through
/// its key path. In the generic code that stores and imports entities, a key path applied per row
/// cost each value a metadata lookup (W1b on PostgreSQL), as decoding's did (``ColumnReads``).
enum PropertyAccess {
    /// The read of the property at `keyPath`.
    static func read<Entity, Value>(_ keyPath: KeyPath<Entity, Value> & Sendable) -> @Sendable (Entity) -> Value {
        guard let offset = MemoryLayout<Entity>.offset(of: keyPath) else { return { $0[keyPath: keyPath] } }
        return { entity in
            withUnsafePointer(to: entity) { (UnsafeRawPointer($0) + offset).assumingMemoryBound(to: Value.self).pointee }
        }
    }

    /// The write of the property at `keyPath`.
    static func write<Entity, Value>(_ keyPath: WritableKeyPath<Entity, Value> & Sendable) -> @Sendable (inout Entity, Value) -> Void {
        guard let offset = MemoryLayout<Entity>.offset(of: keyPath) else { return { $0[keyPath: keyPath] = $1 } }
        return { entity, value in
            withUnsafeMutablePointer(to: &entity) { (UnsafeMutableRawPointer($0) + offset).assumingMemoryBound(to: Value.self).pointee = value }
        }
    }
}
