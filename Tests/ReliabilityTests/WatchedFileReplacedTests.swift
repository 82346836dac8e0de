import Catalog
import FetchedResults
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// A watched database that is replaced by a rename, deleted, or overwritten in place: the monitor and a
/// tracking controller report ``DatabaseFileError``; `catalog watch` says so in one line and exits 7.
struct WatchedFileReplacedTests {
    enum Replacement: String, CaseIterable, Sendable {
        case renamedOver, deleted, overwrittenInPlace
        /// Overwritten in place, keeping its size: with `x`s, random bytes, a zeroed header, a database
        /// of another page size, or another catalog database (each cut or padded to the same size).
        case sameSizeText, sameSizeRandomBytes, zeroedHeader, otherPageSize, sameSizeDatabase

        /// Does it to the database at `path`, with `other` another catalog database (checkpointed).
        func apply(to path: String, other: String) throws {
            switch self {
            case .renamedOver:
                #expect(rename(other, path) == 0)
            case .deleted:
                try FileManager.default.removeItem(atPath: path)
            case .overwrittenInPlace:
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                try handle.truncate(atOffset: 0)
                try handle.write(contentsOf: Data(String(repeating: "not a database any more\n", count: 400).utf8))
                try handle.close()
            case .sameSizeText, .sameSizeRandomBytes, .zeroedHeader, .otherPageSize, .sameSizeDatabase:
                // Another catalog's header can be byte for byte the same: the write is told by the file's
                // modification time, which must land in a later clock tick than the last checkpoint's.
                usleep(50_000)
                let size = fileSize(path)
                var generator = SystemRandomNumberGenerator()
                let bytes: Data = switch self {
                case .sameSizeText: Data(repeating: UInt8(ascii: "x"), count: size)
                case .sameSizeRandomBytes: Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
                case .zeroedHeader: Data(count: 100)
                case .otherPageSize: try Self.database(pageSize: 8_192, from: other)
                default: try #require(FileManager.default.contents(atPath: other))
                }
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                try handle.write(contentsOf: bytes.count > size ? bytes.prefix(size) : bytes)
                if bytes.count < size && self != .zeroedHeader { try handle.write(contentsOf: Data(count: size - bytes.count)) }
                try handle.close()
                #expect(fileSize(path) == size)
            }
        }

        /// The bytes of a copy of the database at `path` with pages of `pageSize` bytes.
        private static func database(pageSize: Int, from path: String) throws -> Data {
            let copy = path + ".\(pageSize)"
            try? FileManager.default.removeItem(atPath: copy)
            try DatabaseCheck.withQueue(path) { db in
                try db.execute(sql: "VACUUM INTO ?", arguments: [copy])
            }
            try DatabaseCheck.withQueue(copy) { db in
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
                try db.execute(sql: "PRAGMA page_size = \(pageSize)")
                try db.execute(sql: "VACUUM")
            }
            return try #require(FileManager.default.contents(atPath: copy))
        }

        var message: String {
            switch self {
            case .renamedOver: "was replaced by another file while it was watched"
            case .deleted: "was deleted or moved away while it was watched"
            default: "can no longer be read while it was watched"
            }
        }
    }

    /// Another catalog with other products, closed (so checkpointed into its one file).
    private func otherCatalog(_ workspace: Workspace) throws -> String {
        let path = workspace.path("other.sqlite")
        let store = try CatalogStore(path: path)
        try store.insert(Product(type: .device, name: "Elsewhere", yearIntroduced: 2001, introPrice: 1))
        try store.file!.close()
        return path
    }

    @Test(arguments: Replacement.allCases)
    func watchSaysSoAndExits(_ replacement: Replacement) throws {
        let workspace = try Workspace()
        #expect(try workspace.catalog(["seed"]).status == 0)
        let other = try otherCatalog(workspace)
        let watch = try RunningProcess("catalog", ["watch", "--database", workspace.database], home: workspace.path("home"))
        var lines: [String] = []
        while let line = watch.nextLine(), !line.hasPrefix("2.1") { lines.append(line) }
        #expect(lines.first?.hasPrefix("PATH") == true, "\(lines)")

        try replacement.apply(to: workspace.database, other: other)
        #expect(watch.nextLine() == nil, "watch ends by itself")
        let (status, error) = try watch.stop(with: SIGKILL)
        #expect(status == 7, "\(error)")
        #expect(error.hasPrefix("catalog: error: the database file \(workspace.database) \(replacement.message)"), "\(error)")
        #expect(error.split(separator: "\n").count == 1, "\(error)")
    }

    // The limit catches a sequence that never ends; it is wide because the whole suite, both engines
    // in parallel on a two-core runner, can hold a case back for over a minute before it runs.
    @Test(.timeLimit(.minutes(5)), arguments: Replacement.allCases)
    func aTrackingControllerThrows(_ replacement: Replacement) async throws {
        let workspace = try Workspace()
        let store = try CatalogStore(path: workspace.database)
        try store.seed(SeedFile.builtIn)
        // As a command leaves it: the database file holds every commit (the same-size cases need its size).
        _ = try DatabaseCheck.withQueue(workspace.database) { db in try db.checkpoint(.truncate) }
        let other = try otherCatalog(workspace)
        let controller = try store.trackedResults(ListRequest<Product>())
        let monitor = try ChangeMonitor(path: workspace.database)
        try replacement.apply(to: workspace.database, other: other)
        do {
            for try await changeSet in controller.changeSets(from: monitor) {
                Issue.record("no change set expected, got \(changeSet)")
            }
            Issue.record("the sequence ended without an error")
        } catch let error as DatabaseFileError {
            #expect(monitor.failure == error)
            switch (replacement, error) {
            case (.renamedOver, .replaced), (.deleted, .removed): break
            case (_, .unreadable) where replacement != .renamedOver && replacement != .deleted: break
            default: Issue.record("\(replacement): \(error)")
            }
        }
    }
}
