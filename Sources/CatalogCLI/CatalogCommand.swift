import ArgumentParser

/// The `catalog` command: the root of the command tree.
public struct CatalogCommand: AsyncParsableCommand {
    /// The version printed by `catalog --version`.
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "A product and phone catalog in an SQLite file, with sectioned lists and search.",
        discussion: """
            The database is --database PATH, else $CATALOG_DATABASE, else catalog.sqlite in the user's \
            data directory ($XDG_DATA_HOME/catalog, or ~/.local/share/catalog), which is created and \
            seeded with the built-in products and phones on first use.

            Examples:
              catalog list                          Products by type, with index paths
              catalog list phones --sort maker      Phones by maker
              catalog show 1.2                      The row that `list` printed at 1.2
              catalog search mac --scope desktop    Products whose name holds "mac"
              catalog suggest macb                  Names that start with "macb"
              catalog add product --type device --name "iPhone 16" --year 2024 --price 799
              catalog update 10 --name "iPhone 16 Pro"
              catalog delete 10
              catalog watch --scope device          Print the list, then each change as it commits
              catalog seed Seeds/phones.json        Add records from a file (twice adds nothing)
              catalog export > products.json        All products as JSON; `catalog import` reads it back
              catalog export --format csv | catalog import - --format csv --keep-ids --database copy.sqlite
              catalog backup ~/catalog-copy.sqlite  A consistent copy, while others write
              catalog migrate --status
            """,
        version: version,
        // Every command names itself (`commandName:`): ArgumentParser's default derives the name from
        // `String(describing: Self.self)`, whose dynamic casts scan every protocol conformance in the
        // program on first use, about 15% of a whole `catalog show` process (perf, 2026-11-22).
        subcommands: [
            List.self, Search.self, Suggest.self, Show.self, Watch.self, Add.self, Update.self, Delete.self, Seed.self,
            Import.self, Export.self, Backup.self, Migrate.self,
        ]
    )

    public init() {}

    /// Parses the process's arguments and runs the command they name, asynchronously (so that `watch`
    /// can await changes): what the `catalog` executable does.
    public static func runMain() async {
        await Self.main(nil)
    }
}
