import Catalog
@testable import CatalogCLI
import FetchedResults
import PostgreSQLStore
import Foundation
import RecordFormats
import SQLiteStore
import TestSupport
import Testing

/// `list` and `search` write their rows as they read them (a table, CSV, TSV, JSON lines): in flat
/// memory, and the same bytes as the whole result rendered at once.
struct StreamedListingTests {
    let workspace: Workspace

    init() throws {
        workspace = try Workspace()
    }

    // MARK: - Memory

    /// 200,000 products listed in each streamed format: the child's peak resident memory (its
    /// `VmHWM`) stays under 64 MB, where the whole result held at once took over
    /// 200 MB (as `--json`, which is one document, still does). Every row is written.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "reads the child's VmHWM in /proc"))
    func listingMemoryStaysFlatFor200kRows() throws {
        try workspace.catalog("seed")
        try insertPlainProducts(200_000)
        for format in ["table", "csv", "jsonl"] {
            let output = workspace.path("list.\(format)")
            let (status, peakKiB) = try runMeasuringPeak(
                ["list", "--format", format, "--database", workspace.database], output: output)
            #expect(status == 0)
            let lines = try Data(contentsOf: URL(fileURLWithPath: output)).split(separator: UInt8(ascii: "\n")).count
            // 200,009 rows; a table adds its header and 3 section titles, CSV its header.
            #expect(lines == ["table": 200_013, "csv": 200_010, "jsonl": 200_009][format], "\(format)")
            #expect(peakKiB > 0 && peakKiB < 64 * 1024, "\(format): peak \(peakKiB) KiB")
        }
    }

