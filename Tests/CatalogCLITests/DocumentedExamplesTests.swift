import Foundation
import TestSupport
import Testing

/// The commands the README and the `catalog` articles (Commands, Output formats, Import, export and
/// backups) show, run as written on the built-in seeds, on both engines; the expected outputs are
/// the documents' own, copied from them.
struct DocumentedExamplesTests {
    /// The README's command-line tour, in its order.
    @Test(arguments: StoreEngine.all) func theReadmeTour(engine: StoreEngine) throws {
        let workspace = try Workspace(engine: engine)
        try expect(workspace.catalog("seed"), 0)
        try expect(workspace.catalog("list"), 0, """
            PATH  NAME         TYPE      YEAR     PRICE  ID
            Desktop (2)
            0.0   iMac         desktop   1997  1,299.00   6
            0.1   Mac Pro      desktop   2006  2,499.00   7
            Device (5)
            1.0   iPad         device    2010    499.00   4

            """, prefix: true)
        try expect(workspace.catalog("search", "mac", "--scope", "desktop", "--format", "csv"), 0, """
            section,path,id,type,name,yearIntroduced,introPrice\r
            Desktop,0.0,6,desktop,iMac,1997,1299\r
            Desktop,0.1,7,desktop,Mac Pro,2006,2499\r

            """)
        // "a number also matches the year or the price"
        try expect(workspace.catalog("search", "iphone", "599", "2007", "--format", "tsv"), 0, """
            section\tpath\tid\ttype\tname\tyearIntroduced\tintroPrice
            Device\t0.0\t1\tdevice\tiPhone\t2007\t599

            """)
        // "the same request, so the same index paths"
        let show = try workspace.catalog("show", "0.1", "--search", "mac", "--scope", "desktop")
        try expect(show, 0)
        #expect(show.output.contains("name:             Mac Pro"), "\(show)")
        try expect(workspace.catalog("list", "phones", "--sort", "maker", "--format", "csv"), 0,
                   "section,path,id,name,maker,yearReleased,operatingSystem,screenInches\r\nApple,0.0,1,iPhone,Apple,2007,iOS,3.5\r\n",
                   prefix: true)
        try expect(workspace.catalog("suggest", "macb"), 0, "MacBook Air\nMacBook Pro\n")

        try expect(workspace.catalog("add", "product", "--type", "device", "--name", "iPhone 16", "--year", "2024", "--price", "799"), 0,
                   "Added product 10: iPhone 16 (device, 2024, $799.00)\n")
        try expect(workspace.catalog("update", "10", "--price", "829"), 0)
        try expect(workspace.catalog("show", "--id", "10", "--format", "csv"), 0, "path,id,type,name,yearIntroduced,introPrice\r\n1.3,10,device,iPhone 16,2024,829\r\n")
        try expect(workspace.catalog("delete", "10"), 0)
        try expect(workspace.catalog("show", "--id", "10"), 3)

        let products = try workspace.catalog("export", "--format", "jsonl")
        try expect(products, 0)
        #expect(products.output.split(separator: "\n").count == 9)
        let file = try workspace.write(products.output, to: "products.jsonl")
        let copy = workspace.path("copy.sqlite")
        try expect(workspace.catalog(["import", file, "--keep-ids"], database: copy), 0, "Imported 9 new products and 0 new phones; updated 0.\n")
        try expect(workspace.catalog(["export", "--format", "jsonl"], database: copy), 0, products.output)

        // "synthetic products, the same for the same --seed": on this engine as in a file.
        let big = workspace.path("big.sqlite")
        try expect(workspace.catalog(["seed", "--count", "300", "--seed", "7"], database: big), 0,
                   "Added 300 products and 0 phones (0 already there).\n")
        let synthetic = try Workspace(engine: engine)
        try expect(synthetic.catalog("seed", "--count", "300", "--seed", "7"), 0)
        try expect(synthetic.catalog("export", "--format", "csv"), 0, try workspace.catalog(["export", "--format", "csv"], database: big).output)

        let status = try workspace.catalog("migrate", "--status")
        try expect(status, 0)
        // Each migration with its set, version, name and state; a database in use has applied them all.
        let rows = status.output.split(separator: "\n").map { $0.split(separator: " ") }
        #expect(rows.first == ["SET", "VERSION", "NAME", "STATE", "APPLIED", "AT"], "\(status)")
        #expect(rows.dropFirst().first?.prefix(4) == ["catalog", "1", "baseline", "applied"], "\(status)")
        #expect(rows.dropFirst().allSatisfy { $0.count == 5 && $0[3] == "applied" }, "\(status)")
        if engine == .sqlite {
            let backup = workspace.path("catalog-copy.sqlite")
            try expect(workspace.catalog("backup", backup), 0, "Backed up \(workspace.database) to \(backup).\n")
            try expect(workspace.catalog("check"), 0, "ok\n")
        }
    }

