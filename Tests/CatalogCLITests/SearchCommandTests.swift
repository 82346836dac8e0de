import Foundation
import TestSupport
import Testing

/// `catalog search` and `catalog suggest`, run as the built binary on a temp database.
struct SearchCommandTests {
    let workspace: Workspace

    init() throws {
        workspace = try Self.seeded(.sqlite)
    }

    /// A catalog of `engine` with the built-in seeds.
    private static func seeded(_ engine: StoreEngine) throws -> Workspace {
        let workspace = try Workspace(engine: engine)
        #expect(try workspace.catalog("seed").status == 0)
        return workspace
    }

    @Test(arguments: StoreEngine.all) func searchPrintsSectionsWithIndexPaths(engine: StoreEngine) throws {
        let workspace = try Self.seeded(engine)
        let result = try workspace.catalog(["search", "mac", "--scope", "desktop"])
        #expect(result.status == 0)
        #expect(result.output == """
            PATH  NAME     TYPE     YEAR     PRICE  ID
            Desktop (2)
            0.0   iMac     desktop  1997  1,299.00   6
            0.1   Mac Pro  desktop  2006  2,499.00   7

            """)
        let shown = try workspace.catalog(["show", "0.1", "--search", "mac", "--scope", "desktop"])
        #expect(shown.output.contains("Mac Pro"))
    }

    /// A price as `show` prints it (`$1,299.00`) finds the product on each engine, as the Search
    /// semantics article's currency sign says: the same rows as the number without it.
    @Test(arguments: StoreEngine.all) func aPriceAsShowPrintsItFindsTheProduct(engine: StoreEngine) throws {
        let workspace = try Self.seeded(engine)
        let shown = try workspace.catalog(["show", "0.0", "--search", "mac", "--scope", "desktop"])
        #expect(shown.output.contains("$1,299.00"), "\(shown)")
        let found = try workspace.catalog(["search", "$1,299.00"])
        #expect(found.status == 0 && found.output.contains("iMac"), "\(found)")
        #expect(found.output == (try workspace.catalog(["search", "1,299.00"])).output)
    }

    /// `CATALOG_TRACE_SQL=1`: each statement with its time on standard error, bound values in place;
    /// standard output as without it.
    @Test func traceSQLPrintsEachStatementWithItsTime() throws {
        let plain = try workspace.catalog(["show", "0.0", "--search", "mac"])
        let traced = try workspace.catalog(["show", "0.0", "--search", "mac"], environment: ["CATALOG_TRACE_SQL": "1"])
        #expect(traced.status == 0 && traced.output == plain.output)
        let lines = traced.error.split(separator: "\n")
        #expect(lines.contains { $0.wholeMatch(of: #/catalog: sql \d+\.\d{3} ms: SELECT .*mac.*/#) != nil })
        #expect(lines.allSatisfy { $0.hasPrefix("catalog: sql ") })
        #expect(try workspace.catalog(["show", "0.0", "--search", "mac"], environment: ["CATALOG_TRACE_SQL": "0"]).error == "")
    }

    @Test(arguments: StoreEngine.all) func noMatchIsToldApartFromAnEmptyStore(engine: StoreEngine) throws {
        let workspace = try Self.seeded(engine)
        #expect(try workspace.catalog(["search", "zzz"]).output == "No results for \"zzz\"\n")
        let result = try Workspace(engine: engine).catalog(["search", "mac"])
        #expect(result.output.hasPrefix("No products yet — "))
    }

    @Test(arguments: StoreEngine.all) func suggestCompletesNames(engine: StoreEngine) throws {
        let workspace = try Self.seeded(engine)
        #expect(try workspace.catalog(["suggest", "macb"]).output == "MacBook Air\nMacBook Pro\n")
        #expect(try workspace.catalog(["suggest", "i", "--limit", "2", "--json"]).output == "[\n  \"iMac\",\n  \"iPad\"\n]\n")
    }

    @Test(arguments: ["\"", "*", "^", ":", "(", ")", "-", "--x", "-s", "AND", "OR", "NOT", "NEAR", "NEAR(a b, 2)", "a OR b",
                      "'; DROP TABLE products; --", "\u{1}", "\u{7F}", "\\", "%", "_", "{name_folded}: x", "\"mac\" *",
                      String(repeating: "x\"*", count: 3_334)])
    /// Text that looks like an option goes after `--`, or in `--search=…`, as with any command.
    func hostileInputExitsZeroWithoutError(_ text: String) throws {
        try hostileInputExitsZeroWithoutError(text, workspace)
    }

    /// The same hostile texts on PostgreSQL (its own SQL and search structures), a few at a time.
    @Test(arguments: ["'; DROP TABLE products; --", "%", "_", "\\", "\u{1}", "NEAR(a b, 2)", String(repeating: "x\"*", count: 3_334)])
    func hostileInputExitsZeroWithoutErrorOnAServer(_ text: String) throws {
        guard StoreEngine.all.contains(.postgreSQL) else { return }
        try hostileInputExitsZeroWithoutError(text, try Self.seeded(.postgreSQL))
    }

    private func hostileInputExitsZeroWithoutError(_ text: String, _ workspace: Workspace) throws {
        for command in [["search", text], ["search", "--entity", "phones", text], ["list", "--search=" + text], ["suggest", "--", text]] {
            let result = try workspace.catalog(command)
            #expect(result.status == 0, "\(command.prefix(4)): \(result.error)")
            // A replica that lags (a loaded machine) is skipped with a line, as the Commands article says.
            #expect(result.error.split(separator: "\n").allSatisfy { $0.hasPrefix("catalog: replica ") }, "\(result.error)")
        }
    }

    /// `search --search=X`, `search --search X`, `search X` and `search -- X` print the same, whatever
    /// X starts with; a text that matches nothing is quoted as typed.
    @Test(arguments: ["mac", "\u{301}mac", "\u{FE0F}", "\u{3099}", "\u{1F3FD}", "\u{301}", "a'", "ﾃﾞ", "--", "ｍａｃ ｐｒｏ"])
    func everyArgumentFormSearchesTheSame(_ text: String) throws {
        // A text that starts with `-` reads as an option unless it follows `=` or `--`.
        let forms = [["--search=" + text], ["--", text]] + (text.hasPrefix("-") ? [] : [["--search", text], [text]])
        let results = try forms.map { try workspace.catalog(["search"] + $0) }
        for (form, result) in zip(forms, results) {
            #expect(result.status == 0 && result.output == results[0].output, "\(form): \(result)")
        }
        if results[0].output.hasPrefix("No results") {
            #expect(results[0].output == "No results for \"\(text)\"\n")
        }
    }

    /// README and Commands: every word a substring of the folded name, in any script; the folding of
    /// TextSearch's "Search semantics" (width, NFC, full case folding, Latin, Greek and Cyrillic
    /// diacritics). Names imported from a file, searched through the binary; the expected names are
    /// worked out by hand from that definition.
    @Test(arguments: StoreEngine.all) func importedNamesInEveryScriptAreFoundByTheirFoldedWords(engine: StoreEngine) throws {
        let workspace = try Workspace(engine: engine)
        let names = [
            "東京 Phone", "Café Crème", "Cafe\u{301} Noir", "Привет Мир", "Йогурт", "مرحبا بالعالم", "שלום עולם",
            "नमस्ते दुनिया", "สวัสดีชาวโลก", "안녕하세요 세계", "Γειά σου Κόσμε", "Straße", "ＡＢＣ full",
        ]
        let lines = try names.map { name in
            let record: [String: Any] = ["type": "device", "name": name, "yearIntroduced": 2020, "introPrice": 100]
            return String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self)
        }
        let file = try workspace.write(lines.joined(separator: "\n") + "\n", to: "names.jsonl")
        #expect(try workspace.catalog("import", file).output == "Imported 13 new products and 0 new phones; updated 0.\n")
        let cases: [(String, Set<String>)] = [
            ("京", ["東京 Phone"]), ("東京 phone", ["東京 Phone"]),
            ("cafe", ["Café Crème", "Café Noir"]), ("CAFÉ", ["Café Crème", "Café Noir"]), ("cafe\u{301} noir", ["Café Noir"]),
            ("creme", ["Café Crème"]), ("мир", ["Привет Мир"]), ("ПРИВЕТ", ["Привет Мир"]), ("иогурт", ["Йогурт"]),
            ("بالعالم", ["مرحبا بالعالم"]), ("עולם", ["שלום עולם"]), ("दुनिया", ["नमस्ते दुनिया"]), ("ชาว", ["สวัสดีชาวโลก"]),
            ("세계", ["안녕하세요 세계"]), ("κοσμε", ["Γειά σου Κόσμε"]), ("ΣΟΥ", ["Γειά σου Κόσμε"]),
            ("strasse", ["Straße"]), ("ß", ["Straße"]), ("abc", ["ＡＢＣ full"]), ("ａｂｃ ＦＵＬＬ", ["ＡＢＣ full"]),
            ("мир cafe", []),
        ]
        for (text, expected) in cases {
            let result = try workspace.catalog("search", text, "--format", "jsonl")
            #expect(result.status == 0, "\(text): \(result)")
            let found = try result.output.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["name"] as? String
            }
            // Names compare as Swift strings do: canonically equivalent spellings (NFC, NFD) are equal.
            #expect(Set(found.compactMap { $0 }) == expected, "\(engine) \(text): \(result)")
        }
    }

    @Test(arguments: StoreEngine.all) func halfWidthKanaFindFullWidthNames(engine: StoreEngine) throws {
        let workspace = try Self.seeded(engine)
        #expect(try workspace.catalog(["add", "product", "--type", "device", "--name", "デジタル カメラ", "--year", "2020", "--price", "1"]).status == 0)
        #expect(try workspace.catalog(["search", "ﾃﾞｼﾞﾀﾙ"]).output.contains("デジタル カメラ"))
        #expect(try workspace.catalog(["suggest", "ﾃﾞ"]).output == "デジタル カメラ\n")
    }
}
