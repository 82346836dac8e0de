import Bookshelf
import Foundation

// Writes to a bookshelf from another process, one command per argument group:
//   bookshelf-writer PATH add TITLE AUTHOR YEAR | retitle ID TITLE | delete ID …
var arguments = Array(CommandLine.arguments.dropFirst())
guard !arguments.isEmpty else {
    FileHandle.standardError.write(Data("usage: bookshelf-writer PATH (add TITLE AUTHOR YEAR | retitle ID TITLE | delete ID)…\n".utf8))
    exit(64)
}
let shelf = try Bookshelf(path: arguments.removeFirst())
while !arguments.isEmpty {
    switch arguments.removeFirst() {
    case "add":
        try shelf.add(Book(title: arguments[0], author: arguments[1], year: Int(arguments[2])!))
        arguments.removeFirst(3)
    case "retitle":
        let id = Int64(arguments[0])!
        guard var book = try shelf.queue.read({ db in try Book.fetchOne(id: id, db) }) else { exit(1) }
        book.title = arguments[1]
        try shelf.update(book)
        arguments.removeFirst(2)
    case "delete":
        try shelf.delete(id: Int64(arguments.removeFirst())!)
    case let command:
        FileHandle.standardError.write(Data("unknown command \(command)\n".utf8))
        exit(64)
    }
}
