import Foundation
import TestSupport
import Testing

/// `catalog` loads libpq, and the dozens of libraries it needs, only when a command is given a
/// PostgreSQL URL: a command on a database file never pays for them. Seen through the dynamic
/// loader's own log (`LD_DEBUG=files`, glibc's), which names every library a process loads.
@Suite(.enabled(if: isGlibc, "LD_DEBUG is glibc's"))
struct LibraryLoadingTests {
    /// The loader's log of one run of `catalog`: its standard error.
    private func loads(_ workspace: Workspace, _ arguments: [String], database: String? = nil) throws -> ProcessResult {
        try workspace.catalog(arguments, database: database, environment: ["LD_DEBUG": "files"])
    }

    @Test func aFileNeverLoadsLibpq() throws {
        let workspace = try Workspace()
        for command in [["seed"], ["search", "mac"], ["show", "0.0"], ["list"]] {
            let result = try loads(workspace, command)
            #expect(result.status == 0, "\(command): \(result.status)")
            #expect(result.error.contains("file="), "\(command): the loader kept no log")
            #expect(!result.error.contains("file=libpq"), "\(command): libpq was loaded")
        }
    }

    @Test func aURLLoadsLibpqOnFirstUse() throws {
        let result = try loads(Workspace(), ["list"], database: ServerCommandTests.unreachable)
        #expect(result.status == 8, "\(result.status)")
        #expect(result.error.contains("file=libpq.so.5"), "libpq was not loaded")
        #expect(result.error.contains("catalog: error: cannot connect to PostgreSQL: "))
    }
}

#if os(Linux) && canImport(Glibc)
private let isGlibc = true
#else
private let isGlibc = false
#endif
