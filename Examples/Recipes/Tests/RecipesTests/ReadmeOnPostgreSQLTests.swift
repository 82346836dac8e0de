import Entities
import FetchedResults
import Foundation
import PostgreSQLStore
import Recipes
import Testing

/// The repository README's PostgreSQL Swift block, run as written against CI's servers
/// (`CATALOG_TEST_POSTGRESQL_PRIMARY`/`_REPLICA`, which `.ci/run` exports), in a schema of its own:
/// `Scripts/check-readme-tour.py` checks that the lines between `readme.start` and `readme.end` are
/// the README's block. Without those variables it is skipped, unless `CI=true`.
struct ReadmeOnPostgreSQLTests {
    @Test func theReadmesPostgreSQLBlockRuns() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let server = environment["CATALOG_TEST_POSTGRESQL_PRIMARY"], !server.isEmpty,
              let replica = environment["CATALOG_TEST_POSTGRESQL_REPLICA"], !replica.isEmpty
        else {
            if environment["CI"] == "true" { Issue.record("CATALOG_TEST_POSTGRESQL_PRIMARY or _REPLICA is not set") }
            return
        }
        let schema = "readme_" + UUID().uuidString.lowercased().replacing("-", with: "")
        // pg_trgm in `public` (as the root package's tests make it), the block's tables in the schema.
        try PostgreSQLConnection(url: server).execute(sql: "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public; CREATE SCHEMA \(schema)")
        // Runs last: after the block's own `defer` has closed its cluster, whether the block threw or not.
        defer { try? PostgreSQLConnection(url: server).execute(sql: "DROP SCHEMA \(schema) CASCADE") }
        func inSchema(_ url: String) -> String { url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)" }
        let primaryURL = inSchema(server), replicaURL = inSchema(replica)

        // readme.start
        // primaryURL, replicaURL: the servers' URLs, as `Scripts/postgres start DIR` prints them
        let cluster = try PostgreSQLCluster(PostgreSQLConfiguration(primary: primaryURL, replicas: [replicaURL]))
        defer { cluster.close() }
        try RecipeBook.schema.migrate(cluster)        // the EntitySchema a SQLite file takes (Examples/Recipes)
        try cluster.write { db in
            var tarte = Recipe(name: "Tarte Tatin", cuisine: "French", minutes: 60)
            try tarte.insert(db)
        }
        let controller = FetchedResultsController(request: FetchRequest<Recipe>(searchText: "tatin"), reader: cluster)
        try controller.performFetch()
        // readme.end

        #expect(try controller.fetchedObjects.map(\.name) == ["Tarte Tatin"])
    }
}
