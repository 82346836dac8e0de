import Foundation
import PostgreSQLStore
import SQLiteStore
import StoreCore
import TestSupport
import Testing

/// The two engines, for tests written once for both through `SQLConnection`.
enum Engine: String, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgreSQL

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh, empty database of the engine: a temporary SQLite file, or a schema of
    /// its own on the test primary.
    func withFreshDatabase<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        switch self {
        case .sqlite:
            let directory = try TemporaryDirectory()
            let queue = try DatabaseQueue(path: directory.path())
            defer { try? queue.close() }
            return try queue.writeWithoutTransaction { db in try body(db) }
        case .postgreSQL:
            let schema = try TestSchema()
            let db = try schema.connect()
            defer { db.close() }
            return try body(db)
        }
    }
}

extension SQLConnection {
    /// The first column of every row, as text.
    func texts(_ sql: String) throws -> [String] {
        try fetchRows(sql: sql, values: []).map { row in
            switch row[0] {
            case .text(let text): text
            case let value: value.description
            }
        }
    }
}
