import FetchedResults
import RecordFormats
import SQLiteStore
import TextSearch

/// An entity declared once: its table, the record reading starts from, and its attributes.
///
/// ```swift
/// extension Film: DeclaredEntity {
///     static let declaration = EntityDeclaration<Film>(
///         table: "films", template: Film(title: "", director: "", year: 0), folding: TextFolding.fold,
///         attributes: [
///             .text("title", \.title, folded: true, searched: true, sections: .initial, check: Film.checkTitle),
///             .text("director", \.director, folded: true, searched: true, sections: .initial),
///             .value("year", \.year, searchedAsNumber: true),
///         ])
/// }
/// ```
///
/// Everything else is derived from it: the table itself (``EntityTable``, created by the first
/// migration of the embedder's set), the SQL of insert, update and delete, decoding, the columns of
/// `#Predicate`, sort descriptors and section key paths, the search columns, the change-tracking
/// triggers, and the fields of tables and files. The table has an `INTEGER PRIMARY KEY` column
/// `id`, the attributes' columns, and a `<column>_folded` column for each folded text attribute.
public struct EntityDeclaration<Entity: DeclaredEntity>: Sendable {
    /// What the declaration holds, in one object, so that a copy of the declaration is one reference:
    /// see ``Storage``.
    @usableFromInline let storage: Storage

    /// The table holding the entities.
    public var table: String { storage.table }
    /// The entity that decoding starts from before it sets each attribute.
    public var template: Entity { storage.template }
    /// The attributes, in the order tables and files show them.
    public var attributes: [EntityAttribute<Entity>] { storage.attributes }
    /// How folded columns are computed from text: the same function a search folds its terms with.
    public var folding: @Sendable (String) -> String { storage.folding }
    /// The stored columns after `id`, in the order of ``storedValues(of:)``.
    public var storedColumns: [String] { storage.storedColumns }
    /// `id` and each attribute's column, in order: the columns a row is decoded from (not the folded
    /// columns, which decoding does not read: each column selected is a step of SQLite's per row).
    public var selection: String { storage.selection }
    /// The fields of seed, import and export files: `id` (optional), then each attribute's name, in
    /// order; each value read is checked as the attribute's check says.
    public var recordLayout: RecordLayout<Entity> { storage.recordLayout }
    /// The indexes of the table besides those of its `UNIQUE` attributes.
    public var indexes: [EntityIndex<Entity>] { storage.indexes }
    /// Whether the table's row events are logged for live fetched results (`ChangeLog`).
    public var tracksChanges: Bool { storage.tracksChanges }

    /// Declares an entity.
    ///
    /// - Parameters:
    ///   - table: the table holding the entities.
    ///   - template: the entity decoding starts from; every attribute is then set from the row.
    ///   - folding: how folded columns are computed from text.
    ///   - attributes: the stored properties other than `id`, with distinct names and columns.
    ///   - indexes: the table's indexes besides its `UNIQUE` attributes' (``EntityIndex``).
    ///   - tracksChanges: whether the generated table logs its row events for live fetched results.
    public init(
        table: String, template: Entity, folding: @escaping @Sendable (String) -> String,
        attributes: [EntityAttribute<Entity>], indexes: [EntityIndex<Entity>] = [], tracksChanges: Bool = true
    ) {
        // One loop, not `map`, `flatMap` and key paths: unspecialized for a generic `Entity`, those
        // build key paths and run generic algorithms in every process that reads an entity (W7).
        var names: Set<String> = []
        var storedColumns: [String] = []
        var selection = "id"
        var reads: [ColumnRead] = []
        var writes: [ColumnWrite<Entity>] = []
        var fields: [RecordField<Entity>] = [.optionalInteger("id", \Entity.id)]
        for attribute in attributes {
            precondition(names.insert(attribute.name).inserted, "two attributes of \(table) have the same name")
            storedColumns.append(contentsOf: attribute.storedColumns)
            selection += ", " + SQLText.identifier(attribute.column)
            reads.append(attribute.read)
            writes.append(attribute.write)
            fields.append(attribute.fileField(template))
        }
        precondition(Set(storedColumns).count == storedColumns.count, "two attributes of \(table) have the same column")
        storage = Storage(
            table: table, template: template, attributes: attributes, folding: folding, storedColumns: storedColumns,
            selection: selection, reads: reads, writes: writes,
            recordLayout: RecordLayout(template: template, fields: fields), indexes: indexes, tracksChanges: tracksChanges)
    }

