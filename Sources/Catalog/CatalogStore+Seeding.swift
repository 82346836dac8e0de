import SQLiteStore

/// What a seed or import added.
public struct SeedReport: Sendable, Equatable, Codable {
    /// Products added.
    public var productsInserted = 0
    /// Phones added.
    public var phonesInserted = 0
    /// Records skipped because a record with the same name was already there.
    public var skipped = 0
    /// Existing records (same name) whose fields were replaced, when importing with ``SeedConflictPolicy/update``.
    public var updated = 0

    /// An empty report.
    public init() {}
}

/// What a seed or import does with a record whose name is already taken.
public enum SeedConflictPolicy: Sendable {
    /// Keep the stored record (seeding: running it twice adds nothing).
    case skip
    /// Replace the stored record's fields with the file's (importing).
    case update
}

extension CatalogStore {
    /// Adds the records of the files in one transaction, skipping records whose name is already taken,
    /// so that seeding twice adds nothing the second time.
    ///
    /// ```swift
    /// let report = try store.seed(SeedFile.builtIn)  // 9 products, 42 phones
    /// ```
    ///
    /// - Parameters:
    ///   - files: the seed files, saved in order.
    ///   - conflicts: what to do with a record whose name is taken: skip it (default) or update it.
    ///   - progress: called with (records done, records in all) every 1,000 records and at the end.
    /// - Throws: `DatabaseError`; nothing is added then.
    @discardableResult
    public func seed(
        _ files: [SeedFile], conflicts: SeedConflictPolicy = .skip, progress: ((Int, Int) -> Void)? = nil
    ) throws -> SeedReport {
        let total = files.reduce(0) { $0 + $1.count }
        var done = 0
        return try database.write { db in
            var report = SeedReport()
            func add<Record: CatalogRecord>(_ records: [Record]) throws -> Int {
                var inserted = 0
                // One statement each for the whole file: no SQL is built or looked up per record.
                let insert = try db.cachedStatement(sql: Self.insertSQL(Record.self, ignoringDuplicates: true))
                let assignments = Record.columnNames.map { "\($0) = ?" }.joined(separator: ", ")
                let update = conflicts == .update
                    ? try db.cachedStatement(sql: "UPDATE \(Record.tableName) SET \(assignments) WHERE name = ?")
                    : nil
                for record in records {
                    if try Self.insert(record, with: insert, db) != nil {
                        inserted += 1
                    } else if let update {
                        try update.execute(arguments: StatementArguments(values: record.persistedValues + [.text(record.name)]))
                        report.updated += 1
                    } else {
                        report.skipped += 1
                    }
                    done += 1
                    if done % 1_000 == 0 { progress?(done, total) }
                }
                return inserted
            }
            for file in files {
                switch file {
                case .products(let products): report.productsInserted += try add(products)
                case .phones(let phones): report.phonesInserted += try add(phones)
                }
            }
            progress?(done, total)
            return report
        }
    }
}