    /// Commands, "Sections and order": a path outside the result.
    @Test(arguments: StoreEngine.all) func aPathOutsideTheResult(engine: StoreEngine) throws {
        let workspace = try Workspace(engine: engine)
        try expect(workspace.catalog("seed"), 0)
        let result = try workspace.catalog("show", "9.9")
        try expect(result, 3, error: "catalog: error: no row at 9.9: the result has 3 sections (see `list`)\n")
        for malformed in ["-1.0", "1.", "a.b"] {
            #expect(try workspace.catalog("show", malformed).status == 64, "\(malformed)")
        }
    }

    /// Output formats: the three examples, and the empty results.
    @Test(arguments: StoreEngine.all) func theOutputFormatsExamples(engine: StoreEngine) throws {
        let workspace = try Workspace(engine: engine)
        try expect(workspace.catalog("list", "--scope", "desktop", "--format", "csv"), 0, "")
        try expect(workspace.catalog("list", "--scope", "desktop"), 0,
                   "No products of type desktop yet — add one with `catalog add product …` or `catalog seed`.\n")
        try expect(workspace.catalog("seed"), 0)
        try expect(workspace.catalog("list", "--scope", "desktop", "--format", "csv"), 0, """
            section,path,id,type,name,yearIntroduced,introPrice\r
            Desktop,0.0,6,desktop,iMac,1997,1299\r
            Desktop,0.1,7,desktop,Mac Pro,2006,2499\r

            """)
        try expect(workspace.catalog("search", "ipod", "--format", "jsonl"), 0, """
            {"id":2,"introPrice":399,"name":"iPod","path":"0.0","section":"Device","type":"device","yearIntroduced":2001}
            {"id":3,"introPrice":210,"name":"iPod touch","path":"0.1","section":"Device","type":"device","yearIntroduced":2007}

            """)
        try expect(workspace.catalog("export", "--format", "tsv", "--entity", "phones"), 0, """
            id\tname\tmaker\tyearReleased\toperatingSystem\tscreenInches
            1\tiPhone\tApple\t2007\tiOS\t3.5
            2\tiPhone 3G\tApple\t2008\tiOS\t3.5

            """, prefix: true)
        try expect(workspace.catalog("search", "zzz"), 0, "No results for \"zzz\"\n")
        for format in ["jsonl", "csv", "tsv"] {
            try expect(workspace.catalog("search", "zzz", "--format", format), 0, "")
        }
    }

    /// Import, export and backups: the round trip and the bad CSV line, as the article shows them.
    @Test(arguments: StoreEngine.all) func theImportExportExamples(engine: StoreEngine) throws {
        let workspace = try Workspace(engine: engine)
        try expect(workspace.catalog("seed"), 0)
        let csv = workspace.path("products.csv")
        let copy = workspace.path("copy.sqlite")
        try expect(workspace.catalog("export", "--format", "csv", "--output", csv), 0, "")
        try expect(workspace.catalog(["import", csv, "--keep-ids"], database: copy), 0, "Imported 9 new products and 0 new phones; updated 0.\n")
        let phones = try workspace.catalog("export", "--entity", "phones", "--format", "jsonl")
        try expect(phones, 0)
        try expect(workspace.catalog(["import", "-", "--format", "jsonl", "--entity", "phones", "--keep-ids"], database: copy, input: phones.output),
                   0, "Imported 0 new products and 42 new phones; updated 0.\n")

        let before = try workspace.catalog("export").output
        let more = try workspace.write(
            "type,name,yearIntroduced,introPrice\r\ndevice,iPod nano,2005,199\r\nportable,\"PowerBook, G4\",2001,abc\r\n", to: "more.csv")
        try expect(workspace.catalog("import", more), 65,
                   error: "catalog: error: cannot use \(more): line 3, column 4 (introPrice): expected a number such as 599.99, "
                       + "found \"abc\"; no record of the input was written\n")
        // "One bad record rejects the whole command": iPod nano, on the line before, is not there.
        #expect(try workspace.catalog("export").output == before)
        // "all files go in one transaction": a good file before the bad one is not imported either.
        let good = try workspace.write("type,name,yearIntroduced,introPrice\ndevice,iPod shuffle,2005,99\n", to: "good.csv")
        try expect(workspace.catalog("import", good, more), 65,
                   error: "catalog: error: cannot use \(more): line 3, column 4 (introPrice): expected a number such as 599.99, "
                       + "found \"abc\"; no record of the input was written\n")
        #expect(try workspace.catalog("export").output == before)
    }

    /// `result` ended with `status`, printed `output` (or began with it) and, when given, exactly
    /// `error` on standard error; with no output given, only the status is checked.
    private func expect(
        _ result: ProcessResult, _ status: Int32, _ output: String? = nil, prefix: Bool = false, error: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
        if let output {
            #expect(prefix ? result.output.hasPrefix(output) : result.output == output, "\(result)", sourceLocation: sourceLocation)
        }
        // A replica skipped as lagging is a line of its own (Commands, "Replicas"), not the error.
        let errors = result.error.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("catalog: replica ") }
        if let error { #expect(errors.joined(separator: "\n") == error, "\(result)", sourceLocation: sourceLocation) }
    }
}
