import Entities
import Foundation
import SQLiteStore

/// The test entity: a note with a folded, searched title, a kind that sections by a custom name, a
/// priority and an optional due date.
struct Note: DeclaredEntity, Hashable {
    enum Kind: String, DatabaseValueConvertible { case idea, task }
    struct Refused: Error, Equatable { var field: String }

    var id: Int64?
    var title: String
    var kind: Kind
    var priority: Int
    var due: Double?

    static let declaration = EntityDeclaration<Note>(
        table: "notes", template: Note(title: "", kind: .idea, priority: 0),
        folding: { $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) },
        attributes: [
            .text("title", \.title, folded: true, searched: true, sections: .initial, check: { title in
                let trimmed = title.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { throw Refused(field: "title") }
                return trimmed
            }),
            .value("kind", \.kind, sections: .value { "Kind " + AttributeSections.text($0) }),
            .value("priority", \.priority, searchedAsNumber: true, check: { priority in
                guard (0...9).contains(priority) else { throw Refused(field: "priority") }
                return priority
            }),
            .value("dueDate", \.due),
        ])

    init(id: Int64? = nil, title: String, kind: Kind, priority: Int, due: Double? = nil) {
        (self.id, self.title, self.kind, self.priority, self.due) = (id, title, kind, priority, due)
    }

    /// The table as a migration would create it, written by hand from the Defining an entity article's rule (a column per
    /// attribute, snake case, plus `<column>_folded` for a folded text), not from the declaration.
    static let schemaSQL = """
        CREATE TABLE notes (
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL UNIQUE,
            title_folded TEXT NOT NULL,
            kind TEXT NOT NULL,
            priority INTEGER NOT NULL,
            due_date REAL
        ) STRICT;
        """
}
