import Foundation
import PostgreSQLStore
import StoreCore
import TestSupport
import Testing

/// What only `catalog` on a PostgreSQL server has to say: commands that work on a database file are
/// refused in one line naming what to use instead (exit 9), `check` checks the search's structures and recounts the section counts, a server that cannot be reached is one
/// line (exit 8) and nothing is done, replicas are named by `CATALOG_REPLICAS`, and `watch` says
/// when the primary restarts, then resumes with the changes made meanwhile. (The commands that work
/// on both engines are the other suites', run on each.)
@Suite(.enabled(if: StoreEngine.all.contains(.postgreSQL), "CATALOG_TEST_ENGINE keeps SQLite only"))
struct ServerCommandTests {
    /// A loopback port nothing listens on (a privileged one no test server takes).
    static let unreachable = "postgresql://postgres@127.0.0.1:1/postgres"

    @Test func fileOnlyCommandsSayWhatToUseInstead() throws {
        let workspace = try Workspace(engine: .postgreSQL)
        #expect(try workspace.catalog("seed").status == 0)
        let copy = workspace.path("copy.sqlite")
        let cases: [([String], String)] = [
            (["backup", copy], "backup works on a database file, and this database is on a PostgreSQL server: back it up with pg_dump"),
            (["backup", copy, "--force"], "pg_basebackup"),
        ]
        for (arguments, message) in cases {
            let result = try workspace.catalog(arguments)
            #expect(result.status == 9, "\(arguments): \(result)")
            #expect(result.error.hasPrefix("catalog: error: ") && result.error.contains(message), "\(arguments): \(result)")
            #expect(result.error.split(separator: "\n").count == 1, "\(arguments): \(result)")
            #expect(result.output.isEmpty, "\(arguments): \(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: copy))
        #expect(try workspace.catalog("list").status == 0)
    }

    /// `check` on a server recounts the section counts kept there: `ok`, then a count changed behind
    /// the triggers' back is named (exit 6).
    @Test func checkFindsADamagedSectionCountOnTheServer() throws {
        let workspace = try Workspace(engine: .postgreSQL)
        #expect(try workspace.catalog("seed").status == 0)
        let sound = try workspace.catalog("check")
        #expect(sound.status == 0 && sound.output.hasPrefix("ok"), "\(sound)")
        let schema = try #require(workspace.schema)
        try schema.connect().execute(
            sql: "UPDATE store_section_counts SET count = count + 1 WHERE table_name = 'products' AND key = 'device'")
        // `check` reads on the primary, which the damage is on (a replica replays it a moment later).
        let damaged = try workspace.catalog(["check"])
        #expect(damaged.status == 6, "\(damaged)")
        #expect(damaged.output.hasPrefix("store_section_counts: products by type: 1 wrong count (key \"device\" counts 6, recounted 5)"), "\(damaged)")
    }

    /// `check` on a server checks the search's structures too: `ok` on a seeded catalog, then a gram
    /// count changed behind the triggers' back is named (exit 6, in `--json` too), and so is a
    /// dropped index.
    @Test func checkFindsADamagedGramCountOnTheServer() throws {
        let workspace = try Workspace(engine: .postgreSQL)
        #expect(try workspace.catalog("seed").status == 0)
        let sound = try workspace.catalog(["check"])
        #expect(sound.status == 0 && sound.output == "ok\n", "\(sound)")
        let schema = try #require(workspace.schema)
        try schema.connect().execute(sql: "UPDATE phones_gram_counts SET count = count + 1 WHERE gram = 'a'")
        // `check` reads on the primary, which the damage is on.
        let damaged = try workspace.catalog(["check"])
        #expect(damaged.status == 6, "\(damaged)")
        #expect(damaged.output == "1 gram counts of phones_gram_counts differ from the rows'\n", "\(damaged)")
        let json = try workspace.catalog(["check", "--json"])
        #expect(json.status == 6, "\(json)")
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(object?["ok"] as? Bool == false, "\(json)")
        #expect(object?["problems"] as? [String] == ["1 gram counts of phones_gram_counts differ from the rows'"], "\(json)")
        try schema.connect().execute(sql: "UPDATE phones_gram_counts SET count = count - 1 WHERE gram = 'a'; DROP INDEX products_name_folded_trigram_index")
        let missing = try workspace.catalog(["check"])
        #expect(missing.status == 6, "\(missing)")
        #expect(missing.output == "the search index products_name_folded_trigram_index of products is missing\n", "\(missing)")
    }

    @Test func anUnreachableServerIsOneLineAndNothingIsDone() throws {
        let workspace = try Workspace()
        let commands: [[String]] = [
            ["list"], ["search", "mac"], ["show", "0.0"], ["suggest", "ip"], ["seed"], ["export"], ["migrate"], ["migrate", "--status"],
            ["add", "product", "--type", "device", "--name", "X", "--year", "2000", "--price", "1"], ["delete", "1"], ["watch"],
        ]
        for command in commands {
            let result = try workspace.catalog(command, database: Self.unreachable)
            #expect(result.status == 8, "\(command): \(result)")
            #expect(result.error.hasPrefix("catalog: error: cannot connect to PostgreSQL: "), "\(command): \(result)")
            #expect(result.error.hasSuffix("; nothing was done (08001)\n"), "\(command): \(result)")
            #expect(result.error.split(separator: "\n").count == 1, "\(command): \(result)")
            #expect(result.output.isEmpty, "\(command): \(result)")
        }
        // Through the environment as through the option.
        let environment = try ProcessRunner.run(
            "catalog", ["list"], environment: ["CATALOG_DATABASE": Self.unreachable], home: workspace.path("home"))
        #expect(environment.status == 8, "\(environment)")
    }

    /// Exit codes, 5, on a server: a write that meets another session's lock past the server's
    /// `lock_timeout` is a file's busy database: one line, exit 5, and the write not made.
    @Test func aLockHeldPastTheLockTimeoutIsBusy() throws {
        let result = try Self.addProduct(whileLocking: "ACCESS EXCLUSIVE") { _ in }
        #expect(result.status == 5, "\(result)")
        #expect(result.error == "catalog: error: the database is locked by another session past the server's lock_timeout; "
            + "try again; this command's change was not written (55P03)\n", "\(result)")
    }

