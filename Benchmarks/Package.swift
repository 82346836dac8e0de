// swift-tools-version:6.1
import PackageDescription

// The benchmark of issue #6: this store against the raw SQLite C API and GRDB, in one run.
//
// A package of its own, so that the main package's `swift build` / `swift test` never build GRDB.
// Each contender is its own target, so that no Swift module sees two module maps of <sqlite3.h>:
//
//   catalog-bench (executable) → BenchmarkSupport (catalogs, schema, runner, report) → SeededRandom
//                              → RawSQLiteContender → BenchSQLite (libsqlite3, hand-written loops)
//                              → GRDBContender      → GRDB 7.10.0
//                              → StoreContender     → Catalog, SQLiteStore (this project)
//   pg-search-bench (executable) → BenchmarkSupport, PostgreSQLSearch (W3 on PostgreSQL; no GRDB)
//   pg-ingest-bench (executable) → PostgreSQLBenchSupport, PostgreSQLSearch (W1b on PostgreSQL; no GRDB)
//   pg-live-bench (executable) → PostgreSQLBenchSupport, FetchedResults (W4 and W5 on PostgreSQL; no GRDB)
//   PostgreSQLBenchSupport → BenchmarkSupport, Entities (the product entity both load)
let package = Package(
    name: "catalog-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, because a path dependency is otherwise known by its folder name (a worktree, a CI clone…).
        .package(name: "catalog", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .systemLibrary(name: "BenchSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // SeededRandom (the main package's generator) has no C module, so the raw-C and GRDB contenders
        // that share BenchmarkSupport see no second module map of <sqlite3.h>.
        .target(name: "BenchmarkSupport", dependencies: [.product(name: "SeededRandom", package: "catalog")]),
        .target(name: "RawSQLiteContender", dependencies: ["BenchmarkSupport", "BenchSQLite"]),
        .target(
            name: "GRDBContender",
            dependencies: ["BenchmarkSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(
            name: "StoreContender",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Catalog", package: "catalog"),
                .product(name: "Entities", package: "catalog"),
                .product(name: "FetchedResults", package: "catalog"),
                .product(name: "SQLiteStore", package: "catalog"),
                .product(name: "TextSearch", package: "catalog"),
            ]),
        // W3 on PostgreSQL: PostgreSQLSearch against `LIKE` with pg_trgm, on a server given by URL.
        .executableTarget(
            name: "pg-search-bench",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "PostgreSQLSearch", package: "catalog"),
                .product(name: "PostgreSQLStore", package: "catalog"),
                .product(name: "SQLiteStore", package: "catalog"),
                .product(name: "TextSearch", package: "catalog"),
            ]),
        // W1b on PostgreSQL: a declared entity's import (COPY) and the search's bulk build against
        // `psql \copy` and a pg_trgm index, on a server given by URL.
        .executableTarget(
            name: "pg-ingest-bench",
            dependencies: [
                "PostgreSQLBenchSupport",
                .product(name: "Entities", package: "catalog"),
                .product(name: "PostgreSQLStore", package: "catalog"),
                .product(name: "PostgreSQLSearch", package: "catalog"),
                .product(name: "TextSearch", package: "catalog"),
            ]),
        // W4 and W5 on PostgreSQL: a tracking controller and a cluster's open against LISTEN + SELECT
        // and a plain connection, on a server given by URL.
        .executableTarget(
            name: "pg-live-bench",
            dependencies: [
                "PostgreSQLBenchSupport",
                .product(name: "Entities", package: "catalog"),
                .product(name: "FetchedResults", package: "catalog"),
                .product(name: "PostgreSQLStore", package: "catalog"),
            ]),
        // The product entity the PostgreSQL benchmarks load, and its CSV file.
        .target(
            name: "PostgreSQLBenchSupport",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Entities", package: "catalog"),
                .product(name: "TextSearch", package: "catalog"),
            ]),
        // `catalog browse` driven through its screen model with scripted keystrokes (issue #14).
        .executableTarget(name: "browse-bench", dependencies: [.product(name: "CatalogCLI", package: "catalog")]),
        .executableTarget(
            name: "catalog-bench",
            dependencies: ["BenchmarkSupport", "RawSQLiteContender", "GRDBContender", "StoreContender"]),
    ],
    swiftLanguageModes: [.v6]
)
