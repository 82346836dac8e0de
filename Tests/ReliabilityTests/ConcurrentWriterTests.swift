import Catalog
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// Several writers on one file at once: every acknowledged write is there afterwards, no "database is
/// locked" reaches the user within the busy timeout, and the search index matches the tables.
struct ConcurrentWriterTests {
    /// Each worker is a shell loop running `catalog` one command at a time and printing what was
    /// acknowledged: `ADD worker item status id`, `UPD worker item status`, `DEL worker item status`.
    static let workerScript = #"""
        catalog="$1"; database="$2"; worker="$3"; items="$4"; folder="$5"
        ids=()
        for ((i = 0; i < items; i++)); do
            out=$("$catalog" add product --type device --name "W$worker-$i" --year 2001 --price "$i" --database "$database")
            status=$?
            id=$(printf '%s' "$out" | sed -n 's/^Added product \([0-9]*\):.*/\1/p')
            ids[$i]=$id
            echo "ADD $worker $i $status $id"
            if (( i % 3 == 1 )); then
                "$catalog" import "$folder/update-$worker-$((i - 1)).json" --database "$database" > /dev/null
                echo "UPD $worker $((i - 1)) $?"
            elif (( i % 3 == 2 )); then
                "$catalog" delete "${ids[$((i - 2))]}" --database "$database" > /dev/null
                echo "DEL $worker $((i - 2)) $?"
            fi
            if (( worker == 0 && i == items / 2 )); then
                "$catalog" seed --count 1500 --seed 3 --database "$database" > /dev/null
                echo "SEED $worker $i $?"
            fi
        done
        """#

    @Test func severalProcessesAddUpdateAndDelete() throws {
        let workspace = try Workspace()
        let workers = 4
        let items = 12
        for worker in 0..<workers {
            for item in 0..<items {
                try workspace.write(
                    #"[{"type":"portable","name":"W\#(worker)-\#(item)","yearIntroduced":2002,"introPrice":1000}]"#,
                    to: "update-\(worker)-\(item).json")
            }
        }
        let catalog = ProcessRunner.productsDirectory.appendingPathComponent("catalog").path
        // The database does not exist yet: the workers also race to create and migrate it.
        let processes = try (0..<workers).map { worker in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", Self.workerScript, "worker", catalog, workspace.database, String(worker), String(items),
                                 workspace.directory.url.path]
            var environment = ProcessInfo.processInfo.environment
            environment["CATALOG_BUSY_TIMEOUT_MS"] = "60000"
            environment["HOME"] = workspace.path("home")
            process.environment = environment
            let output = try workspace.directory.url.appendingPathComponent("worker-\(worker).out")
                .createFile()
            process.standardOutput = output
            process.standardError = try workspace.directory.url.appendingPathComponent("worker-\(worker).err").createFile()
            try process.run()
            return process
        }
        for process in processes { process.waitUntilExit() }

        var expected: [String: (type: String, price: Double)] = [:]
        for worker in 0..<workers {
            let errors = try String(contentsOfFile: workspace.path("worker-\(worker).err"), encoding: .utf8)
            #expect(errors.isEmpty, "worker \(worker) printed errors: \(errors)")
            let lines = try String(contentsOfFile: workspace.path("worker-\(worker).out"), encoding: .utf8)
                .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(lines.count == items + items / 3 * 2 + (worker == 0 ? 1 : 0), "worker \(worker): \(lines)")
            for line in lines {
                #expect(line[3] == "0", "worker \(worker) was refused: \(line)")
                guard line[3] == "0" else { continue }
                let name = "W\(line[1])-\(line[2])"
                switch line[0] {
                case "ADD": expected[name] = ("device", Double(line[2])!)
                case "UPD": expected[name] = ("portable", 1000)
                case "DEL": expected[name] = nil
                default: break
                }
            }
        }
        #expect(expected.count == workers * (items - items / 3))

        let stored = try DatabaseCheck.withQueue(workspace.database) { db in
            try db.fetchAll(sql: "SELECT name, type, intro_price FROM products WHERE name GLOB 'W*-*'") {
                (try $0.decode(String.self, at: 0), try $0.decode(String.self, at: 1), try $0.decode(Double.self, at: 2))
            }
        }
        #expect(Dictionary(uniqueKeysWithValues: stored.map { ($0.0, "\($0.1) \($0.2)") })
            == expected.mapValues { "\($0.type) \($0.price)" })
        #expect(try DatabaseCheck.count("products", workspace.database) == expected.count + 1500)
        #expect(try DatabaseCheck.integrity(workspace.database) == ["ok"])
        try DatabaseCheck.searchIndexMatchesTables(workspace.database)
    }

    @Test func severalTasksAndConnectionsInOneProcess() async throws {
        let workspace = try Workspace()
        let shared = try CatalogStore(path: workspace.database)
        var configuration = Configuration()
        configuration.busyTimeout = .seconds(60)
        let others = try (0..<2).map { _ in try CatalogStore(path: workspace.database, configuration: configuration) }
        let stores = [shared, shared, shared] + others
        let items = 30
        let kept = try await withThrowingTaskGroup(of: [String: Product].self) { group in
            for (task, store) in stores.enumerated() {
                group.addTask {
                    var kept: [String: Product] = [:]
                    var phone = try store.insert(Phone(
                        name: "Phone \(task)", maker: "Maker", yearReleased: 2010, operatingSystem: "OS", screenInches: 4))
                    for item in 0..<items {
                        var product = try store.insert(Product(
                            type: .device, name: "T\(task)-\(item)", yearIntroduced: 2000, introPrice: Double(item)))
                        kept[product.name] = product
                        if item % 3 == 1 {
                            product.name += " renamed"
                            product.type = .desktop
                            try store.update(product)
                            kept["T\(task)-\(item)"] = nil
                            kept[product.name] = product
                        } else if item % 3 == 2 {
                            try store.delete(Product.self, id: product.id!)
                            kept[product.name] = nil
                        }
                        phone.screenInches = Double(item)
                        try store.update(phone)
                    }
                    return kept
                }
            }
            return try await group.reduce(into: [:]) { $0.merge($1) { a, _ in a } }
        }
        let stored = try await shared.fetchAll(Product.self)
        #expect(Dictionary(uniqueKeysWithValues: stored.map { ($0.name, $0) }) == kept)
        #expect(stored.count == stores.count * (items - items / 3))
        await #expect(try shared.fetchAll(Phone.self).map(\.screenInches) == Array(repeating: Double(items - 1), count: stores.count))
        for store in others { try store.file!.close() }
        try shared.file!.close()
        #expect(try DatabaseCheck.integrity(workspace.database) == ["ok"])
        try DatabaseCheck.searchIndexMatchesTables(workspace.database)
    }

    /// The check the tests above rely on does catch an index out of step with its table.
    @Test func theSearchIndexCheckCatchesADifference() throws {
        let workspace = try Workspace()
        let store = try CatalogStore(path: workspace.database)
        try store.insert(Product(type: .device, name: "Orphan", yearIntroduced: 2000, introPrice: 1))
        try store.file!.writeWithoutTransaction { db in
            try db.execute(sql: "DROP TRIGGER products_search_delete")
            try db.execute(sql: "DELETE FROM products")
        }
        try store.file!.close()
        // The products' trigram index is contentless: the description's check finds the stray trigrams.
        do {
            try DatabaseCheck.searchIndexMatchesTables(workspace.database)
            Issue.record("the check found no difference")
        } catch let mismatch as DatabaseCheck.SearchIndexMismatch {
            #expect(mismatch.problems.contains { $0.hasPrefix("products_search:") }, "\(mismatch.problems)")
        }
    }
}

extension URL {
    /// Creates an empty file here and opens it for writing.
    fileprivate func createFile() throws -> FileHandle {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return try FileHandle(forWritingTo: self)
    }
}
