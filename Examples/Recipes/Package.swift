// swift-tools-version:6.1
import PackageDescription

// A second embedder, to copy: recipes and their ingredients (a to-one reference with ON DELETE
// CASCADE), the schema generated from the declarations and changed by a typed step, a CSV seed,
// file import and export, search, and a live controller; a small command-line app over it.
let package = Package(
    name: "Recipes",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The repository's root package, by path (its identity is the folder's name, so name it).
        .package(name: "catalog", path: "../.."),
    ],
    targets: [
        .target(
            name: "Recipes",
            dependencies: [
                .product(name: "SQLiteStore", package: "catalog"),
                .product(name: "FetchedResults", package: "catalog"),
                .product(name: "Entities", package: "catalog"),
                .product(name: "TextSearch", package: "catalog"),
                .product(name: "RecordFormats", package: "catalog"),
            ]
        ),
        // The command-line app: `swift run recipes --help`.
        .executableTarget(name: "recipes", dependencies: ["Recipes"]),
        // The README's PostgreSQL block runs in these tests too (ReadmeOnPostgreSQLTests).
        .testTarget(name: "RecipesTests", dependencies: ["Recipes", .product(name: "PostgreSQLStore", package: "catalog")]),
    ],
    swiftLanguageModes: [.v6]
)
