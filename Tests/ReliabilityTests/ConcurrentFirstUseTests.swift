import Catalog
import Foundation
import Synchronization
import SQLiteStore
import TestSupport
import Testing

/// Several connections, threads or processes using a file that does not exist yet: each creates,
/// switches to WAL and migrates it at once, and none fails with `SQLITE_BUSY` before its busy timeout.
struct ConcurrentFirstUseTests {
    /// The race the rounds below hit now and then, made certain: while another process holds the write
    /// lock of a new file still in rollback-journal mode, switching to WAL (a read lock upgraded to a
    /// write lock) fails at once in SQLite. `catalog` must wait for the lock instead, up to its timeout.
    @Test func openingWaitsForTheWriteLockOfANewFile() throws {
        let workspace = try Workspace()
        let locker = try WriteLockHolder(path: workspace.database, seconds: 1)
        let list = try workspace.catalog(["list"], environment: ["CATALOG_BUSY_TIMEOUT_MS": "20000"])
        locker.waitUntilReleased()
        #expect(list.status == 0, "\(list)")
    }

    /// Eight connections on eight threads open a new file at once, half of them then write and half
    /// read, many rounds over: every one succeeds.
    @Test func eightConnectionsOpeningANewFileAtOnce() throws {
        let rounds = 20
        let connections = 8
        for round in 0..<rounds {
            let directory = try TemporaryDirectory()
            let path = directory.path("catalog.sqlite")
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: connections) { index in
                do {
                    let store = try CatalogStore(path: path)
                    if index.isMultiple(of: 2) {
                        try store.insert(Product(type: .device, name: "P\(index)", yearIntroduced: 2000, introPrice: 1))
                    } else {
                        _ = try store.count(Product.self)
                    }
                    try store.file!.close()
                } catch {
                    failures.withLock { $0.append("round \(round), connection \(index): \(error)") }
                }
            }
            let failed = failures.withLock { $0 }
            #expect(failed.isEmpty, "\(failed)")
            if !failed.isEmpty { break }
            #expect(try DatabaseCheck.count("products", path) == connections / 2)
        }
    }

    /// The same through `catalog`, as the issue found it: 4 `add` and 4 `list` processes on a file that
    /// does not exist yet.
    @Test func eightProcessesOnANewFile() throws {
        let rounds = 8
        let catalog = ProcessRunner.productsDirectory.appendingPathComponent("catalog").path
        for round in 0..<rounds {
            let workspace = try Workspace()
            let processes = try (0..<8).map { index -> (Process, URL) in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: catalog)
                process.arguments = (index.isMultiple(of: 2)
                    ? ["add", "product", "--type", "device", "--name", "P\(index)", "--year", "2000", "--price", "1"]
                    : ["list"]) + ["--database", workspace.database]
                process.environment = ProcessRunner.environment(home: workspace.path("home"))
                let errors = workspace.directory.url.appendingPathComponent("\(index).err")
                _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
                process.standardOutput = FileHandle.nullDevice
                process.standardError = try FileHandle(forWritingTo: errors)
                try process.run()
                return (process, errors)
            }
            for (index, (process, errors)) in processes.enumerated() {
                process.waitUntilExit()
                let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                #expect(process.terminationStatus == 0, "round \(round), process \(index): \(text)")
            }
            #expect(try DatabaseCheck.count("products", workspace.database) == 4)
        }
    }
}
