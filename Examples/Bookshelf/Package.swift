// swift-tools-version:6.1
import PackageDescription

// An embedder of the catalog's library: its own entity (`Book`), its own migrations, CRUD, fetched
// results with live changes from other processes, and seeding, without a line of the library changed.
let package = Package(
    name: "Bookshelf",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The repository's root package, by path (its identity is the folder's name, so name it).
        .package(name: "catalog", path: "../.."),
    ],
    targets: [
        .target(
            name: "Bookshelf",
            dependencies: [
                .product(name: "SQLiteStore", package: "catalog"),
                .product(name: "FetchedResults", package: "catalog"),
                .product(name: "Entities", package: "catalog"),
                .product(name: "TextSearch", package: "catalog"),
            ]
        ),
        // Another process writing books: the live-changes test runs it.
        .executableTarget(name: "bookshelf-writer", dependencies: ["Bookshelf"]),
        .testTarget(
            name: "BookshelfTests",
            dependencies: ["Bookshelf", "bookshelf-writer", .product(name: "Catalog", package: "catalog")],
            resources: [.copy("books.json")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
