import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Synchronization
import Testing

/// No text a user gives ever becomes SQL: it is bound as a value, or refused before it reaches the store.
struct SQLInjectionTests {
    /// Classic payloads, each with the marker `inj` so that traced SQL can be searched for it.
    static let payloads = [
        "inj'; DROP TABLE products; --",
        "inj\" OR 1=1 --",
        "Robert'); DROP TABLE phones;-- inj",
        "inj' OR '1'='1",
        "inj%", "inj_", "inj\\", "inj\\'; --",
        "inj'); INSERT INTO products_search(products_search) VALUES('delete-all'); --",
        "inj; ATTACH DATABASE '/tmp/x' AS x; --",
        "inj */ /* -- ?1 :name @p $p",
        "inj\" NEAR(\"a\" \"b\") OR name_folded:*",
        "inj 🤖 ñ 東京",
    ]

    @Test func everyCommandLineArgumentTakesPayloadsLiterally() throws {
        let workspace = try Workspace()
        #expect(try workspace.catalog(["seed"]).status == 0)
        let schema = try DatabaseCheck.schema(workspace.database)
        var productNames: Set<String> = []
        var phoneNames: Set<String> = []
        for (index, payload) in Self.payloads.enumerated() {
            // Texts that are stored: names, makers, operating systems. They come back unchanged.
            let product = try workspace.catalog(
                ["add", "product", "--type", "device", "--name", payload, "--year", "2000", "--price", "1", "--json"])
            #expect(product.status == 0, "\(product)")
            let id = try #require(try JSONSerialization.jsonObject(with: Data(product.output.utf8)) as? [String: Any])["id"] as? Int
            let shown = try workspace.catalog(["show", "--id", String(try #require(id)), "--json"])
            let record = try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any]
            #expect(record?["name"] as? String == payload)
            productNames.insert(payload)

            let phone = try workspace.catalog(
                ["add", "phone", "--name", payload, "--maker", payload, "--year", "2020", "--os", payload, "--screen", "6", "--json"])
            #expect(phone.status == 0, "\(phone)")
            let stored = try JSONSerialization.jsonObject(with: Data(phone.output.utf8)) as? [String: Any]
            #expect(["name", "maker", "operatingSystem"].map { stored?[$0] as? String } == [payload, payload, payload])
            phoneNames.insert(payload)

            // Texts that select something: refused as usage or invalid input, never run.
            for arguments in [
                ["add", "product", "--type", payload, "--name", "x\(index)", "--year", "2000", "--price", "1"],
                ["add", "product", "--type", "device", "--name", "x\(index)", "--year", payload, "--price", "1"],
                ["add", "product", "--type", "device", "--name", "x\(index)", "--year", "2000", "--price", payload],
                ["list", "--scope", payload], ["list", "--sort", payload], ["list", "--entity", payload], ["list", payload],
                ["show", payload], ["delete", payload], ["show", "--id", payload], ["seed", "--count", payload],
            ] {
                let result = try workspace.catalog(arguments)
                #expect([64, 65].contains(result.status), "\(arguments): \(result)")
            }

            // File names: a seed file, an export and a database named by the payload.
            let fileName = payload.replacingOccurrences(of: "/", with: "_")
            let seedFile = try workspace.write(
                #"[{"type":"portable","name":"seeded \#(index)","yearIntroduced":2001,"introPrice":1}]"#, to: fileName + ".json")
            #expect(try workspace.catalog(["seed", seedFile]).status == 0)
            productNames.insert("seeded \(index)")
            let export = workspace.path(fileName + ".export.json")
            #expect(try workspace.catalog(["export", "--output", export]).status == 0)
            #expect(try Data(contentsOf: URL(fileURLWithPath: export)).count > 0)
            let other = workspace.path(fileName + ".sqlite")
            #expect(try workspace.catalog(["add", "product", "--type", "device", "--name", payload, "--year", "2000", "--price", "1"], database: other).status == 0)
            #expect(try DatabaseCheck.count("products", other) == 1)
        }

        #expect(try DatabaseCheck.schema(workspace.database) == schema)
        #expect(try DatabaseCheck.count("products", workspace.database) == 9 + productNames.count)
        #expect(try DatabaseCheck.count("phones", workspace.database) == 42 + phoneNames.count)
        #expect(try DatabaseCheck.integrity(workspace.database) == ["ok"])
        try DatabaseCheck.searchIndexMatchesTables(workspace.database)
    }

    /// A database path that looks like an SQLite URI names a file, so that what is written to it stays.
    @Test func aDatabasePathThatLooksLikeAURIIsAFile() throws {
        let workspace = try Workspace()
        let catalog = ProcessRunner.productsDirectory.appendingPathComponent("catalog").path
        let uri = "file:uri.sqlite?mode=memory&cache=shared"
        let script = #"cd "$1" && "$2" add product --type device --name Kept --year 2000 --price 1 --database "$3""#
        let result = try ProcessRunner.run(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", script, "sh", workspace.directory.url.path, catalog, uri],
            home: workspace.path("home"))
        #expect(result.status == 0, "\(result)")
        #expect(try DatabaseCheck.count("products", workspace.path(uri)) == 1)
    }

    /// Every statement the store runs, as SQLite saw it before binding: no payload is in any of them.
    @Test func payloadsNeverReachTheSQLText() throws {
        let workspace = try Workspace()
        let statements = Mutex<[String]>([])
        var configuration = Configuration()
        configuration.trace = { sql in statements.withLock { $0.append(sql) } }
        let store = try CatalogStore(path: workspace.database, configuration: configuration)
        for payload in Self.payloads {
            var product = try store.insert(Product(type: .device, name: payload, yearIntroduced: 2000, introPrice: 1))
            product.name = payload + " renamed"
            try store.update(product)
            try store.insert(Phone(name: payload, maker: payload, yearReleased: 2020, operatingSystem: payload, screenInches: 6))
            #expect(try store.fetchOne(Product.self, id: product.id!)?.name == payload + " renamed")
            try store.seed([SeedFile([Product(type: .portable, name: payload + " seeded", yearIntroduced: 2001, introPrice: 2)])],
                           conflicts: .update)
            for sort in SortField.allCases {
                _ = try? store.sections(ListRequest<Product>(scope: .device, sort: sort)) as [EntitySection<Product>]
                _ = try? store.sections(ListRequest<Phone>(sort: sort)) as [EntitySection<Phone>]
            }
            try store.delete(Product.self, id: product.id!)
        }
        let traced = statements.withLock { $0 }
        #expect(traced.count > 100)
        #expect(traced.filter { $0.contains("inj") }.isEmpty)
        #expect(try store.fetchAll(Phone.self).map(\.name).sorted() == Self.payloads.sorted())
    }
}