    /// Exit codes, 5, on a server: the lock line is true when opening committed before the write met
    /// the lock (a pending migration applied): it says the command's change was not written, which
    /// holds, and not that nothing was, which would not.
    @Test func aLockMetAfterAMigrationCommittedSaysOnlyWhatHolds() throws {
        let migration6 = "FROM schema_migrations WHERE migration_set = 'catalog' AND version = 6"
        var applied: [[DatabaseValue]] = []
        // Migration 6 pending again: it drops a function the schema does not have, and locks no
        // table; a share lock lets reads go on and makes an insert wait.
        let result = try Self.addProduct(whileLocking: "SHARE") { holder in
            try holder.execute(sql: "DELETE " + migration6)
        } afterwards: { holder in
            applied = try holder.fetchRows(sql: "SELECT count(*) " + migration6, values: [])
        }
        #expect(result.status == 5, "\(result)")
        #expect(result.error == "catalog: error: the database is locked by another session past the server's lock_timeout; "
            + "try again; this command's change was not written (55P03)\n", "\(result)")
        #expect(applied == [[.integer(1)]], "the migration was written")
    }

    /// Runs `add product` on a seeded schema through a URL whose `lock_timeout` is 200 ms, while
    /// another session (after `before`) holds a lock in `mode` on the products; that session rolls
    /// back, runs `afterwards`, and the product is found not written.
    private static func addProduct(
        whileLocking mode: String, before: (PostgreSQLConnection) throws -> Void,
        afterwards: (PostgreSQLConnection) throws -> Void = { _ in }
    ) throws -> ProcessResult {
        let workspace = try Workspace(engine: .postgreSQL)
        #expect(try workspace.catalog("seed").status == 0)
        let schema = try #require(workspace.schema)
        let holder = try schema.connect()
        defer { holder.close() }
        try before(holder)
        try holder.execute(sql: "BEGIN")
        try holder.execute(sql: "LOCK TABLE products IN \(mode) MODE")
        // The schema's URL with a lock_timeout of 200 ms among its options.
        let impatient = schema.primary + "%20-clock_timeout%3D200"
        let result = try workspace.catalog(
            ["add", "product", "--type", "device", "--name", "Blocked", "--year", "2000", "--price", "1"], database: impatient)
        try holder.execute(sql: "ROLLBACK")
        try afterwards(holder)
        #expect(try workspace.catalog(["search", "blocked"], database: schema.primary).output == "No results for \"blocked\"\n")
        return result
    }

    /// An import into an empty catalog on a server, ended by a signal in the middle of its bulk load
    /// (SIGKILL: the test runner passes SIGINT and SIGTERM on blocked), leaves none of its records,
    /// and the load's hold on the table goes with the session: the next write does not wait.
    /// (On a file: CrashTests.killedInTheMiddleOfAnImport.)
    @Test func anImportEndedByASignalLeavesNothingAndFreesTheTable() throws {
        let workspace = try Workspace(engine: .postgreSQL)
        #expect(try workspace.catalog("list").status == 0)  // creates the tables, empty
        let rows = (0..<300_000).map { "device,Interrupted \($0),2000,1\n" }.joined()
        let file = try workspace.write("type,name,yearIntroduced,introPrice\n" + rows, to: "products.csv")
        let schema = try #require(workspace.schema)
        let importer = try RunningProcess("catalog", ["import", file, "--database", schema.primary], home: workspace.path("home"))
        let observer = try schema.connect()
        defer { observer.close() }
        let deadline = ContinuousClock.now + .seconds(60)
        // The bulk load holds the table (it drops its indexes until the COPY is done).
        while try observer.scalar(
            sql: """
                SELECT count(*) FROM pg_locks JOIN pg_class ON pg_class.oid = pg_locks.relation
                WHERE relnamespace = $1::regnamespace AND relname = 'products' AND mode = 'AccessExclusiveLock'
                """,
            arguments: [.text(schema.name)]) == .integer(0) {
            try #require(ContinuousClock.now < deadline, "the import's bulk load did not start")
            usleep(10_000)
        }
        let (status, error) = try importer.stop(with: SIGKILL)
        #expect(status == SIGKILL && error.isEmpty, "\(status): \(error)")
        #expect(try workspace.catalog("export", "--format", "jsonl").output.isEmpty)
        let added = try workspace.catalog("add", "product", "--type", "device", "--name", "After", "--year", "2000", "--price", "1")
        #expect(added.status == 0, "\(added)")
        #expect(try workspace.catalog("check").output == "ok\n")
    }

    @Test func replicasAreURLsOfAServer() throws {
        let workspace = try Workspace(engine: .postgreSQL)
        #expect(try workspace.catalog("seed").status == 0)
        let notURL = try workspace.catalog(["list"], environment: ["CATALOG_REPLICAS": "/tmp/replica"])
        #expect(notURL.status == 64, "\(notURL)")
        #expect(notURL.error == "catalog: error: CATALOG_REPLICAS must be postgresql:// URLs separated by commas, not \"/tmp/replica\"\n")
        let ofAFile = try workspace.catalog(["list"], database: workspace.path("file.sqlite"), environment: ["CATALOG_REPLICAS": Self.unreachable])
        #expect(ofAFile.status == 64, "\(ofAFile)")
        #expect(ofAFile.error.contains("CATALOG_REPLICAS names replicas of a PostgreSQL server, but the database is the file"))
        #expect(!FileManager.default.fileExists(atPath: workspace.path("file.sqlite")))
        // A replica that is down is skipped with a line, never a wrong answer: the primary answers.
        let plain = try workspace.catalog("list")
        let downReplica = try workspace.catalog(["list"], environment: ["CATALOG_REPLICAS": Self.unreachable])
        #expect(downReplica.status == 0, "\(downReplica)")
        #expect(downReplica.output == plain.output)
        #expect(downReplica.error.contains("replica"), "\(downReplica)")
    }

    /// A replica's URL given as the database (the primary's place): reads answer, and a write is
    /// refused in one line that says why and what to give instead, with nothing written.
    @Test func aReplicaGivenAsTheDatabaseRefusesWritesInOneLine() throws {
        let workspace = try Workspace(engine: .postgreSQL)
        #expect(try workspace.catalog("seed").status == 0)
        let replica = try #require(workspace.schema?.replicas.first)
        let writes: [[String]] = [
            ["add", "product", "--type", "device", "--name", "Replica", "--year", "2000", "--price", "1"], ["delete", "1"], ["seed", "--count", "3"],
        ]
        for arguments in writes {
            let result = try workspace.catalog(arguments, database: replica)
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(result.error.hasPrefix("catalog: error: PostgreSQL: cannot execute "), "\(arguments): \(result)")
            #expect(result.error.hasSuffix(
                "(25006): the database URL names a read-only server, such as a replica; give the primary's URL "
                    + "(replicas go in CATALOG_REPLICAS); nothing was written\n"), "\(arguments): \(result)")
            #expect(result.error.split(separator: "\n").count == 1, "\(arguments): \(result)")
        }
        let export = try workspace.catalog("export", "--format", "jsonl")
        #expect(export.output.split(separator: "\n").count == 9, "\(export)")
    }

    /// `watch` given a replica's URL: listening there is refused (a standby cannot `LISTEN`), which
    /// is an error of the server's, not a lost connection. It is said at once, in one line, with the
    /// exit code for its kind (1, a read-only server); not 30 seconds of listening again and then
    /// "could not be reached" (exit 8).
    @Test func watchOnAReplicaSaysWhyAtOnce() throws {
        let workspace = try Workspace(engine: .postgreSQL)
        #expect(try workspace.catalog("seed").status == 0)
        // The replica has replayed the seed: opening the store there only reads.
        let replica = try Self.replicaWithTheSeed(of: workspace)
        let watch = try RunningProcess("catalog", ["watch", "--json", "--database", replica])
        let exit = try #require(watch.exited(within: .seconds(20)), "watch on a replica still ran after 20 s")
        #expect(exit.status == 1, "\(exit.error)")
        Self.expectOwnLines(exit.error, ["catalog: error: PostgreSQL: cannot execute LISTEN during recovery (25006): the database URL names a read-only server"])
    }

    /// The URL of the workspace's schema on the replica, once the replica has replayed its seed (the
    /// built-in one: 9 products).
    static func replicaWithTheSeed(of workspace: Workspace) throws -> String {
        let replica = try #require(workspace.schema?.replicas.first, "no replica configured")
        let deadline = ContinuousClock.now + .seconds(30)
        while try workspace.catalog(["export", "--format", "jsonl"], database: replica).output.split(separator: "\n").count != 9 {
            try #require(ContinuousClock.now < deadline, "the replica did not replay the seed")
            Thread.sleep(forTimeInterval: 0.2)
        }
        return replica
    }

    /// `check` reads on the primary, never on a replica of `CATALOG_REPLICAS` (which cancels a read
    /// of every row once it holds back replay): given as its replica a sound catalog (another
    /// schema's, on the replica), it still finds the count damaged on the primary.
    @Test func checkReadsOnThePrimary() throws {
        let (damaged, sound) = (try Workspace(engine: .postgreSQL), try Workspace(engine: .postgreSQL))
        #expect(try damaged.catalog("seed").status == 0 && sound.catalog("seed").status == 0)
        let soundReplica = try Self.replicaWithTheSeed(of: sound)
        try #require(damaged.schema).connect().execute(
            sql: "UPDATE store_section_counts SET count = count + 1 WHERE table_name = 'products' AND key = 'device'")
        let result = try damaged.catalog(["check"], environment: ["CATALOG_REPLICAS": soundReplica])
        #expect(result.status == 6, "\(result)")
        #expect(result.output.hasPrefix("store_section_counts: products by type: 1 wrong count"), "\(result)")
    }

    /// The primary stopped and started again under a running `watch`: it says so on standard error,
    /// listens again, and shows the change committed once the primary is back (read from the change
    /// log, not from a notification it missed).
    @Test func watchSaysWhenThePrimaryRestartsAndResumes() throws {
        let (servers, workspace, watch) = try Self.watching(["--scope", "device"])
        defer { servers.stop() }
        let (add, database) = (Self.add, servers.primary)

        try servers.stopServer("primary")
        let whileDown = try workspace.catalog(add + ["While down"], database: database)
        #expect(whileDown.status == 8, "\(whileDown)")
        try servers.startServer("primary")
        #expect(try workspace.catalog(add + ["After"], database: database).status == 0)
        let resumed = try #require(watch.nextLine(), "watch showed nothing after the primary came back")
        #expect(resumed.contains(#""kind":"insert""#), "\(resumed)")

        let (status, error) = try watch.stop()
        #expect(status == 0, "\(error)")
        Self.expectOwnLines(error, ["lost the connection to the PostgreSQL server", "listening to the PostgreSQL server again"])
    }

    /// `catalog add product` of a device, but for its name.
    static let add = ["add", "product", "--type", "device", "--year", "2024", "--price", "1", "--name"]

    /// A primary of its own (stop it at the end), seeded, and `catalog watch --json` with `arguments`
    /// on it, once it has shown the list and a product added: it listens, and has read what its first
    /// wake-up asked for.
    static func watching(_ arguments: [String] = []) throws -> (PostgreSQLServers, Workspace, RunningProcess) {
        let servers = try PostgreSQLServers.start(replicas: 0)
        do {
            let workspace = try Workspace()
            #expect(try workspace.catalog(["seed"], database: servers.primary).status == 0)
            let watch = try RunningProcess("catalog", ["watch", "--json", "--database", servers.primary] + arguments)
            #expect(watch.nextLine() != nil)
            #expect(try workspace.catalog(add + ["Before"], database: servers.primary).status == 0)
            #expect(watch.nextLine()?.contains(#""kind":"insert""#) == true)
            return (servers, workspace, watch)
        } catch {
            servers.stop()
            throw error
        }
    }

    /// `catalog`'s notes on standard error, each once, and nothing else: no line of libpq's (the
    /// server's farewell, `FATAL:  terminating connection…`, goes to the connection's notice
    /// processor, which drops it).
    static func expectOwnLines(_ error: String, _ notes: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = error.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("catalog: ") }, "\(error)", sourceLocation: sourceLocation)
        #expect(lines.count == notes.count, "\(error)", sourceLocation: sourceLocation)
        for (line, note) in zip(lines, notes) { #expect(line.contains(note), "\(error)", sourceLocation: sourceLocation) }
    }

    /// The primary stopped while `watch` has a wake-up it has not read yet: reading it finds the
    /// primary gone, and `watch` waits for it as when listening finds it gone (one line, then the
    /// changes once it is back), rather than exit at once.
    @Test func watchWaitsForAPrimaryLostBeforeItReadsAWakeUp() throws {
        let (servers, workspace, watch) = try Self.watching()
        defer { servers.stop() }
        let (add, database) = (Self.add, servers.primary)

        // A change set longer than the pipe holds: `watch` waits in its write until this test reads.
        #expect(try workspace.catalog(["seed", "--count", "3000"], database: database).status == 0)
        #expect(watch.hasOutput(within: .seconds(60)))
        // Meanwhile a commit wakes its listener up (which polls every 250 ms), and the primary stops.
        #expect(try workspace.catalog(add + ["Queued"], database: database).status == 0)
        Thread.sleep(forTimeInterval: 2)
        try servers.stopServer("primary")
        let seeded = try #require(watch.nextLine())
        #expect(seeded.utf8.count > 65_536 && seeded.contains(#""kind":"insert""#))
        #expect(watch.exited(within: .seconds(3)) == nil, "watch exited while the primary was down")

        try servers.startServer("primary")
        #expect(try workspace.catalog(add + ["After"], database: database).status == 0)
        var inserts = 0
        while inserts < 2, let line = watch.nextLine() { inserts += line.components(separatedBy: #""kind":"insert""#).count - 1 }
        #expect(inserts == 2, "watch did not show the changes made once the primary was back")
        let (status, error) = try watch.stop()
        #expect(status == 0, "\(error)")
        Self.expectOwnLines(error, ["lost the connection to the PostgreSQL server", "listening to the PostgreSQL server again"])
    }

    /// A primary that does not come back: `watch` listens again every second for 30 seconds (the
    /// CatalogCLI article's promise), then exits 8 with the lost connection's error in one line,
    /// rather than go on showing a result that no longer follows the server.
    @Test func watchGivesUpWhenThePrimaryStaysDown() throws {
        let (servers, _, watch) = try Self.watching()
        defer { servers.stop() }

        let stopping = ContinuousClock.now
        try servers.stopServer("primary")
        let exit = try #require(watch.exited(within: .seconds(120)), "watch still ran 120 s after the primary stopped")
        let waited = ContinuousClock.now - stopping
        #expect(exit.status == 8, "\(exit.error)")
        #expect(waited >= .seconds(30), "gave up after \(waited)")
        // The last line says that watch gave up, and why: not a bare "cannot connect … nothing was done".
        Self.expectOwnLines(exit.error, [
            "lost the connection to the PostgreSQL server",
            "catalog: error: the PostgreSQL server could not be reached for 30 seconds, so watch stopped following it: ",
        ])
        #expect(watch.nextLine(timeout: .seconds(1)) == nil)
    }
}
