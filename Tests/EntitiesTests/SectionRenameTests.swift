import Entities
import Foundation
import SQLiteStore
import Testing
import TestSupport

/// A box on a shelf, in sections by shelf: the box as first declared.
struct BoxBefore: DeclaredEntity, Hashable {
    var id: Int64?
    var label: String
    var shelf: String

    static let declaration = EntityDeclaration<BoxBefore>(
        table: "boxes", template: BoxBefore(label: "", shelf: ""), folding: { $0.lowercased() },
        attributes: [.text("label", \.label), .text("shelf", \.shelf, folded: true)],
        indexes: [EntityIndex(\.shelf, \.label, sectionedBy: \.shelf)])
}

/// The box now: its shelf's column renamed `rack`, still its sections.
struct Box: DeclaredEntity, Hashable {
    var id: Int64?
    var label: String
    var rack: String

    static let declaration = EntityDeclaration<Box>(
        table: "boxes", template: Box(label: "", rack: ""), folding: { $0.lowercased() },
        attributes: [.text("label", \.label), .text("rack", \.rack, folded: true)],
        indexes: [EntityIndex(\.rack, \.label, sectionedBy: \.rack)])
}

/// `Migration.renamingColumn` of a sectioned column, on both engines: the writes after it are
/// counted under the new name. Expected sections are written by hand from the rules of
/// `AttributeSections.value` (a folded text's key is the folded text, U+0001, the stored value).
struct SectionRenameTests {
    static let identity = "org.example.boxes"

    @Test(arguments: StoreEngine.all) func renamingASectionedColumnCountsItsSectionsUnderTheNewName(engine: StoreEngine) throws {
        let store = try engine.makeStore()
        try EntitySchema(identity: Self.identity, tables: [EntityTable(BoxBefore.self)]).migrate(store.writer)
        var ids: [String: Int64] = [:]
        for (label, shelf) in [("a", "Top"), ("b", "Low"), ("c", "Top")] {
            var box = BoxBefore(label: label, shelf: shelf)
            try store.writer.write { db in try box.insert(db) }
            ids[label] = box.id
        }
        // The index by rack is named after the new column: its own step.
        let now = EntitySchema(identity: Self.identity, tables: [EntityTable(Box.self)], changes: [
            .renamingColumn("shelf", to: "rack", of: Box.self, version: 2), .addingIndexes(of: Box.self, version: 3),
        ])
        #expect(try now.migrate(store.writer).map(\.version) == [2, 3])

        // Rows: a Low, c Top, d top.
        try store.writer.write { db in
            var added = Box(label: "d", rack: "top")
            try added.insert(db)
            try Box(id: ids["a"], label: "a", rack: "Low").update(db)
            _ = try Box.delete(id: ids["b"]!, db)
        }
        let section = engine == .sqlite ? #""rack_folded" || char(1) || "rack""# : #""rack_folded" || chr(1) || "rack""#
        try store.writer.read { db in
            #expect(try SectionCounts.countedSections(ofTable: "boxes", db).map(\.section) == [section])
            let counts = try SectionCounts.counts(forTable: "boxes", section: section, in: db)
            #expect(counts?.map(\.key) == [.text("low\u{1}Low"), .text("top\u{1}Top"), .text("top\u{1}top")])
            #expect(counts?.map(\.count) == [1, 1, 1])
            #expect(try SectionCounts.problems(db) == [])
        }
    }
}
