import Entities
import Foundation
import RecordFormats
import SQLiteStore
import Testing
import TestSupport

/// A `Data` attribute (a file attachment) in an entity's files: written as base64 text, read back
/// as the same bytes in every format on each engine, and a cell that is not base64 refused.
struct BytesInFilesTests {
    struct Attachment: DeclaredEntity, Hashable {
        var id: Int64?
        var name: String
        var bytes: Data
        var thumbnail: Data?

        static let declaration = EntityDeclaration<Attachment>(
            table: "attachments", template: Attachment(name: "", bytes: Data(), thumbnail: nil), folding: { $0 },
            attributes: [
                .text("name", \.name, unique: true),
                .value("bytes", \.bytes),
                .value("thumbnail", \.thumbnail),
            ])
    }

    static let schema = EntitySchema(identity: "org.example.attachments", tables: [EntityTable(Attachment.self)])

    /// Every byte value, bytes that are not UTF-8, a NUL, no bytes, and a missing value.
    static let attachments = [
        Attachment(name: "every byte", bytes: Data((0...255).map { UInt8($0) }), thumbnail: Data([0xFF, 0xD8, 0xFF])),
        Attachment(name: "nul and newlines", bytes: Data([0, 10, 13, 9, 44, 34, 92]), thumbnail: nil),
        Attachment(name: "empty", bytes: Data(), thumbnail: nil),
    ]

    @Test(arguments: StoreEngine.all) func bytesRoundTripThroughEveryFormat(engine: StoreEngine) throws {
        let directory = try TemporaryDirectory()
        let source = try engine.makeStore()
        _ = try Self.schema.migrate(source.writer)
        try source.writer.write { db in
            for var attachment in Self.attachments { try attachment.insert(db) }
        }
        let stored = try source.writer.read { db in try Attachment.fetchAll(db) }
        #expect(stored.map(\.bytes) == Self.attachments.map(\.bytes))
        for format in DataFormat.allCases {
            let path = directory.path("attachments.\(format.rawValue)")
            #expect(try Attachment.exportFile(path, from: source.writer) == 3)
            // The file holds the bytes as base64, as `Data(base64Encoded:)` reads them.
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(Self.attachments[0].bytes.base64EncodedString()), "\(format)")
            let copy = try engine.makeStore()
            _ = try Self.schema.migrate(copy.writer)
            #expect(try Attachment.importFile(path, keepingIDs: true, into: copy.writer) == ImportReport(inserted: 3))
            #expect(try copy.writer.read { db in try Attachment.fetchAll(db) } == stored, "\(format)")
            // Imported again over the same rows: updated by the unique name, the bytes unchanged.
            #expect(try Attachment.importFile(path, into: copy.writer) == ImportReport(updated: 3))
            #expect(try copy.writer.read { db in try Attachment.fetchAll(db) } == stored, "\(format)")
        }
    }

    /// Importing and exporting files, Values: an `Optional` is nil as an empty cell or JSON `null`,
    /// and zero bytes are empty base64. CSV and TSV have no null but the empty cell, so an optional
    /// holding zero bytes reads back from them as nil; JSON and JSON lines keep it, as `""`.
    @Test(arguments: StoreEngine.all) func anOptionalOfZeroBytesIsNilInCSVAndTSV(engine: StoreEngine) throws {
        let directory = try TemporaryDirectory()
        let source = try engine.makeStore()
        _ = try Self.schema.migrate(source.writer)
        try source.writer.write { db in
            var empty = Attachment(name: "zero bytes", bytes: Data(), thumbnail: Data())
            try empty.insert(db)
        }
        for format in DataFormat.allCases {
            let path = directory.path("attachments.\(format.rawValue)")
            #expect(try Attachment.exportFile(path, from: source.writer) == 1)
            let copy = try engine.makeStore()
            _ = try Self.schema.migrate(copy.writer)
            _ = try Attachment.importFile(path, into: copy.writer)
            let read = try #require(try copy.writer.read { db in try Attachment.fetchAll(db) }.first)
            #expect(read.bytes == Data(), "\(format)")
            #expect(read.thumbnail == ([.csv, .tsv].contains(format) ? nil : Data()), "\(format)")
        }
    }

    @Test(arguments: StoreEngine.all) func aCellThatIsNotBase64IsRefusedNamingItsField(engine: StoreEngine) throws {
        let directory = try TemporaryDirectory()
        let store = try engine.makeStore()
        _ = try Self.schema.migrate(store.writer)
        let path = directory.path("bad.csv")
        try "name,bytes,thumbnail\nok,AAEC,\nbad,<3 bytes>,\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try Attachment.importFile(path, into: store.writer)
        } throws: { error in
            "\(error)".hasSuffix("bad.csv: line 3, column 2 (bytes): expected bytes in base64, found \"<3 bytes>\"")
        }
        #expect(try store.writer.read { db in try Attachment.fetchAll(db) }.isEmpty)
    }
}
