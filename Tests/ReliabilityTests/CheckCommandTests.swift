import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// `catalog check`: `ok` and exit 0 for a sound database; one line per problem and exit 6 for damage to
/// the file, to an FTS5 index, or to a search structure derived from the names.
struct CheckCommandTests {
    /// A catalog of 2,000 synthetic products and the built-in phones, checkpointed into its main file.
    static func seededDatabase(_ workspace: Workspace) throws -> String {
        let store = try CatalogStore(path: workspace.database)
        try store.seed(SeedFile.builtIn)
        try store.seed([SeedFile(SyntheticCatalog.products(count: 2_000, seed: 5))])
        try store.file!.close()
        return workspace.database
    }

    @Test func aSoundDatabaseIsOK() throws {
        let workspace = try Workspace()
        _ = try Self.seededDatabase(workspace)
        let result = try workspace.catalog(["check"])
        #expect(result.status == 0, "\(result)")
        #expect(result.output == "ok\n")
        let json = try workspace.catalog(["check", "--json"])
        #expect(json.status == 0, "\(json)")
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(object?["ok"] as? Bool == true)
        #expect((object?["problems"] as? [String])?.isEmpty == true)
    }

    @Test func aMissingFileIsNotCreated() throws {
        let workspace = try Workspace()
        let result = try workspace.catalog(["check"])
        #expect(result.status == 6, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: workspace.database))
    }

    @Test func anEmptyFileIsRefusedAndStaysEmpty() throws {
        let workspace = try Workspace()
        #expect(FileManager.default.createFile(atPath: workspace.database, contents: Data()))
        for arguments in [["check"], ["check", "--json"]] {
            let result = try workspace.catalog(arguments)
            #expect(result.status == 6, "\(result)")
            #expect(result.error == "catalog: error: \(workspace.database) is an empty file (0 bytes), not a catalog database; nothing was checked\n")
            #expect(fileBytes(workspace.database)?.isEmpty == true)
            #expect(["-wal", "-shm", "-journal"].allSatisfy { !FileManager.default.fileExists(atPath: workspace.database + $0) })
        }
    }

    /// An FTS5 index whose leaf pages no longer decode, in a file that opens and passes
    /// `integrity_check`: the damage is a problem listed like the others, in `--json` too.
    @Test func aDamagedFullTextLeafIsListed() throws {
        let workspace = try Workspace()
        let path = try Self.seededDatabase(workspace)
        try DatabaseCheck.withQueue(path) { db in
            try db.execute(sql: "UPDATE products_search_data SET block = randomblob(length(block)) WHERE id > 10")
        }
        let result = try workspace.catalog(["check"])
        #expect(result.status == 6, "\(result)")
        #expect(result.error.isEmpty, "\(result)")
        #expect(result.output.split(separator: "\n").contains { $0.hasPrefix("products_search") }, "\(result)")
        let json = try workspace.catalog(["check", "--json"])
        #expect(json.status == 6, "\(json)")
        #expect(json.error.isEmpty, "\(json)")
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(object?["ok"] as? Bool == false, "\(json)")
        #expect((object?["problems"] as? [String])?.contains { $0.hasPrefix("products_search") } == true, "\(json)")
    }

    enum Damage: String, CaseIterable, Sendable {
        case flippedBytes, overwrittenPage
    }

