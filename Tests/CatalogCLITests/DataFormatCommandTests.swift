import Catalog
import Foundation
import TestSupport
import Testing

/// `--format` output, imports in every format, exact round trips with ids, and hostile input files.
struct DataFormatCommandTests {
    let workspace: Workspace
    var directory: TemporaryDirectory { workspace.directory }
    var database: String { workspace.database }

    init() throws {
        workspace = try Workspace()
    }

    @discardableResult
    private func catalog(_ arguments: [String], database: String? = nil, input: String? = nil) throws -> ProcessResult {
        try workspace.catalog(arguments, database: database, input: input)
    }

    private func write(_ bytes: [UInt8], to name: String) throws -> String {
        try workspace.write(Data(bytes), to: name)
    }

    // MARK: - Output

    /// Runs Python's `csv` module (an independent reader) on `csvPath` and compares each row with the
    /// JSON objects in `jsonPath` (their values as text), printing `same` or the first difference.
    private func pythonComparesCSV(_ csvPath: String, withJSON jsonPath: String, rowsOf shape: String) throws -> String {
        let script = """
            import csv, json, sys
            with open(sys.argv[1], newline='', encoding='utf-8') as f:
                rows = list(csv.DictReader(f))
            data = json.load(open(sys.argv[2], encoding='utf-8'))
            if sys.argv[3] == 'sections':
                objects = [dict(row, section=s['name']) for s in data['sections'] for row in s['rows']]
            else:
                objects = data
            text = lambda v: v if isinstance(v, str) else json.dumps(v)
            expected = [{k: text(v) for k, v in o.items()} for o in objects]
            print('same' if rows == expected else 'different: %r vs %r' % (rows[:2], expected[:2]))
            """
        let result = try ProcessRunner.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, csvPath, jsonPath, shape])
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines) + result.error
    }

    @Test func csvParsedByPythonEqualsTheJSONOutput() throws {
        try catalog(["seed"])
        let store = try CatalogStore(path: database)
        for name in ["Comma, \"Quoted\" Mac", "O'Brien's  iPod", "e\u{301}cran 👨‍👩‍👧 東京", "Line\u{2028}Sep"] {
            _ = try store.insert(Product(type: .portable, name: name, yearIntroduced: 2001, introPrice: 1299.99))
        }
        for (command, shape) in [(["list"], "sections"), (["search", "o"], "sections"), (["export"], "records"),
                                 (["export", "--entity", "phones"], "records")] {
            let csv = try catalog(command + ["--format", "csv"])
            let json = try catalog(command + ["--json"])
            #expect(csv.status == 0 && json.status == 0)
            #expect(csv.output.contains("\r\n"))
            let csvPath = try write(Array(csv.output.utf8), to: "out.csv")
            let jsonPath = try write(Array(json.output.utf8), to: "out.json")
            #expect(try pythonComparesCSV(csvPath, withJSON: jsonPath, rowsOf: shape) == "same", "\(command)")
        }
    }

    /// Every command that takes `--format` reads a format's name in any case (`--format CSV`), as the
    /// Commands article says.
    @Test func formatNamesAreReadInAnyCase() throws {
        try catalog(["seed"])
        for command in [["list"], ["search", "mac"], ["show", "0.0"], ["suggest", "mac"], ["export"]] {
            for format in ["json", "jsonl", "csv", "tsv"] {
                let lower = try catalog(command + ["--format", format])
                let upper = try catalog(command + ["--format", format.uppercased()])
                #expect(lower.status == 0 && upper.status == 0 && !upper.output.isEmpty, "\(command) \(format): \(upper)")
                #expect(upper.output == lower.output, "\(command) \(format)")
            }
        }
        #expect(try catalog(["list", "--format", "Table"]).output == (try catalog(["list"]).output))
        let table = try catalog(["export", "--format", "TABLE"])
        #expect(table.status == 64 && table.error.hasPrefix("Error: export writes json, jsonl, csv or tsv, not a table\n"), "\(table)")
        // `watch` runs until stopped: its `--format CSV` is read as csv, which `--json` contradicts.
        let watch = try catalog(["watch", "--format", "CSV", "--json"])
        #expect(watch.status == 64 && watch.error.hasPrefix("Error: --json and --format csv disagree"), "\(watch)")

        let file = try workspace.write(try catalog(["export", "--format", "csv"]).output, to: "products.txt")
        for command in [["import", file, "--format", "CSV", "--keep-ids"], ["seed", file, "--format", "Csv"]] {
            let result = try catalog(command, database: directory.path("copy.sqlite"))
            #expect(result.status == 0, "\(command): \(result)")
        }
        #expect(try catalog(["export"], database: directory.path("copy.sqlite")).output == (try catalog(["export"]).output))
    }

    @Test(arguments: StoreEngine.all) func everyCommandPrintsEveryFormat(engine: StoreEngine) throws {
        let workspace = try Workspace(engine: engine)
        @discardableResult func catalog(_ arguments: [String], database: String? = nil) throws -> ProcessResult {
            try workspace.catalog(arguments, database: database)
        }
        try catalog(["seed"])
        let jsonl = try catalog(["list", "--format", "jsonl", "--scope", "desktop"])
        #expect(jsonl.output == """
            {"id":6,"introPrice":1299,"name":"iMac","path":"0.0","section":"Desktop","type":"desktop","yearIntroduced":1997}
            {"id":7,"introPrice":2499,"name":"Mac Pro","path":"0.1","section":"Desktop","type":"desktop","yearIntroduced":2006}

            """)
        #expect(try catalog(["search", "mac", "pro", "--format", "tsv"]).output
            == "section\tpath\tid\ttype\tname\tyearIntroduced\tintroPrice\nDesktop\t0.0\t7\tdesktop\tMac Pro\t2006\t2499\nPortable\t1.0\t9\tportable\tMacBook Pro\t2006\t1499\n")
        #expect(try catalog(["show", "0.1", "--format", "csv"]).output
            == "path,id,type,name,yearIntroduced,introPrice\r\n0.1,7,desktop,Mac Pro,2006,2499\r\n")
        #expect(try catalog(["suggest", "macb", "--format", "csv"]).output == "name\r\nMacBook Air\r\nMacBook Pro\r\n")
        #expect(try catalog(["suggest", "macb", "--format", "jsonl"]).output == "{\"name\":\"MacBook Air\"}\n{\"name\":\"MacBook Pro\"}\n")
        #expect(try catalog(["export", "--format", "tsv", "--entity", "phones"]).output.hasPrefix(
            "id\tname\tmaker\tyearReleased\toperatingSystem\tscreenInches\n1\tiPhone\tApple\t2007\tiOS\t3.5\n"))
        let conflict = try catalog(["list", "--json", "--format", "csv"])
        #expect(conflict.status == 64)
        #expect(try catalog(["export", "--format", "table"]).status == 64)
    }

    @Test(arguments: StoreEngine.all) func emptyAndNoMatchesAreToldApartInJSONAndPrintNothingElsewhere(engine: StoreEngine) throws {
        let workspace = try Workspace(engine: engine)
        @discardableResult func catalog(_ arguments: [String], database: String? = nil) throws -> ProcessResult {
            try workspace.catalog(arguments, database: database)
        }
        func state(_ arguments: [String]) throws -> String? {
            let result = try catalog(arguments + ["--json"])
            let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
            return object?["state"] as? String
        }
        #expect(try state(["list"]) == "empty")
        #expect(try state(["search", "mac"]) == "empty")
        try catalog(["seed"])
        #expect(try state(["list"]) == "results")
        #expect(try state(["search", "zzz"]) == "noMatches")
        #expect(try state(["search", "mac", "--scope", "device"]) == "noMatches")
        for format in ["jsonl", "csv", "tsv"] {
            for arguments in [["search", "zzz"], ["list", "phones", "--search", "zzz"]] {
                let result = try catalog(arguments + ["--format", format])
                #expect(result.status == 0)
                #expect(result.output.isEmpty, "\(arguments) \(format): \(result)")
            }
        }
        #expect(try Workspace(engine: engine).catalog(["list", "--format", "csv"]).output.isEmpty)
    }

    // MARK: - Round trips

    /// Valid names in every script, with commas, quotes, apostrophes, several spaces, emoji
    /// sequences and decomposed (NFD) letters.
    static func randomName(_ random: inout SplitMix64, _ index: Int) -> String {
        let pieces = ["Mac", "iPod", ",", "\"", "'", "  ", "   ", "e\u{301}", "A\u{30A}", "é", "東京", "タワー", "ｶﾞ", "한국", "العربية",
                      "עברית", "हिन्दी", "ไทย", "Ελλάδα", "Россия", "👨‍👩‍👧", "🇯🇵", "👍🏽", "\\", "{", ";", "=1+1", "-", "0"]
        let body = (0...Int(random.next() % 6)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
        return "\(body) \(index)"
    }

    @Test(arguments: ["json", "jsonl", "csv", "tsv"])
    func exportThenImportKeepingIDsReproducesEveryRecord(format: String) throws {
        let store = try CatalogStore(path: database)
        var random = SplitMix64(seed: 15)
        for index in 0..<120 {
            let name = Self.randomName(&random, index)
            if random.next() % 3 == 0 {
                _ = try store.insert(Phone(name: name, maker: Self.randomName(&random, index), yearReleased: 2000 + index % 20,
                                           operatingSystem: "OS, \"x\"", screenInches: [5, 6.1, 6.67, 0.1][index % 4]))
            } else {
                _ = try store.insert(Product(type: ProductType.allCases[index % 3], name: name, yearIntroduced: 1990 + index % 30,
                                             introPrice: [0, 599, 1299.99, 0.01, 123456.5][index % 5]))
            }
            if random.next() % 5 == 0 { _ = try? store.delete(Product.self, id: Int64(index)) }  // gaps in the ids
        }
        let copy = directory.path("copy-\(format).sqlite")
        for entity in ["products", "phones"] {
            let file = directory.path("\(entity).\(format)")
            #expect(try catalog(["export", "--entity", entity, "--output", file]).status == 0)
            let imported = try catalog(["import", file, "--keep-ids", "--entity", entity], database: copy)
            #expect(imported.status == 0, "\(imported)")
            // Through standard input as well, into another copy.
            let piped = try catalog(["export", "--entity", entity, "--format", format])
            let viaInput = try catalog(["import", "-", "--format", format, "--keep-ids", "--entity", entity],
                                       database: copy + ".stdin", input: piped.output)
            #expect(viaInput.status == 0, "\(viaInput)")
        }
        for entity in ["products", "phones"] {
            let original = try catalog(["export", "--entity", entity])
            #expect(!original.output.isEmpty)
            #expect(try catalog(["export", "--entity", entity], database: copy).output == original.output, "\(format) \(entity)")
            #expect(try catalog(["export", "--entity", entity], database: copy + ".stdin").output == original.output)
        }
    }

    @Test func importWithoutKeepIDsGivesNewIDsAndUpdatesByName() throws {
        try catalog(["seed"])
        try catalog(["delete", "1"])
        let file = directory.path("products.csv")
        try catalog(["export", "--output", file])
        let copy = directory.path("copy.sqlite")
        #expect(try catalog(["import", file], database: copy).output == "Imported 8 new products and 0 new phones; updated 0.\n")
        #expect(try catalog(["show", "--id", "1", "--format", "csv"], database: copy).output.contains(",iPod,"))
        #expect(try catalog(["import", file], database: copy).output == "Imported 0 new products and 0 new phones; updated 8.\n")
    }

    /// Import, export and backups: with `--keep-ids`, "a name that another id holds is a conflict (exit 4)", said with the
    /// file and line, and nothing is written.
    @Test(arguments: StoreEngine.all) func keepingIDsANameAnotherIDHoldsIsAConflict(engine: StoreEngine) throws {
        let workspace = try Workspace(engine: engine)
        @discardableResult func catalog(_ arguments: [String], database: String? = nil) throws -> ProcessResult {
            try workspace.catalog(arguments, database: database)
        }
        try catalog(["seed"])
        let before = try catalog(["export", "--format", "jsonl"]).output
        let file = try write(Array("""
            {"id":100,"type":"device","name":"iPod classic","yearIntroduced":2001,"introPrice":249}
            {"id":1,"type":"device","name":"iPod","yearIntroduced":2001,"introPrice":399}
            """.utf8), to: "taken.jsonl")
        let result = try catalog(["import", file, "--keep-ids"])
        #expect(result.status == 4, "\(result)")
        #expect(result.error == "catalog: error: cannot use \(file): line 2: a product named \"iPod\" already exists; no record of the input was written\n")
        #expect(try catalog(["export", "--format", "jsonl"]).output == before)
    }

    /// Import, export and backups: product ids are from 0 to 2⁴⁸ − 1; a bad value in an import file is said with the file
    /// and line and exits 65, nothing written (not SQLite's trigger error, exit 1).
    @Test func keepingIDsAnIDOutsideTheProductsRangeIsInvalidInput() throws {
        try catalog(["seed"])
        let before = try catalog(["export", "--format", "jsonl"]).output
        for id in ["281474976710656", "-1"] {
            let file = try write(Array("""
                {"id":100,"type":"device","name":"iPod classic","yearIntroduced":2001,"introPrice":249}
                {"id":\(id),"type":"device","name":"iPod shuffle","yearIntroduced":2005,"introPrice":99}
                """.utf8), to: "range.jsonl")
            let result = try catalog(["import", file, "--keep-ids"])
            #expect(result.status == 65, "\(result)")
            #expect(result.error == "catalog: error: cannot use \(file): line 2: id \(id) is out of range: products have ids from 0 to 281474976710655; no record of the input was written\n")
            #expect(try catalog(["export", "--format", "jsonl"]).output == before)
        }
        let largest = try write(Array("""
            [{"id":281474976710655,"type":"device","name":"iPod shuffle","yearIntroduced":2005,"introPrice":99}]
            """.utf8), to: "largest.json")
        #expect(try catalog(["import", largest, "--keep-ids"]).status == 0)
    }

    @Test func importHonoursTheEntity() throws {
        try catalog(["seed"])
        let phones = directory.path("phones.json")
        try catalog(["export", "--entity", "phones", "--output", phones])
        let copy = directory.path("copy.sqlite")
        let wrong = try catalog(["import", phones], database: copy)
        #expect(wrong.status == 65)
        #expect(wrong.error == "catalog: error: cannot use \(phones): line 2: record \"iPhone\" is a phone, not a product (for phones, give --entity phones); no record of the input was written\n")
        #expect(try catalog(["import", phones, "--entity", "phones"], database: copy).status == 0)
        // A file of products with one phone in the middle: the phone is named.
        let mixed = try write(Array("""
            {"type":"device","name":"iPod","yearIntroduced":2001,"introPrice":399}
            {"name":"N95","maker":"Nokia","yearReleased":2007,"operatingSystem":"Symbian","screenInches":2.6}
            """.utf8), to: "mixed.jsonl")
        let result = try catalog(["import", mixed], database: copy)
        #expect(result.error.contains("line 2: record \"N95\" is a phone"), "\(result)")
        #expect(try catalog(["list", "--format", "jsonl"], database: copy).output.isEmpty)
    }

    @Test(arguments: StoreEngine.all) func seedReadsEveryFormatAndTellsTheEntity(engine: StoreEngine) throws {
        let workspace = try Workspace(engine: engine)
        @discardableResult func catalog(_ arguments: [String], database: String? = nil) throws -> ProcessResult {
            try workspace.catalog(arguments, database: database)
        }
        let phones = try write(Array("name,maker,yearReleased,operatingSystem,screenInches\r\nN95,Nokia,2007,Symbian,2.6\r\n".utf8), to: "phones.csv")
        let products = try write(Array("type\tname\tyearIntroduced\tintroPrice\ndevice\tiPod\t2001\t399\n".utf8), to: "products.tsv")
        let result = try catalog(["seed", phones, products])
        #expect(result.output == "Added 1 product and 1 phone (0 already there).\n", "\(result)")
        #expect(result.error.isEmpty, "no progress when piped")
        let count = try catalog(["seed", "--count", "5000"])
        #expect(count.status == 0)
        #expect(count.error.isEmpty)
    }

    /// Runs `catalog` with its standard streams on a terminal (`script` gives it one) and returns what
    /// the terminal showed.
    private func onATerminal(_ arguments: [String]) throws -> String {
        let command = ([ProcessRunner.productsDirectory.appendingPathComponent("catalog").path] + arguments + ["--database", database])
            .map { "'" + $0 + "'" }.joined(separator: " ")
        let result = try ProcessRunner.run(executable: URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"])
        #expect(result.status == 0, "\(result)")
        return result.output
    }

    @Test func progressShowsOnATerminalWithItsLastLineOnce() throws {
        let seeding = try onATerminal(["seed", "--count", "5000"]).split(separator: "\n")
        #expect(seeding.filter { $0.contains("seeding:") }.count == 1, "\(seeding)")
        #expect(seeding.first { $0.contains("seeding:") }?.contains("seeding: 5,000 records, ") == true, "\(seeding)")
        let file = directory.path("products.csv")
        let exporting = try onATerminal(["export", "--output", file]).split(separator: "\n")
        #expect(exporting.filter { $0.contains("exporting: 5,000 records, ") }.count == 1, "\(exporting)")
        let importing = try onATerminal(["import", file, "--keep-ids"]).split(separator: "\n")
        #expect(importing.filter { $0.contains("importing: 5,000 records, ") }.count == 1, "\(importing)")
    }

    // MARK: - Hostile files

    @Test func hostileCSVIsOneLineWithItsLineNumberAndWritesNothing() throws {
        try catalog(["seed"])
        let before = try catalog(["export"]).output
        let header = "type,name,yearIntroduced,introPrice\n"
        let good = "device,Good,2001,1\n"
        let cases: [(String, [UInt8], String)] = [
            ("unbalanced quotes", Array((header + good + "device,\"Bad,2001,1\n" + good).utf8), "line 3, column 8: the quoted field that starts here has no closing quote"),
            ("a header alone, with an unknown column", Array("type,name,yearIntroduced,introPrice,colour\n".utf8),
             "line 1: unknown column colour"),
            ("duplicate headers", Array("type,name,name,introPrice\ndevice,a,b,1\n".utf8), "line 1, column 3: the column \"name\" appears twice in the header"),
            ("a BOM in the middle", Array((header + good).utf8) + [0xEF, 0xBB, 0xBF] + Array("device,Twin,2001,1\n".utf8),
             "line 3, column 1 (type): the text holds a byte-order mark"),
            ("a 10 MB field", Array((header + good + "device,\"" + String(repeating: "x", count: 10_000_000) + "\",2001,1\n").utf8),
             "line 3, column 8: a value longer than 1 MiB"),
            ("invalid UTF-8", Array((header + good + "device,").utf8) + [0xC3, 0x28] + Array(",2001,1\n".utf8), "line 3, column 2 (name): the value is not valid UTF-8 text"),
            ("a long name", Array((header + "device," + String(repeating: "y", count: 300) + ",2001,1\n").utf8), "line 2, column 2 (name): invalid name"),
            ("an unknown column", Array("type,name,colour\ndevice,x,red\n".utf8), "line 1: unknown column colour"),
            ("a missing column", Array("type,name,yearIntroduced\ndevice,x,2001\n".utf8), "line 1: missing column introPrice"),
            ("a bad number", Array((header + good + "device,x,2001,1.2.3\n").utf8), "line 3, column 4 (introPrice): expected a number"),
        ]
        for (label, bytes, message) in cases {
            let path = try write(bytes, to: "hostile.csv")
            for command in ["import", "seed"] {
                let result = try catalog([command, path])
                #expect(result.status == 65, "\(label) (\(command)): \(result)")
                #expect(result.error.hasPrefix("catalog: error: cannot use \(path): \(message)"), "\(label) (\(command)): \(result.error.prefix(300))")
                #expect(result.error.filter { $0 == "\n" }.count == 1, "\(label): one line")
            }
        }
        #expect(try catalog(["export"]).output == before)
    }

    /// An export of no records (a CSV or TSV header alone, `[]`, nothing) imports as no records, in
    /// every format.
    @Test(arguments: ["json", "jsonl", "csv", "tsv"])
    func anEmptyExportImportsAsNoRecords(format: String) throws {
        let empty = directory.path("empty-\(format).sqlite")
        let file = directory.path("phones.\(format)")
        let export = try catalog(["export", "--entity", "phones", "--format", format, "--output", file], database: empty)
        #expect(export.status == 0, "\(export)")
        let copy = directory.path("copy-\(format).sqlite")
        for command in [["import", file, "--entity", "phones", "--keep-ids"], ["seed", file]] {
            let result = try catalog(command, database: copy)
            #expect(result.status == 0, "\(command): \(result)")
            #expect(result.error.isEmpty)
        }
        let piped = try catalog(["import", "-", "--format", format, "--entity", "phones", "--json"], database: copy,
                                input: String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self))
        #expect(piped.status == 0, "\(piped)")
        #expect(piped.output.contains("\"phonesInserted\" : 0"), "\(piped)")
        #expect(try catalog(["export", "--entity", "phones", "--format", format], database: copy).output
            == String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self))
    }

    /// Counts in messages are singular for 1: `1 phone`, `1 new product`, `1 record`.
    @Test func oneOfAThingIsSingular() throws {
        let phone = try workspace.write(
            "name,maker,yearReleased,operatingSystem,screenInches\nZ1,Zed,2020,Android,6\n", to: "one-phone.csv")
        #expect(try catalog(["seed", phone]).output == "Added 0 products and 1 phone (0 already there).\n")
        let product = try workspace.write("type,name,yearIntroduced,introPrice\ndevice,Y1,2020,1\n", to: "one-product.csv")
        #expect(try catalog(["import", product]).output == "Imported 1 new product and 0 new phones; updated 0.\n")
        #expect(try catalog(["import", product]).output == "Imported 0 new products and 0 new phones; updated 1.\n")
        let terminal = try onATerminal(["export", "--output", directory.path("out.csv")])
        #expect(terminal.contains("exporting: 1 record, "), "\(terminal)")
    }

    @Test func aFileOfUnknownFormatAsksForOne() throws {
        let path = try write(Array("type,name\n".utf8), to: "products.txt")
        let result = try catalog(["import", path])
        #expect(result.status == 65)
        #expect(result.error.contains("give --format json, jsonl, csv or tsv"))
        #expect(try catalog(["import", "-"], input: #"[{"type":"device","name":"x","yearIntroduced":2001,"introPrice":1}]"#).status == 0)
        #expect(try catalog(["import", "-", "-"]).status == 64)
    }
}