    /// The attribute of a key path, if it is one.
    public func attribute(for keyPath: PartialKeyPath<Entity>) -> EntityAttribute<Entity>? {
        // A loop, not `first(where:)`, which, unspecialized for a generic `Entity`, resolves its
        // iterator's type at run time (W7).
        for attribute in attributes where attribute.keyPath == keyPath { return attribute }
        return nil
    }

    /// How predicates, sort descriptors and sections read `keyPath` in SQL: the id, or an attribute.
    func column(for keyPath: PartialKeyPath<Entity>) -> EntityColumn? {
        if let attribute = attribute(for: keyPath) { return attribute.entityColumn }
        return isIDKeyPath(keyPath) ? EntityColumn("id", canBeNull: false) : nil
    }

    /// Whether `keyPath` is the entity's `id`. A concrete key path (`\Film.id`, as `#Predicate` and
    /// sort descriptors write it) is not equal to the protocol's `\Entity.id`, so it is told by what it
    /// does: writing through it sets the id.
    private func isIDKeyPath(_ keyPath: PartialKeyPath<Entity>) -> Bool {
        if keyPath == \Entity.id { return true }
        guard let writable = keyPath as? WritableKeyPath<Entity, Int64?> else { return false }
        var probe = template
        probe.id = nil
        probe[keyPath: writable] = .min
        return probe.id == .min
    }

    /// The attribute with this name, if any.
    public func attribute(named name: String) -> EntityAttribute<Entity>? {
        attributes.first { $0.name == name }
    }

    // MARK: - Values

    /// The values of ``storedColumns`` for `entity`, folded columns computed.
    ///
    /// Inlinable, so that it is specialized where the entity is declared: each row of a bulk insert
    /// computes its values without generic code and into one array, not through an unspecialized
    /// `flatMap` of an array per attribute (W1b).
    @inlinable
    public func storedValues(of entity: Entity) -> [DatabaseValue] {
        var values: [DatabaseValue] = []
        let writes = storage.writes
        values.reserveCapacity(storage.storedColumns.count)
        for index in 0..<writes.count {
            writes[index].append(entity, storage.folding, &values)
        }
        return values
    }

    /// Reads an entity from a row of `SELECT <selection> FROM <table>`.
    @inlinable  // specialized for the entity where it is declared: W2's rows are decoded without generic metadata lookups
    public func decode(_ row: Row) throws -> Entity {
        var entity = storage.template
        entity.id = try row.decode(Int64.self, at: 0)
        // Each read writes its attribute in place at the entity's address (see `ColumnReads`), from the
        // column after `id` at the attribute's place. An index loop, not `enumerated()`: in
        // unspecialized generic code each row's sequence looks up the metadata of its iterator and
        // element tuple (W2).
        try withUnsafeMutablePointer(to: &entity) { pointer in
            let address = UnsafeMutableRawPointer(pointer)
            for index in 0..<storage.reads.count {
                let read = storage.reads[index]
                try read.read(address + read.offset, row, index + 1)
            }
        }
        return entity
    }

    /// `entity` with each attribute checked (and normalised) in order.
    ///
    /// - Throws: what the first refusing attribute's check throws.
    public func validated(_ entity: Entity) throws -> Entity {
        var entity = entity
        for attribute in attributes { try attribute.check(&entity) }
        return entity
    }

    // MARK: - Search and tracking

