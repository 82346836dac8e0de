import Entities
import FetchedResults
import Foundation
import RecordFormats
import Testing
import TestSupport
import TextSearch

/// What the declaration derives beyond SQL: the fields of files, the search description, text as
/// typed, labels, and the order of a fetch request. Expected values are written by hand from the
/// documented rules, not computed by the code under test.
struct DerivedFieldsTests {
    /// Reads CSV text as notes.
    static func notes(fromCSV text: String) throws -> [Note] {
        let rows = try RowReader(input: ByteInput(bytes: Array(text.utf8)), format: .csv)
        let reader = RecordReader(rows: rows, layout: Note.declaration.recordLayout)
        var notes: [Note] = []
        while let note = try reader.next() { notes.append(note) }
        return notes
    }

    @Test func filesHaveTheIDThenEachAttributeByName() {
        let fields = Note.declaration.recordLayout.fields
        #expect(fields.map(\.name) == ["id", "title", "kind", "priority", "dueDate"])
        // Kinds follow the types: text, an integer, an optional number (the due date, a `Double?`);
        // an enumeration takes its template's stored value's, text.
        #expect(fields.map(\.kind) == [.integer, .text, .text, .integer, .decimal])
        #expect(fields.map(\.isOptional) == [true, false, false, false, true])
    }

    @Test func readingAFileChecksEachValueAsTheDeclarationSays() throws {
        let notes = try Self.notes(fromCSV: "title,kind,priority\n  Café ,task,3\nPlan,idea,0\n")
        #expect(notes == [Note(title: "Café", kind: .task, priority: 3), Note(title: "Plan", kind: .idea, priority: 0)])
        #expect(throws: RecordReadError.self) { try Self.notes(fromCSV: "title,kind,priority\nx,idea,12\n") }
        #expect(throws: RecordReadError.self) { try Self.notes(fromCSV: "title,kind,priority\n   ,idea,1\n") }
        #expect(throws: RecordReadError.self) { try Self.notes(fromCSV: "title,kind,priority\nx,chore,1\n") }
    }

    @Test func anAttributeOptionalInFilesKeepsTheTemplatesValueWhenLeftOut() throws {
        let later = EntityDeclaration<Note>(
            table: "notes", template: Note(title: "", kind: .task, priority: 5), folding: { $0 },
            attributes: [.text("title", \.title), .value("kind", \.kind, optionalInFiles: true), .value("priority", \.priority)])
        #expect(later.recordLayout.fields.map(\.isOptional) == [true, false, true, false])
        let rows = try RowReader(input: ByteInput(bytes: Array("title,priority\nPlan,1\n".utf8)), format: .csv)
        let reader = RecordReader(rows: rows, layout: later.recordLayout)
        #expect(try reader.next() == Note(title: "Plan", kind: .task, priority: 1))
    }

    @Test func writingThenReadingGivesTheSameNote() throws {
        let note = Note(id: 7, title: "Thé, \"vert\"", kind: .task, priority: 9)
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.csv")
        let output = try ByteOutput(replacing: path)
        let writer = RecordWriter(format: .csv, layout: Note.declaration.recordLayout, output: output)
        try writer.write(note)
        try writer.finish()
        try output.commit()
        let reader = RecordReader(
            rows: try RowReader(input: try ByteInput(path: path), format: .csv), layout: Note.declaration.recordLayout)
        #expect(try reader.next() == note)
        #expect(try reader.next() == nil)
    }

    @Test func theSearchDescriptionIsTheSearchedAttributes() {
        #expect(
            Note.declaration.searchDescription(scope: \Note.kind, indexesShortTerms: false)
                == SearchDescription(
                    table: "notes", textColumns: ["title_folded"], numberColumns: ["priority"], scopeColumn: "kind",
                    indexesShortTerms: false))
        #expect(
            Note.declaration.searchDescription()
                == SearchDescription(table: "notes", textColumns: ["title_folded"], numberColumns: ["priority"]))
    }

    @Test func typedTextSetsAnAttribute() throws {
        var note = Note(title: "", kind: .idea, priority: 0)
        try Note.declaration.attribute(named: "title")!.set(fromText: "Plan", on: &note)
        try Note.declaration.attribute(named: "kind")!.set(fromText: "task", on: &note)
        try Note.declaration.attribute(named: "priority")!.set(fromText: "7", on: &note)
        try Note.declaration.attribute(named: "dueDate")!.set(fromText: "2.5", on: &note)
        #expect(note == Note(title: "Plan", kind: .task, priority: 7, due: 2.5))
        #expect(throws: FieldValueError.self) { try Note.declaration.attribute(named: "priority")!.set(fromText: "seven", on: &note) }
        #expect(throws: FieldValueError.self) { try Note.declaration.attribute(named: "kind")!.set(fromText: "chore", on: &note) }
    }

    @Test func titlesAndLabelsComeFromTheName() {
        let attributes = Note.declaration.attributes
        #expect(attributes.map(\.title) == ["TITLE", "KIND", "PRIORITY", "DUEDATE"])
        #expect(attributes.map(\.label) == ["title", "kind", "priority", "due date"])
        let note = Note(title: "Plan", kind: .task, priority: 7, due: 2.5)
        #expect(attributes.map { $0.shownValue(of: note) } == ["Plan", "task", "7", "Optional(2.5)"])
    }

    @Test func theOrderOfARequestIsSectionThenSortsThenID() throws {
        let byPriority = FetchRequest<Note>(
            sortDescriptors: [SortDescriptor(\Note.priority, order: .reverse)], sectionKeyPath: \Note.title)
        #expect(try byPriority.orderSQL() == #"substr("title_folded", 1, 1) ASC, "priority" DESC, id ASC"#)
        let byTitleDescending = FetchRequest<Note>(
            sortDescriptors: [SortDescriptor(\Note.title, order: .reverse)], sectionKeyPath: \Note.title)
        #expect(try byTitleDescending.orderSQL() == #"substr("title_folded", 1, 1) DESC, "title_folded" DESC, id ASC"#)
        #expect(try FetchRequest<Note>().orderSQL() == "id ASC")
    }
}