    /// On a PostgreSQL server, where a result once came whole from libpq before its first row was
    /// handed on: `export` of 200,000 products stays under 64 MB, and its rows are the products
    /// inserted, in id order, field by field.
    @Test(
        .enabled(if: StoreEngine.all.contains(.postgreSQL), "CATALOG_TEST_ENGINE keeps SQLite only"),
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "reads the child's VmHWM in /proc"))
    func exportOnAServerStaysFlatFor200kRows() throws {
        let count = 200_000
        let workspace = try Self.serverWithPlainProducts(count)
        let exported = workspace.path("export.jsonl")
        let export = try runMeasuringPeak(["export", "--format", "jsonl", "--database", workspace.database], output: exported, in: workspace)
        #expect(export.status == 0)
        #expect(export.peakKiB > 0 && export.peakKiB < 64 * 1024, "export: peak \(export.peakKiB) KiB")
        let lines = try Data(contentsOf: URL(fileURLWithPath: exported)).split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == count)
        for (index, line) in lines.enumerated() {
            let i = index + 1
            let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
            let expected: [String: Any] = [
                "id": i, "type": ["device", "desktop", "portable"][i % 3], "name": "Gadget \(i)",
                "yearIntroduced": 1990 + i % 35, "introPrice": Double(i % 40000) / 10,
            ]
            guard (object as NSDictionary) == (expected as NSDictionary) else {
                Issue.record("row \(i): \(object) is not \(expected)")
                break
            }
        }
    }

    /// `list` on a PostgreSQL server, in each streamed format: 200,000 products stay under 64 MB, as
    /// on a file, and every row is written.
    @Test(
        .enabled(if: StoreEngine.all.contains(.postgreSQL), "CATALOG_TEST_ENGINE keeps SQLite only"),
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "reads the child's VmHWM in /proc"))
    func listingOnAServerStaysFlatFor200kRows() throws {
        let workspace = try Self.serverWithPlainProducts(200_000)
        for format in ["table", "csv", "jsonl"] {
            let output = workspace.path("list.\(format)")
            let (status, peakKiB) = try runMeasuringPeak(["list", "--format", format, "--database", workspace.database], output: output, in: workspace)
            #expect(status == 0)
            let lines = try Data(contentsOf: URL(fileURLWithPath: output)).split(separator: UInt8(ascii: "\n"))
            // A table adds its header and 3 section titles, CSV its header.
            #expect(lines.count == ["table": 200_004, "csv": 200_001, "jsonl": 200_000][format], "\(format)")
            #expect(peakKiB > 0 && peakKiB < 64 * 1024, "\(format): peak \(peakKiB) KiB")
        }
    }

    /// A catalog in a schema of its own on the test servers holding `count` products `Gadget 1`… (ids
    /// 1…count, types in turn, years and prices from the id), inserted with one statement without
    /// the triggers (a debug build's import takes minutes), then counted by type: the search of this
    /// schema is stale; `list` and `export` read only the table and the section counts.
    static func serverWithPlainProducts(_ count: Int) throws -> Workspace {
        let workspace = try Workspace(engine: .postgreSQL)
        #expect(try workspace.catalog("migrate").status == 0)
        let db = try #require(workspace.schema).connect()
        defer { db.close() }
        let triggers = try db.fetchAll(
            sql: "SELECT tgname::text FROM pg_trigger WHERE tgrelid = 'products'::regclass AND NOT tgisinternal")
        for case .text(let trigger) in triggers.map({ $0[0] }) { try db.execute(sql: "DROP TRIGGER \"\(trigger)\" ON products") }
        try db.execute(
            sql: """
                INSERT INTO products (id, type, name, name_folded, year_introduced, intro_price)
                SELECT i, CASE i % 3 WHEN 0 THEN 'device' WHEN 1 THEN 'desktop' ELSE 'portable' END,
                       'Gadget ' || i, 'gadget ' || i, 1990 + i % 35, (i % 40000) / 10.0
                FROM generate_series(1, $1::bigint) AS i
                """, arguments: [.integer(Int64(count))])
        try db.execute(sql: "INSERT INTO store_section_counts SELECT 'products', 'type', type, count(*) FROM products GROUP BY type")
        return workspace
    }

    /// Inserts `count` products with plain SQL and sets the section counts the listing reads: the
    /// store's own bulk insert takes minutes for 200,000 rows in a debug build. The search structures'
    /// triggers are dropped first, so the search of this file is stale; `list` reads only the table, its
    /// index and the section counts.
    private func insertPlainProducts(_ count: Int) throws {
        let store = try CatalogStore(path: workspace.database)
        try store.file!.write { db in
            let triggers = try db.fetchAll(
                sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'products'"
            ) { try $0.decode(String.self, at: 0) }
            for trigger in triggers { try db.execute(sql: "DROP TRIGGER \"\(trigger)\"") }
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO products (type, name, name_folded, year_introduced, intro_price)
                SELECT CASE i % 3 WHEN 0 THEN 'device' WHEN 1 THEN 'desktop' ELSE 'portable' END,
                       'Gadget ' || i, 'gadget ' || i, 1990 + i % 35, (i % 40000) / 10.0
                FROM n
                """, arguments: [count])
            try db.execute(sql: """
                UPDATE store_section_counts SET count = (SELECT count(*) FROM products WHERE type = key)
                WHERE table_name = 'products'
                """)
        }
        try store.file!.close()
    }

    /// Runs the built `catalog` with standard output to the file `output`, and returns its exit status
    /// and its peak resident memory in KiB: its `VmHWM` (the high-water mark of its own address space
    /// since it started the program), read every few milliseconds until it exits. Not `wait4`'s
    /// `ru_maxrss`: Linux carries into it the spawning test runner's own peak.
    private func runMeasuringPeak(
        _ arguments: [String], output: String, in workspace: Workspace? = nil
    ) throws -> (status: Int32, peakKiB: Int) {
        let workspace = workspace ?? self.workspace
        let process = Process()
        process.executableURL = ProcessRunner.productsDirectory.appendingPathComponent("catalog")
        process.arguments = arguments
        process.environment = ProcessRunner.environment(home: workspace.path("home"))
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = FileHandle.nullDevice
        try process.run()
        let status = "/proc/\(process.processIdentifier)/status"
        var peak = 0
        while process.isRunning {
            // Gone with the address space once the process has exited.
            if let text = try? String(contentsOfFile: status, encoding: .utf8),
               let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) {
                peak = max(peak, kib)
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        return (process.terminationStatus, peak)
    }

    // MARK: - The same output as the whole result at once

    /// Random catalogs (names with accents, wide characters and commas, random types, years and
    /// prices), listed and searched in every order: each streamed format equals the whole result
    /// rendered at once from ``CatalogStore/sections(_:)`` (the table as `TextTable` renders all its
    /// rows together; CSV and TSV as a writer of the loaded rows), and each JSON line is the row of the
    /// `--json` document, which reads the whole result, with its section's name.
    @Test(arguments: [1, 2, 3])
    func streamedOutputEqualsTheWholeResult(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let words = ["Mac", "café", "Pro", "東京", "ｍａｃ", "Air", "x,y", "\"quoted\"", "Ünïcode", "mini", "タワー", "a"]
        var csv = "type,name,yearIntroduced,introPrice\n"
        let count = 40 + Int(random.next() % 200)
        for index in 0..<count {
            let name = (0..<(1 + Int(random.next() % 3))).map { _ in words[Int(random.next() % UInt64(words.count))] }
                .joined(separator: " ") + " \(index)"
            let type = ["device", "desktop", "portable"][Int(random.next() % 3)]
            let price = Double(random.next() % 500_000) / 100
            csv += "\(type),\"\(name.replacingOccurrences(of: "\"", with: "\"\""))\",\(1980 + random.next() % 45),\(price)\n"
        }
        let file = try workspace.write(csv, to: "products.csv")
        #expect(try workspace.catalog("import", file).status == 0)

        let store = try CatalogStore(path: workspace.database)
        defer { try? store.file!.close() }
        let requests: [([String], ListRequest<Product>)] = [
            (["list"], ListRequest()),
            (["list", "--sort", "price", "--reverse"], ListRequest(sort: .price, isReversed: true)),
            (["list", "--scope", "portable", "--sort", "year"], ListRequest(scope: .portable, sort: .year)),
            (["search", "mac"], ListRequest(searchText: "mac")),
            (["search", "a", "--sort", "price"], ListRequest(sort: .price, searchText: "a")),
            (["search", "東京"], ListRequest(searchText: "東京")),
            (["search", "nothing-like-it"], ListRequest(searchText: "nothing-like-it")),
        ]
        for (arguments, request) in requests {
            let sections = try store.sections(request)
            let table = try workspace.catalog(arguments)
            #expect(table.status == 0)
            if sections.isEmpty {
                #expect(table.output == "No results for \"nothing-like-it\"\n")
            } else {
                #expect(table.output == wholeTable(sections) + "\n", "\(arguments)")
            }
            for format in [DataFormat.csv, .tsv] {
                let streamed = try workspace.catalog(arguments + ["--format", format.rawValue])
                #expect(streamed.output == (try wholeRows(sections, format)), "\(arguments) \(format)")
            }
            let lines = try workspace.catalog(arguments + ["--format", "jsonl"]).output.split(separator: "\n")
            let document = try workspace.catalog(arguments + ["--json"]).output
            let json = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
            let expected = try #require(json["sections"] as? [[String: Any]]).flatMap { section in
                (section["rows"] as! [[String: Any]]).map { row in row.merging(["section": section["name"]!]) { a, _ in a } }
            }
            #expect(lines.count == expected.count, "\(arguments)")
            for (line, row) in zip(lines, expected) {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary)
                #expect(object == row as NSDictionary, "\(arguments)")
            }
        }
    }

    /// The table of a whole result, by its definition: its columns are as wide as their widest cell
    /// among the header and the rows of the first screen (50 lines of cells, the header one of them),
    /// the paths' at least the widest path; every line is padded to those widths, a wider cell written
    /// whole.
    private func wholeTable(_ sections: [EntitySection<Product>]) -> String {
        let rightAligned = Set(Product.numericColumns.map { $0 + 1 })
        var lines: [TextTable.Line] = [.cells(["PATH"] + Product.tableHeaders)]
        var paths: [String] = []
        for (index, section) in sections.enumerated() {
            lines.append(.text("\(section.name) (\(section.records.count))"))
            for (row, record) in section.records.enumerated() {
                let path = ItemPath(section: index, row: row).description
                paths.append(path)
                lines.append(.cells([path] + record.tableCells))
            }
        }
        var widths = [paths.map(\.count).max() ?? 0]
        let screen = lines.filter { if case .cells = $0 { true } else { false } }.prefix(50)
        for case .cells(let cells) in screen {
            for (column, cell) in cells.enumerated() {
                let width = DisplayWidth.of(cell)
                if column < widths.count { widths[column] = max(widths[column], width) } else { widths.append(width) }
            }
        }
        return lines.map { line in
            switch line {
            case .text(let text): text
            case .cells(let cells): TextTable.line(cells, widths: widths, rightAligned: rightAligned)
            }
        }.joined(separator: "\n")
    }

    /// The rows of a whole result in a data format, as a writer of the loaded rows writes them.
    private func wholeRows(_ sections: [EntitySection<Product>], _ format: DataFormat) throws -> String {
        let path = workspace.path("whole.\(format.rawValue)")
        let output = try ByteOutput(replacing: path)
        let writer = RecordWriter(
            format: format, layout: Product.layout, extraFields: ["section", "path"], output: output, writesHeaderWhenEmpty: false)
        for (index, section) in sections.enumerated() {
            for (row, record) in section.records.enumerated() {
                try writer.write(record, extras: [.text(section.name), .text(ItemPath(section: index, row: row).description)])
            }
        }
        try writer.finish()
        try output.commit()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    // MARK: - The window

    /// A table longer than its window: the columns are as wide as the header and the window's rows
    /// (and the minimum given); a later, wider cell is written whole and pushes the rest of its line
    /// right, and a right-aligned one loses its padding, never a character.
    @Test func aWiderCellAfterTheWindowIsWrittenWhole() throws {
        let path = workspace.path("table.txt")
        let output = try ByteOutput(replacing: path)
        var table = StreamedTable(rightAligned: [2], minimumWidths: [4], window: 3, output: output)
        try table.append(["PATH", "NAME", "N"])
        try table.appendText("Section (4)")
        try table.append(["0.0", "ab", "1"])
        try table.append(["0.1", "abc", "22"])
        try table.append(["0.2", "a much longer name", "3"])
        try table.append(["0.3", "b", "4444"])
        try table.finish()
        try output.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == """
            PATH  NAME   N
            Section (4)
            0.0   ab     1
            0.1   abc   22
            0.2   a much longer name   3
            0.3   b     4444

            """)
    }
}