    /// The folded columns a search's terms are looked for in.
    ///
    /// Collected in a loop, as are ``searchedNumberColumns``: `filter` and `compactMap`, unspecialized
    /// for a generic `Entity`, resolve their iterator's type at run time (W7).
    public var searchedTextColumns: [String] {
        var columns: [String] = []
        for attribute in attributes where attribute.isSearchedText {
            if let folded = attribute.foldedColumn { columns.append(folded) }
        }
        return columns
    }

    /// The columns a search's numeric terms are compared with.
    public var searchedNumberColumns: [String] {
        var columns: [String] = []
        for attribute in attributes where attribute.isSearchedAsNumber { columns.append(attribute.column) }
        return columns
    }

    /// The search of the table: terms looked for in ``searchedTextColumns``, numbers compared with
    /// ``searchedNumberColumns``.
    ///
    /// ```swift
    /// static let searchDescription = Film.declaration.searchDescription(indexesShortTerms: false)
    /// try db.execute(sql: Film.searchDescription.installSQL)   // in a migration
    /// ```
    ///
    /// - Parameters:
    ///   - scope: the attribute a search may be restricted to one value of (a product's type).
    ///   - listIndex: the index `(scope column, first searched column, id)` a list in its default order
    ///     walks, if the table has one.
    ///   - indexesShortTerms: whether terms of 1-2 characters have their own index; false for the
    ///     trigram index alone (a small table: short terms are checked row by row).
    ///   - scopeValues: the scope's TEXT values the trigram index tells apart (`SearchDescription`'s
    ///     `scopeValues`: a term's count per value without reading rows); empty for none.
    ///   - accelerators: the optional structures kept beside the two exact indexes (`SearchAccelerator`s);
    ///     none by default.
    public func searchDescription(
        scope: PartialKeyPath<Entity>? = nil, listIndex: String? = nil, indexesShortTerms: Bool = true,
        scopeValues: [String] = [], accelerators: [any SearchAccelerator] = []
    ) -> SearchDescription {
        let scopeColumn = scope.map { keyPath in
            guard let attribute = attribute(for: keyPath) else { preconditionFailure("the scope of \(table) is not an attribute") }
            return attribute.column
        }
        return SearchDescription(
            table: table, textColumns: searchedTextColumns, numberColumns: searchedNumberColumns,
            scopeColumn: scopeColumn, listIndex: listIndex, indexesShortTerms: indexesShortTerms,
            scopeValues: scopeValues, accelerators: accelerators)
    }

    /// The triggers that log the table's row events for live fetched results: what
    /// `ChangeLog.installTracking(forTable:_:)` installs (with the log, if missing), and what the
    /// table generated from the declaration includes (``EntityTable``, when ``tracksChanges``).
    public var trackingSQL: String { ChangeLog.trackingSQL(forTable: table) }

    // MARK: - SQL

    /// `INSERT INTO <table>(<storedColumns>) VALUES (?, …)`, bound with ``storedValues(of:)``; with
    /// `ON CONFLICT DO NOTHING` when `skippingConflicts` (a row that breaks a uniqueness constraint is
    /// not written; any other constraint still fails). With `withID`, the `id` column comes first,
    /// bound before the stored values (a row that keeps a given id).
    public func insertSQL(withID: Bool = false, skippingConflicts: Bool = false) -> String {
        let columns = (withID ? ["id"] : []) + storedColumns
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        return "INSERT INTO \(table)(\(columns.map(SQLText.identifier).joined(separator: ", "))) VALUES (\(placeholders))"
            + (skippingConflicts ? " ON CONFLICT DO NOTHING" : "")
    }

    /// `UPDATE <table> SET <column> = ?, … WHERE <column> = ?`, bound with ``storedValues(of:)`` then
    /// the key: by default the id.
    public func updateSQL(whereColumn key: String = "id") -> String {
        "UPDATE \(table) SET \(storedColumns.map { "\(SQLText.identifier($0)) = ?" }.joined(separator: ", ")) WHERE \(SQLText.identifier(key)) = ?"
    }
}
