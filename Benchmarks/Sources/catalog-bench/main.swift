import BenchmarkSupport
import Foundation
import GRDBContender
import RawSQLiteContender
import StoreContender

// catalog-bench: issue #6's workloads for raw C, this store and GRDB, in one run. See ../README.md.
do {
    let options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
    let search = try StoreContender.productSearch(leavingOut: options.withoutAccelerators)
    try StoreContender.initializeSQLite()
    let createSchema = StoreContender.createSchema(at:)
    let raw = RawSQLiteContender(createSchema: createSchema)
    let contenders: [any Contender] = [raw, StoreContender(search: search), GRDBContender(createSchema: createSchema)]
    let codable = GRDBContender(createSchema: createSchema, decoding: .codable)
    let controller = StoreContender(searchPath: .controller, search: search)

    if let child = options.child, child.workload == "W4-writer" {
        try ChildProcess.serveWriter(database: child.database, options: options)
    } else if let child = options.child {
        guard let contender = contenders.first(where: { $0.name == child.contender }) else {
            throw Options.UsageError(description: "unknown contender \(child.contender)")
        }
        try ChildProcess.serve(workload: child.workload, contender: contender, database: child.database, options: options)
    } else {
        let selected = options.contenders
        func isSelected(_ contender: any Contender) -> Bool { selected?.contains(contender.name) ?? true }
        var runner = Runner(options: options, contenders: [raw] + contenders.dropFirst().filter(isSelected),
                            fetchOnlyContenders: [codable].filter(isSelected),
                            searchOnlyContenders: [controller].filter(isSelected), raw: raw,
                            schema: StoreContender.schemaIdentity)
        let start = ContinuousClock.now
        try runner.run()
        let markdown = runner.report.markdown
        print(markdown)
        if let output = options.output { try (markdown + "\n").write(toFile: output, atomically: true, encoding: .utf8) }
        runner.log("done in \(Report.Cell.time(ContinuousClock.now - start).rendered)")
    }
} catch {
    FileHandle.standardError.write(Data("catalog-bench: \(error)\n".utf8))
    exit(1)
}
