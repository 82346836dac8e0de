import Foundation
import Testing
import TestSupport

/// Scripts/postgres, the start-up the README shows.
@Suite struct PostgresScriptTests {
    /// Run as root, the servers run as the postgres user: a folder that user cannot reach (under a
    /// private home) is refused in one line naming the folder, before initdb.
    @Test(.enabled(if: getuid() == 0, "only root hands the folder to the postgres user"))
    func aFolderThePostgresUserCannotReachIsOneLineAndExit1() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-private-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try PostgreSQLServers.runScript("start", "\(home)/catalog-postgres")
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("the postgres user cannot reach \(home)/catalog-postgres"), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: "\(home)/catalog-postgres/primary"))
    }
}