    /// Damages the middle of the file as the issue did: 300 bytes flipped, or one page overwritten.
    static func damage(_ path: String, _ damage: Damage) throws {
        var bytes = try #require(FileManager.default.contents(atPath: path))
        let pageSize = 4096
        switch damage {
        case .flippedBytes:
            let middle = bytes.count / 2
            for index in middle..<(middle + 300) { bytes[index] ^= 0xFF }
        case .overwrittenPage:
            let page = bytes.count / pageSize / 2
            var generator = SplitMix64(seed: 11)
            for index in (page * pageSize)..<((page + 1) * pageSize) { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        }
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    @Test(arguments: Damage.allCases)
    func damageToTheFileIsFound(_ damage: Damage) throws {
        let workspace = try Workspace()
        let path = try Self.seededDatabase(workspace)
        try Self.damage(path, damage)
        let result = try workspace.catalog(["check"])
        #expect(result.status == 6, "\(result)")
        #expect(!(result.output + result.error).isEmpty)
        #expect(result.output != "ok\n")
        let json = try workspace.catalog(["check", "--json"])
        #expect(json.status == 6, "\(json)")
    }

    /// The Commands article: `check` prints one line per problem (exit 6); only a file too damaged to open gets the
    /// one error line of any command. With `cell_size_check` on, SQLite stops `integrity_check` with
    /// `SQLITE_CORRUPT` at a page whose cell pointers point outside it, after reporting what it found:
    /// those lines are printed, not the bare error.
    @Test func damageThatStopsTheIntegrityCheckIsListed() throws {
        let workspace = try Workspace()
        let path = try Self.seededDatabase(workspace)
        let rootPage = try DatabaseCheck.withQueue(path) { db in
            try db.scalar(Int.self, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'products'")
        }
        let page = try #require(rootPage)
        var bytes = try #require(FileManager.default.contents(atPath: path))
        // The cell pointers after an interior page's 12-byte header, pointed past the page's end.
        let pointers = (page - 1) * 4096 + 12
        for index in pointers..<(pointers + 40) { bytes[index] = 0xFF }
        try bytes.write(to: URL(fileURLWithPath: path))

        let result = try workspace.catalog(["check"])
        #expect(result.status == 6, "\(result)")
        #expect(result.error.isEmpty, "\(result)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count > 1 && lines.allSatisfy { !$0.contains("\\n") }, "one line per problem: \(result)")
        #expect(lines.first?.hasPrefix("On tree page \(page)") == true, "\(result)")
        let json = try workspace.catalog(["check", "--json"])
        #expect(json.status == 6, "\(json)")
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(object?["ok"] as? Bool == false)
        #expect((object?["problems"] as? [String])?.isEmpty == false)
    }

    /// A write command checks a file of up to `quickCheckPageLimit` pages whole before it writes: it
    /// refuses a damaged one (exit 6) and changes nothing in it.
    @Test(arguments: Damage.allCases)
    func aWriteIntoADamagedFileIsRefused(_ damage: Damage) throws {
        let workspace = try Workspace()
        let path = try Self.seededDatabase(workspace)
        try Self.damage(path, damage)
        let bytes = fileBytes(path)
        for command in [["add", "product", "--type", "device", "--name", "Into Damage", "--year", "2000", "--price", "1"],
                        ["update", "1", "--name", "Renamed"], ["delete", "2"], ["seed", "--count", "10"]] {
            let result = try workspace.catalog(command)
            #expect(result.status == 6, "\(command): \(result)")
            #expect(result.error.hasPrefix("catalog: error: the database file is damaged"), "\(command): \(result)")
            #expect(result.error.split(separator: "\n").count == 1)
        }
        #expect(fileBytes(path) == bytes)
    }

    /// Each derived structure, changed behind the triggers' back, is named.
    @Test(arguments: [
        // (A product's rowid in the grams index carries its type above the id: migration 9.)
        ("INSERT INTO products_grams(products_grams, rowid, grams) VALUES ('delete', (SELECT id | (CASE type WHEN 'device' THEN 1 WHEN 'desktop' THEN 2 ELSE 3 END << 48) FROM products WHERE instr(name_folded, 'a') > 0 ORDER BY id LIMIT 1), '61')", "products_grams"),
        ("INSERT INTO products_grams(rowid, grams) VALUES (999999, '61 6970')", "products_grams"),
        ("UPDATE products_gram_counts SET count = count + 1 WHERE gram = 'a' AND type = 'device'", "products_gram_counts"),
        ("DELETE FROM products_gram_counts WHERE gram = 'ip' AND type = 'device'", "products_gram_counts"),
        // (Bit 0 of a row of bits flipped: `a`, in more than a sixteenth of the names, has bits: migration 11.)
        ("UPDATE products_gram_bits SET w0 = (w0 | 1) - (w0 & 1) WHERE gram = 'a' AND chunk = 0", "products_gram_bits"),
        ("UPDATE products SET name_folded = name_folded || 'x' WHERE id = 3", "products: 1 row's folded text"),
        ("UPDATE phones SET maker_folded = 'nobody' WHERE id = 2", "phones: 1 row's folded text"),
        ("INSERT INTO products_search(rowid, name_folded) VALUES (999999, 'stray')", "products_search"),
        ("INSERT INTO phones_search(rowid, name_folded, maker_folded) VALUES (999999, 'stray', 'x')", "phones_search"),
        ("UPDATE store_section_counts SET count = count + 1 WHERE table_name = 'products' AND key = 'device'", "store_section_counts: products by type"),
        ("DELETE FROM store_section_counts WHERE table_name = 'products' AND key = 'desktop'", "store_section_counts: products by type"),
    ])
    func aDerivedStructureThatDiffersFromTheNamesIsNamed(_ sql: String, _ named: String) throws {
        let workspace = try Workspace()
        let path = try Self.seededDatabase(workspace)
        try DatabaseCheck.withQueue(path) { db in try db.execute(sql: sql) }
        let result = try workspace.catalog(["check"])
        #expect(result.status == 6, "\(result)")
        #expect(result.output.split(separator: "\n").contains { $0.hasPrefix(named) }, "\(result)")
    }
}
