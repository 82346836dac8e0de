// swift-tools-version:6.1
import PackageDescription

// Layers, each depending only on the ones below it:
//
//   catalog (executable) → CatalogCLI → Catalog (domain) → Entities → FetchedResults → SQLiteStore → CSQLiteMapping → CSQLite (libsqlite3)
//                                                                                     SQLiteStore → StoreCore (values, dialect, migrator)
//                                                                   PostgreSQLStore → StoreCore, CPostgreSQL (libpq, loaded on first use)
//                                                           Entities → TextSearch → SQLiteStore
//                                                           Entities → PostgreSQLSearch → TextSearch (the same search on PostgreSQL)
//                                                           Entities → RecordFormats (data formats of any record type)
//                                               Catalog (domain) → SeededRandom (synthetic data; no dependency)

/// This package's root folder (the linker reads a file from it by absolute path).
let packageDirectory = String(#filePath.dropLast("/Package.swift".count))

let package = Package(
    name: "catalog",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StoreCore", targets: ["StoreCore"]),
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
        .library(name: "PostgreSQLStore", targets: ["PostgreSQLStore"]),
        .library(name: "FetchedResults", targets: ["FetchedResults"]),
        .library(name: "RecordFormats", targets: ["RecordFormats"]),
        .library(name: "SeededRandom", targets: ["SeededRandom"]),
        .library(name: "TextSearch", targets: ["TextSearch"]),
        .library(name: "PostgreSQLSearch", targets: ["PostgreSQLSearch"]),
        .library(name: "Entities", targets: ["Entities"]),
        .library(name: "Catalog", targets: ["Catalog"]),
        // The commands as a library: for the browse benchmark (Benchmarks/), which drives the screen model.
        .library(name: "CatalogCLI", targets: ["CatalogCLI"]),
        .executable(name: "catalog", targets: ["catalog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        // `swift package generate-documentation` for the DocC catalogs (Sources/*/*.docc) and Snippets/.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Debian's libsqlite3 (`apt-get install libsqlite3-dev`), seen through a module map that links it.
        // No pkg-config: its `-L/usr/lib/x86_64-linux-gnu` would come first on every link's library path
        // and so hide the `catalog` release link's own (below), which links SQLite's static archive.
        .systemLibrary(name: "CSQLite"),
        // The VFS in C that keeps a pool reader's memory mapping of the database file across commits.
        .target(name: "CSQLiteMapping", dependencies: ["CSQLite"]),
        // libpq's API (the header of `apt-get install libpq-dev`), with libpq loaded by dlopen when a
        // PostgreSQL URL is first used: a command on a file never loads libpq's dozens of libraries (W7).
        // Every build, test and example takes this one path, so the path tested is the one shipped.
        .target(name: "CPostgreSQL"),
        // What both engines share: values, the SQL dialect, the connection protocol, the migrator.
        .target(name: "StoreCore"),
        // Entity-agnostic persistence: connections, statements, transactions, migrations.
        .target(name: "SQLiteStore", dependencies: ["StoreCore", "CSQLite", "CSQLiteMapping"]),
        // The same store on a PostgreSQL primary and its read replicas, through libpq.
        .target(name: "PostgreSQLStore", dependencies: ["StoreCore", "CPostgreSQL"]),
        // Records of any type in and out of JSON, JSON lines, CSV and TSV, streamed, given their fields.
        .target(name: "RecordFormats"),
        // A seeded random number generator: synthetic data (`catalog seed --count`), randomized tests
        // and the benchmarks' datasets, the same for the same seed. Depends on nothing.
        .target(name: "SeededRandom"),
        // Sectioned, sorted results of a request, with index paths (and, later, live change sets).
        .target(name: "FetchedResults", dependencies: ["SQLiteStore"]),
        // Substring search of any table: folding, queries, index SQL, planner and executor.
        .target(
            name: "TextSearch",
            dependencies: [
                "SQLiteStore",
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]
        ),
        // The same search on PostgreSQL: pg_trgm and grams indexes, their triggers, and an executor that
        // TextSearch's planner drives, over StoreCore's connection protocol.
        .target(name: "PostgreSQLSearch", dependencies: ["TextSearch", "SQLiteStore"]),
        // Entities declared once (table, attributes, rules), with insert/update/delete and decoding derived.
        .target(name: "Entities", dependencies: ["FetchedResults", "SQLiteStore", "TextSearch", "PostgreSQLSearch", "RecordFormats"]),
        // Products and phones: records, schema, seeds, their search descriptions.
        .target(
            name: "Catalog",
            dependencies: [
                "SQLiteStore", "PostgreSQLStore", "PostgreSQLSearch", "FetchedResults", "Entities", "TextSearch", "RecordFormats",
                "SeededRandom",
            ],
            plugins: [.plugin(name: "EmbedFilesPlugin")]
        ),
        // The `catalog` commands as a library, so tests can parse and run them in-process.
        .target(
            name: "CatalogCLI",
            dependencies: [
                "Catalog", "Entities", "FetchedResults", "SQLiteStore", "PostgreSQLStore", "TextSearch", "RecordFormats",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Release builds on Linux link everything but glibc statically: the Swift libraries, libstdc++,
        // libgcc and SQLite. Not a static executable: CPostgreSQL loads libpq with dlopen, which a static
        // glibc executable cannot do safely once threads run; so a command on a file loads libc and libm
        // only. lld places code and data in the order of Scripts/catalog.symbol-order (written by
        // Scripts/generate-symbol-order.sh): what short commands touch comes first, so start-up faults in
        // fewer pages (W7 in Benchmarks/README.md). A name the code no longer has is skipped: a stale order
        // costs speed, never correctness. Debug builds link dynamically, since the test bundle needs the
        // shared XCTest and Swift Testing libraries.
        .executableTarget(
            name: "catalog", dependencies: ["CatalogCLI"],
            linkerSettings: [
                .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release)),
                // Scripts/static-libraries comes first on the library path: its libsqlite3.so and
                // libstdc++.so are linker scripts that name the static archives, so the dynamic loader
                // neither loads nor binds those two libraries (thousands of symbol lookups) at each start.
                // `-static-libgcc` does the same for libgcc_s, the unwinder.
                .unsafeFlags(
                    ["-L", "\(packageDirectory)/Scripts/static-libraries", "-Xclang-linker", "-static-libgcc"],
                    .when(platforms: [.linux], configuration: .release)),
                // A position-dependent executable: a PIE's tens of thousands of relative relocations
                // (Swift metadata is full of pointers) are applied at every start, writing to pages
                // that a short command would otherwise never touch.
                .unsafeFlags(["-Xclang-linker", "-no-pie"], .when(platforms: [.linux], configuration: .release)),
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(packageDirectory)/Scripts/catalog.symbol-order",
                        "-Xlinker", "--no-warn-symbol-ordering",
                    ],
                    .when(platforms: [.linux], configuration: .release)),
                // Static FoundationEssentials' own dependencies, which only its shared library names. No
                // product module imports Foundation on Linux, so neither it, CoreFoundation nor ICU is
                // linked: a smaller binary with fewer conformance records to scan at start-up (W7).
                .linkedLibrary("_FoundationCollections", .when(platforms: [.linux], configuration: .release)),
                .linkedLibrary("_FoundationCShims", .when(platforms: [.linux], configuration: .release)),
            ]),
        // Benchmarks (W1-W7, against raw C and GRDB) are the separate package in Benchmarks/.

        // Build-time embedding of the top-level Migrations/ and Seeds/ folders into the Catalog module,
        // so the library and an installed `catalog` binary never read them from the current directory.
        .executableTarget(name: "embed-files", path: "Sources/embed-files"),
        .plugin(
            name: "EmbedFilesPlugin",
            capability: .buildTool(),
            dependencies: ["embed-files"],
            path: "Sources/EmbedFilesPlugin"
        ),

        .target(name: "TestSupport", dependencies: ["SQLiteStore", "PostgreSQLStore", "SeededRandom"], path: "Tests/TestSupport"),
        // A second process for the change-monitor tests: runs SQL lines from standard input.
        .executableTarget(name: "store-writer-fixture", dependencies: ["SQLiteStore"], path: "Tests/store-writer-fixture"),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["SQLiteStore", "TestSupport", "store-writer-fixture"]),
        .testTarget(name: "PostgreSQLStoreTests", dependencies: ["PostgreSQLStore", "SQLiteStore", "TestSupport"]),
        .testTarget(name: "FetchedResultsTests", dependencies: ["FetchedResults", "PostgreSQLStore", "TestSupport"]),
        .testTarget(name: "RecordFormatsTests", dependencies: ["RecordFormats", "SeededRandom"]),
        .testTarget(
            name: "TextSearchTests", dependencies: ["TextSearch", "SQLiteStore", "PostgreSQLSearch", "PostgreSQLStore", "TestSupport"]),
        .testTarget(
            name: "EntitiesTests",
            dependencies: [
                "Entities", "FetchedResults", "SQLiteStore", "PostgreSQLStore", "RecordFormats", "TextSearch", "PostgreSQLSearch",
                "TestSupport",
            ]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "TextSearch", "TestSupport"]),
        .testTarget(name: "CatalogCLITests", dependencies: ["CatalogCLI", "Catalog", "FetchedResults", "TestSupport", "catalog"]),
        // Concurrent writers, crashes, full disks, damaged files, hostile input: see the Guarantees article (Sources/CatalogCLI/CatalogCLI.docc).
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "SQLiteStore", "FetchedResults", "TextSearch", "Catalog", "TestSupport", "catalog", "reliability-fixture",
                "store-writer-fixture",
            ]
        ),
        // A tiny program the reliability tests kill in the middle of a long migration.
        .executableTarget(name: "reliability-fixture", dependencies: ["SQLiteStore"], path: "Tests/ReliabilityFixture"),
    ],
    swiftLanguageModes: [.v6]
)
