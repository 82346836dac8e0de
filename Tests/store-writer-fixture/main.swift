// A second process for the observation tests: opens the database given as its only argument, then
// runs each line of standard input as SQL and answers `ok` (or `error: …`) on standard output.
//
//     store-writer-fixture /tmp/x.sqlite
//     BEGIN IMMEDIATE            → ok
//     INSERT INTO t VALUES (1)   → ok
//     COMMIT                     → ok
//
// Tests kill it with SIGKILL mid-transaction to check that the change log loses nothing.
import Foundation
import SQLiteStore

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: store-writer-fixture DATABASE\n".utf8))
    exit(64)
}
let db = try Database(path: CommandLine.arguments[1])
while let line = readLine() {
    var answer = "ok"
    do {
        try db.execute(sql: line)
    } catch {
        answer = "error: \(error)"
    }
    // Unbuffered: the test reads each answer as soon as it is written.
    FileHandle.standardOutput.write(Data((answer + "\n").utf8))
}
db.closeIgnoringErrors()
