import SQLiteStore

/// Sets one attribute of the entity being decoded from the column at `index` of `row`.
///
/// A struct around the function, not the function type itself: an array of function values stores them
/// at their most general abstraction, so that each call went through a reabstraction thunk.
///
/// The attribute's offset is passed to the function rather than captured by it, so that the read of a
/// stored property captures nothing: a closure without captures has no context object, and calling one
/// touches no reference count. With the offset captured, each call retained and released the context,
/// one object shared by every thread decoding that entity, and a pool's readers decoding rows at once
/// contended for it (W8's fetch; see ``EntityDeclaration`` for the other part).
@usableFromInline
struct ColumnRead: Sendable {
    /// Where the attribute lies in the entity, in bytes from its start: what decoding adds to the
    /// entity's address before it calls ``read``; 0 for a read through a key path, which sets the
    /// attribute on the entity at that address.
    @usableFromInline let offset: Int
    /// Sets the attribute at `target` (the entity's address plus ``offset``).
    @usableFromInline let read: @Sendable (_ target: UnsafeMutableRawPointer, Row, _ index: Int) throws -> Void

    @inlinable
    init(offset: Int, _ read: @escaping @Sendable (_ target: UnsafeMutableRawPointer, Row, _ index: Int) throws -> Void) {
        self.offset = offset
        self.read = read
    }
}

/// How decoding sets an attribute from its column, chosen once, when the entity is declared.
///
/// A stored property of a struct (every attribute of a value-type entity) is written in place, at its
/// offset in the entity (`MemoryLayout.offset(of:)`, which says that writing there is writing through
/// the key path), with its column read by its static type: no key path is applied per row, and for the
/// library's column types (`String`, `Int`, `Int64`, `Double`, `Bool` and their optionals) no generic
/// code runs, where a key path cost every column a reabstraction and a metadata lookup (W2).
/// Any other property (a class's, a computed one) is set through its key path.
@usableFromInline
enum ColumnReads {
    /// The read of the property at `keyPath`.
    ///
    /// Inlinable, so that `EntityAttribute.value` specializes it where the entity is declared: a value of
    /// another type is then read without generic metadata lookups per row, and an enumeration with a
    /// raw value of a column type reads its raw value straight from the column
    /// (`DatabaseValueConvertible.fromColumn(of:at:)`). The reads
    /// are returned straight, not through `??` (a function value in a generic `Optional` is called
    /// through two reabstraction thunks).
    @inlinable
    static func read<Entity, Value: DatabaseValueConvertible>(_ keyPath: WritableKeyPath<Entity, Value> & Sendable) -> ColumnRead {
        guard let offset = MemoryLayout<Entity>.offset(of: keyPath) else {
            return ColumnRead(offset: 0) { entity, row, index in
                entity.assumingMemoryBound(to: Entity.self).pointee[keyPath: keyPath] = try row.decode(Value.self, at: index)
            }
        }
        if Value.self == String.self { return storedColumn(String.self, at: offset) }
        if Value.self == Int64.self { return storedColumn(Int64.self, at: offset) }
        if Value.self == Int.self { return storedColumn(Int.self, at: offset) }
        if Value.self == Double.self { return storedColumn(Double.self, at: offset) }
        if Value.self == Bool.self { return storedColumn(Bool.self, at: offset) }
        if Value.self == String?.self { return storedColumn(String?.self, at: offset) }
        if Value.self == Int64?.self { return storedColumn(Int64?.self, at: offset) }
        if Value.self == Int?.self { return storedColumn(Int?.self, at: offset) }
        if Value.self == Double?.self { return storedColumn(Double?.self, at: offset) }
        if Value.self == Bool?.self { return storedColumn(Bool?.self, at: offset) }
        // Asked of `StatementColumnConvertible` alone first: the cast to both protocols looks up both
        // conformances, and the first lookup of each scans every conformance record of the static
        // binary, one scan saved for a value that is not read straight from its column (an enumeration).
        if Value.self is any StatementColumnConvertible.Type,
           let direct = Value.self as? any (DatabaseValueConvertible & StatementColumnConvertible).Type {
            return storedColumn(direct, at: offset)
        }
        return ColumnRead(offset: offset) { attribute, row, index in
            attribute.assumingMemoryBound(to: Value.self).pointee = try row.decode(Value.self, at: index)
        }
    }

    /// The read of a stored property of type `Column` at `offset`, straight from the statement's column.
    @inlinable
    static func storedColumn<Column: DatabaseValueConvertible & StatementColumnConvertible>(
        _ column: Column.Type, at offset: Int
    ) -> ColumnRead {
        ColumnRead(offset: offset) { attribute, row, index in
            attribute.assumingMemoryBound(to: Column.self).pointee = try row.decode(Column.self, at: index)
        }
    }
}
