import Catalog
import Foundation
import TestSupport
import Testing

/// Whatever a user types or feeds in, `catalog` answers with one error line and a usage (64) or
/// invalid-input (65) exit, and writes nothing.
struct HostileInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let status: Int32
        let message: String
        var testDescription: String { arguments.joined(separator: " ").prefix(70) + " → \(status)" }
    }

    static func addProduct(name: String = "Hostile", type: String = "device", year: String = "2000", price: String = "1") -> [String] {
        ["add", "product", "--type", type, "--name", name, "--year=" + year, "--price=" + price]
    }

    static func addPhone(maker: String = "Maker", os: String = "OS", screen: String = "6.1") -> [String] {
        ["add", "phone", "--name", "Hostile", "--maker", maker, "--year", "2020", "--os", os, "--screen=" + screen]
    }

    static let cases: [Case] = [
        // Names.
        Case(arguments: addProduct(name: ""), status: 65, message: "invalid name \"\": must not be empty"),
        Case(arguments: addProduct(name: " \t "), status: 65, message: "must not be empty"),
        Case(arguments: addProduct(name: String(repeating: "x", count: 100_000)), status: 65, message: "longer than 200 characters"),
        Case(arguments: addProduct(name: String(repeating: "é", count: 201)), status: 65, message: "longer than 200 characters"),
        Case(arguments: addProduct(name: "bell\u{7}"), status: 65, message: "contains control characters"),
        Case(arguments: addProduct(name: "line\nbreak"), status: 65, message: "contains control characters"),
        Case(arguments: addProduct(name: "esc\u{1B}[31m"), status: 65, message: "contains control characters"),
        Case(arguments: addProduct(name: "del\u{7F}"), status: 65, message: "contains control characters"),
        Case(arguments: addProduct(name: "bad\u{FFFD}bytes"), status: 65, message: "is not valid UTF-8 text"),
        Case(arguments: addPhone(maker: "\u{1}"), status: 65, message: "invalid maker"),
        Case(arguments: addPhone(os: ""), status: 65, message: "invalid os"),
        // Types.
        Case(arguments: addProduct(type: "gadget"), status: 65, message: "invalid type \"gadget\""),
        Case(arguments: addProduct(type: ""), status: 65, message: "invalid type"),
        // Numbers.
        Case(arguments: addProduct(year: "-5"), status: 65, message: "invalid year \"-5\""),
        Case(arguments: addProduct(year: "+2000"), status: 65, message: "invalid year"),
        Case(arguments: addProduct(year: "2000.5"), status: 65, message: "invalid year"),
        Case(arguments: addProduct(year: "99999999999999999999"), status: 65, message: "invalid year"),
        Case(arguments: addProduct(year: "0x7D0"), status: 65, message: "invalid year"),
        Case(arguments: addProduct(year: "٢٠٠٠"), status: 65, message: "invalid year"),
        Case(arguments: addProduct(year: "3000"), status: 65, message: "expected a year from 1900 to 2100"),
        Case(arguments: addProduct(year: ""), status: 64, message: "Missing value for '--year <year>'"),
        Case(arguments: addProduct(price: "-1"), status: 65, message: "invalid price \"-1\""),
        Case(arguments: addProduct(price: "nan"), status: 65, message: "invalid price"),
        Case(arguments: addProduct(price: "NaN"), status: 65, message: "invalid price"),
        Case(arguments: addProduct(price: "inf"), status: 65, message: "invalid price"),
        Case(arguments: addProduct(price: "-infinity"), status: 65, message: "invalid price"),
        Case(arguments: addProduct(price: "1e400"), status: 65, message: "invalid price"),
        Case(arguments: addProduct(price: "1e3"), status: 65, message: "invalid price"),
        Case(arguments: addProduct(price: "0x10"), status: 65, message: "invalid price"),
        Case(arguments: addProduct(price: "1,000"), status: 65, message: "invalid price"),
        Case(arguments: addProduct(price: "1.2.3"), status: 65, message: "invalid price"),
        Case(arguments: addProduct(price: ".5"), status: 65, message: "invalid price"),
        Case(arguments: addProduct(price: "5."), status: 65, message: "invalid price"),
        Case(arguments: addProduct(price: "99999999999"), status: 65, message: "expected a number from 0 to 1000000000"),
        Case(arguments: addProduct(price: String(repeating: "9", count: 400)), status: 65, message: "invalid price"),
        Case(arguments: addPhone(screen: "-0.5"), status: 65, message: "invalid screen"),
        Case(arguments: addPhone(screen: "nan"), status: 65, message: "invalid screen"),
        // Ids, counts and index paths.
        Case(arguments: ["delete", "-1"], status: 64, message: "Error: "),
        Case(arguments: ["delete", "abc"], status: 64, message: "Error: "),
        Case(arguments: ["delete", "1.5"], status: 64, message: "Error: "),
        Case(arguments: ["delete", "99999999999999999999"], status: 64, message: "Error: "),
        Case(arguments: ["delete", "999999"], status: 3, message: "no product with id 999999"),
        Case(arguments: ["show", "--id", "-7"], status: 64, message: "Error: "),
        Case(arguments: ["seed", "--count=-1"], status: 64, message: "--count must be from 0 to 10000000"),
        Case(arguments: ["seed", "--count", "1e3"], status: 64, message: "Error: "),
        Case(arguments: ["seed", "--count", "5", "--seed=-1"], status: 64, message: "Error: "),
        Case(arguments: ["show", "-1.0"], status: 64, message: "Error: "),
        Case(arguments: ["show", "1."], status: 64, message: "invalid index path \"1.\""),
        Case(arguments: ["show", "a.b"], status: 64, message: "invalid index path \"a.b\""),
        Case(arguments: ["show", "0.-1"], status: 64, message: "invalid index path"),
        Case(arguments: ["show", "١.٢"], status: 64, message: "invalid index path"),
        Case(arguments: ["show", "9999999999.0"], status: 64, message: "invalid index path"),
        Case(arguments: ["show", "99.99"], status: 3, message: "no row at 99.99"),
        Case(arguments: ["show", "999999999.999999999"], status: 3, message: "no row at 999999999.999999999"),
        // Databases that are no file.
        Case(arguments: ["add", "product", "--type", "device", "--name", "X", "--year", "2000", "--price", "1", "--database", ""],
             status: 64, message: "--database needs the path of a file"),
        Case(arguments: ["add", "product", "--type", "device", "--name", "X", "--year", "2000", "--price", "1", "--database", ":memory:"],
             status: 64, message: "--database needs the path of a file"),
    ]

    @Test(arguments: cases)
    func isRefusedWithOneLineAndChangesNothing(_ input: Case) throws {
        let workspace = try Workspace()
        #expect(try workspace.catalog(["seed"]).status == 0)
        let before = fileBytes(workspace.database)
        let result = input.arguments.contains("--database")
            ? try ProcessRunner.run("catalog", input.arguments, home: workspace.path("home"))
            : try workspace.catalog(input.arguments)
        #expect(result.status == input.status, "\(result)")
        #expect(result.error.contains(input.message), "\(result)")
        #expect(result.output.isEmpty)
        if input.status != 64 {
            #expect(result.error.hasPrefix("catalog: error: ") && result.error.split(separator: "\n").count == 1, "\(result)")
        }
        #expect(fileBytes(workspace.database) == before)
        #expect(!result.error.contains("Fatal error"))
    }

    // MARK: - Seed and import files

    static let badFiles: [(name: String, bytes: [UInt8], message: String)] = [
        ("empty", [], "line 1, column 1: the file is empty"),
        ("truncated", Array(#"[{"type":"device","name":"A","#.utf8), "line 1, column 30: expected a field name in quotes"),
        ("object", Array(#"{"type":"device"}"#.utf8), "line 1, column 2: expected a JSON array of objects"),
        ("numbers", Array("[1, 2, 3]".utf8), "line 1, column 2: expected an object ({ … }) for each record"),
        ("nested", Array(String(repeating: "[", count: 200_000).utf8), "line 1, column 2: expected an object"),
        ("latin1", Array(#"[{"type":"device","name":"Caf"#.utf8) + [0xE9] + Array(#"","yearIntroduced":2001,"introPrice":1}]"#.utf8),
         "line 1, column 26: the text is not valid UTF-8"),
        ("nul", Array(#"[{"type":"device","name":"a\u0000b","yearIntroduced":2001,"introPrice":1}]"#.utf8), "line 1, column 26 (name): invalid name \"a\\0b\": contains control characters"),
        ("longName", Array(#"[{"type":"device","name":""#.utf8) + Array(repeating: UInt8(ascii: "n"), count: 100_000)
            + Array(#"","yearIntroduced":2001,"introPrice":1}]"#.utf8), "longer than 200 characters"),
        ("stringPrice", Array(#"[{"type":"device","name":"A","yearIntroduced":2001,"introPrice":"1"}]"#.utf8), "line 1, column 65 (introPrice): expected a number, found text"),
        ("fractionalYear", Array(#"[{"type":"device","name":"A","yearIntroduced":2001.5,"introPrice":1}]"#.utf8), "(yearIntroduced): expected a whole number, found \"2001.5\""),
        ("hugeYear", Array(#"[{"type":"device","name":"A","yearIntroduced":1e30,"introPrice":1}]"#.utf8), "(yearIntroduced): expected a whole number"),
        ("hugePrice", Array(#"[{"type":"device","name":"A","yearIntroduced":2001,"introPrice":1e400}]"#.utf8), "(introPrice): expected a number such as 599.99, found \"1e400\""),
        ("negativePrice", Array(#"[{"type":"device","name":"A","yearIntroduced":2001,"introPrice":-1}]"#.utf8), "line 1, column 65 (introPrice): invalid price"),
        ("nullName", Array(#"[{"type":"device","name":null,"yearIntroduced":2001,"introPrice":1}]"#.utf8), "line 1, column 26 (name): missing value (null)"),
        ("mixed", Array(#"[{"type":"device","name":"A","yearIntroduced":2001,"introPrice":1},{"name":"P","maker":"M","yearReleased":2001,"operatingSystem":"o","screenInches":1}]"#.utf8),
         "line 1: record \"P\" is a phone, not a product"),
    ]

    @Test func badSeedAndImportFilesAreInvalidInputAndAddNothing() throws {
        let workspace = try Workspace()
        #expect(try workspace.catalog(["seed"]).status == 0)
        let before = fileBytes(workspace.database)
        let good = try workspace.write(#"[{"type":"device","name":"Good","yearIntroduced":2001,"introPrice":1}]"#, to: "good.json")
        for file in Self.badFiles {
            let path = try workspace.write(Data(file.bytes), to: file.name + ".json")
            for command in ["seed", "import"] {
                // A good file first: the bad one must take it down with it (one transaction).
                let result = try workspace.catalog([command, good, path])
                #expect(result.status == 65, "\(file.name), \(command): \(result)")
                #expect(result.error.hasPrefix("catalog: error: cannot use \(path): "), "\(file.name): \(result)")
                #expect(result.error.contains(file.message), "\(file.name): \(result)")
                #expect(result.error.split(separator: "\n").count == 1, "\(file.name): \(result)")
                #expect(fileBytes(workspace.database) == before, "\(file.name), \(command) wrote")
            }
        }
        #expect(try workspace.catalog(["seed", workspace.path("missing.json")]).status == 66)
        #expect(try workspace.catalog(["seed", workspace.directory.url.path]).status == 66)
    }

    /// JSON lines hold one object per line: a second one on the same line is refused, where it starts.
    @Test func twoObjectsOnOneLineAreRefused() throws {
        let workspace = try Workspace()
        #expect(try workspace.catalog(["seed"]).status == 0)
        let before = fileBytes(workspace.database)
        let path = try workspace.write(
            #"{"type":"device","name":"A","yearIntroduced":2001,"introPrice":1}{"type":"device","name":"B","yearIntroduced":2001,"introPrice":1}"#,
            to: "two.jsonl")
        for command in ["seed", "import"] {
            let result = try workspace.catalog([command, path])
            #expect(result.status == 65, "\(command): \(result)")
            #expect(result.error == "catalog: error: cannot use \(path): line 1, column 66: unexpected text after the record: JSON lines hold one object per line; no record of the input was written\n", "\(command): \(result)")
            #expect(fileBytes(workspace.database) == before)
        }
    }

    @Test func duplicatesInAFileAreSkippedWhenSeedingAndTheLastWinsWhenImporting() throws {
        let workspace = try Workspace()
        let file = try workspace.write(#"""
            [{"type":"device","name":"Twin","yearIntroduced":2001,"introPrice":1},
             {"type":"portable","name":"Twin","yearIntroduced":2002,"introPrice":2}]
            """#, to: "twins.json")
        let seed = try workspace.catalog(["seed", file])
        #expect(seed.output == "Added 1 product and 0 phones (1 already there).\n", "\(seed)")
        #expect(try workspace.catalog(["show", "--id", "1", "--json"]).output.contains(#""type" : "device""#))
        let imported = try workspace.catalog(["import", file])
        #expect(imported.output == "Imported 0 new products and 0 new phones; updated 2.\n", "\(imported)")
        #expect(try workspace.catalog(["show", "--id", "1", "--json"]).output.contains(#""type" : "portable""#))
        #expect(try DatabaseCheck.count("products", workspace.database) == 1)
    }
}
