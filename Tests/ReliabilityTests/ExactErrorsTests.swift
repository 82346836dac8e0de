import Catalog
import Foundation
import TestSupport
import Testing

/// Every error says what the user did, in one line, with the documented exit code.
struct ExactErrorsTests {
    /// Runs `catalog` with exactly `arguments` (no `--database` added) and `environment`.
    private func run(_ arguments: [String], _ workspace: Workspace, environment: [String: String] = [:]) throws -> ProcessResult {
        try ProcessRunner.run("catalog", arguments, environment: environment, home: workspace.path("home"))
    }

    @Test(arguments: [
        ("CATALOG_BUSY_TIMEOUT_MS", "abc"), ("CATALOG_BUSY_TIMEOUT_MS", "-1"), ("CATALOG_BUSY_TIMEOUT_MS", "1e3"),
        ("CATALOG_BUSY_TIMEOUT_MS", ""), ("CATALOG_BUSY_TIMEOUT_MS", "86400001"), ("CATALOG_BUSY_TIMEOUT_MS", "99999999999999999999"),
        ("CATALOG_MAX_PAGE_COUNT", "0"), ("CATALOG_MAX_PAGE_COUNT", "ten"), ("CATALOG_MAX_PAGE_COUNT", " 5"),
        ("CATALOG_MAX_PAGE_COUNT", "4294967295"),
    ])
    func aMalformedEnvironmentVariableIsAUsageError(_ name: String, _ value: String) throws {
        let workspace = try Workspace()
        let result = try workspace.catalog(["list"], environment: [name: value])
        #expect(result.status == 64, "\(result)")
        #expect(result.error.hasPrefix("catalog: error: \(name) must be a whole number"), "\(result)")
        #expect(result.error.split(separator: "\n").count == 1, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: workspace.database))
    }

    @Test func anEmptyOrInMemoryDatabaseVariableIsRefused() throws {
        let workspace = try Workspace()
        for value in ["", ":memory:"] {
            let result = try run(["list"], workspace, environment: ["CATALOG_DATABASE": value])
            #expect(result.status == 64, "\(result)")
            #expect(result.error == "catalog: error: CATALOG_DATABASE needs the path of a file, not \(String(reflecting: value))\n")
        }
        let result = try run(["list", "--database", ""], workspace)
        #expect(result.status == 64, "\(result)")
        #expect(result.error == "catalog: error: --database needs the path of a file, not \"\"\n")
        #expect(!FileManager.default.fileExists(atPath: workspace.path("home/data/catalog")), "the default database is not used instead")
    }

    @Test func aPathWithControlCharactersIsEscapedOnOneLine() throws {
        let workspace = try Workspace()
        let path = workspace.path("missing\ncatalog: error: forged\u{1B}[2J/catalog.sqlite")
        let result = try workspace.catalog(["list"], database: path)
        #expect(result.status == 6, "\(result)")
        #expect(result.error.split(separator: "\n").count == 1, "\(result)")
        #expect(result.error.contains("missing\\ncatalog: error: forged\\u{1B}[2J/catalog.sqlite"), "\(result)")
    }

    @Test func aNegativeNumberIsAnInvalidValueNotAMissingOne() throws {
        let workspace = try Workspace()
        #expect(try workspace.catalog(["seed"]).status == 0)
        for (option, value) in [("--price", "-0"), ("--year", "-2000"), ("--price", "-1.5")] {
            var arguments = ["add", "product", "--type", "device", "--name", "Minus", "--year", "2000", "--price", "1"]
            arguments[arguments.firstIndex(of: option)! + 1] = value
            let result = try workspace.catalog(arguments)
            #expect(result.status == 65, "\(result)")
            #expect(result.error.hasPrefix("catalog: error: invalid \(option.dropFirst(2)) \"\(value)\""), "\(result)")
        }
        let show = try workspace.catalog(["show", "-0.0"])
        #expect(show.status == 64, "\(show)")
        #expect(show.error.contains("invalid index path \"-0.0\""), "\(show)")
        let delete = try workspace.catalog(["delete", "-1"])
        #expect(delete.status == 64, "\(delete)")
        #expect(delete.error.contains("invalid id \"-1\""), "\(delete)")
        #expect(try DatabaseCheck.count("products", workspace.database) == 9)
    }

    /// A number out of range in a file is quoted as the file writes it (`-1`, not `-1.0`): the error
    /// says what the user did.
    @Test func aNegativeNumberInAFileIsQuotedAsWritten() throws {
        let workspace = try Workspace()
        let files = [
            ("price.csv", "type,name,yearIntroduced,introPrice\ndevice,Minus,2000,-1\n", "products",
             "line 2, column 4 (introPrice): invalid price \"-1\": expected a number from 0 to 1000000000"),
            ("price.json", #"[{"type":"device","name":"Minus","yearIntroduced":2000,"introPrice":-1}]"#, "products",
             "line 1, column 69 (introPrice): invalid price \"-1\": expected a number from 0 to 1000000000"),
            ("screen.csv", "name,maker,yearReleased,operatingSystem,screenInches\nMinus,Acme,2020,OS,-1.50\n", "phones",
             "line 2, column 5 (screenInches): invalid screen \"-1.5\": expected a number from 0 to 1000000000"),
        ]
        for (name, text, entity, message) in files {
            let file = try workspace.write(text, to: name)
            let result = try workspace.catalog(["import", file, "--entity", entity])
            #expect(result.status == 65, "\(result)")
            #expect(result.error == "catalog: error: cannot use \(file): \(message); no record of the input was written\n")
        }
    }

    @Test func aFieldOfTheOtherEntityIsOneSentence() throws {
        let workspace = try Workspace()
        #expect(try workspace.catalog(["seed"]).status == 0)
        let result = try workspace.catalog(["update", "1", "--maker", "Foo"])
        #expect(result.status == 64, "\(result)")
        #expect(result.error == "catalog: error: --maker applies only to a phone, not to a product\n")
    }

    @Test func aBadRecordInAFileNamesItsFieldAndTheAllowedValues() throws {
        let workspace = try Workspace()
        let tablet = try workspace.write(#"[{"type":"tablet","name":"T","yearIntroduced":2000,"introPrice":1}]"#, to: "tablet.json")
        let result = try workspace.catalog(["import", tablet])
        #expect(result.status == 65, "\(result)")
        #expect(result.error == "catalog: error: cannot use \(tablet): line 1, column 10 (type): invalid type \"tablet\": expected one of device, desktop, portable; no record of the input was written\n")

        let tiny = try workspace.write(#"[{"type":"device","name":"T","yearIntroduced":2000,"introPrice":1e-400}]"#, to: "tiny.json")
        let price = try workspace.catalog(["import", tiny])
        #expect(price.status == 65, "\(price)")
        #expect(!price.error.contains("a year must be"), "\(price)")
        #expect(price.error.contains("(introPrice): \"1e-400\" is too small to be stored"), "\(price)")
    }
}
