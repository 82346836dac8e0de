import Entities
import Foundation
import SQLiteStore
import TestSupport
import TextSearch

/// The schema tests' entities: a dish (searchable, a unique name, text, numbers, a flag, an optional
/// date) and its steps (a reference to their dish), declared twice over time: `DishBefore` is the dish
/// before `servings` was added and `notes` renamed `remarks`.
struct Dish: SearchableEntity, Hashable {
    var id: Int64?
    var name: String
    var cuisine: String
    var minutes: Int
    var vegetarian: Bool
    var servings: Int
    var remarks: String
    var tasted: Date?

    init(id: Int64? = nil, name: String, cuisine: String = "", minutes: Int = 10, vegetarian: Bool = false, servings: Int = 2,
         remarks: String = "", tasted: Date? = nil) {
        (self.id, self.name, self.cuisine, self.minutes, self.vegetarian, self.servings, self.remarks, self.tasted) =
            (id, name, cuisine, minutes, vegetarian, servings, remarks, tasted)
    }

    static let declaration = EntityDeclaration<Dish>(
        table: "dishes", template: Dish(name: ""), folding: TextFolding.fold,
        attributes: [
            .text("name", \.name, folded: true, searched: true, sections: .initial, unique: true, sqlCheck: "length(name) > 0"),
            .text("cuisine", \.cuisine, folded: true),
            .value("minutes", \.minutes, searchedAsNumber: true, sqlCheck: "minutes >= 0"),
            .value("vegetarian", \.vegetarian),
            .value("servings", \.servings, default: 2),
            .text("remarks", \.remarks),
            .value("tasted", \.tasted),
        ],
        indexes: [EntityIndex(\.cuisine, \.name, sectionedBy: \.cuisine)])

    static let searchDescription = declaration.searchDescription(indexesShortTerms: false)
}

/// The dish as first declared: no `servings`, `remarks` called `notes`, no index by cuisine.
struct DishBefore: SearchableEntity, Hashable {
    var id: Int64?
    var name: String
    var cuisine: String
    var minutes: Int
    var vegetarian: Bool
    var notes: String
    var tasted: Date?

    static let declaration = EntityDeclaration<DishBefore>(
        table: "dishes", template: DishBefore(name: "", cuisine: "", minutes: 0, vegetarian: false, notes: ""),
        folding: TextFolding.fold,
        attributes: [
            .text("name", \.name, folded: true, searched: true, sections: .initial, unique: true, sqlCheck: "length(name) > 0"),
            .text("cuisine", \.cuisine, folded: true),
            .value("minutes", \.minutes, searchedAsNumber: true, sqlCheck: "minutes >= 0"),
            .value("vegetarian", \.vegetarian),
            .text("notes", \.notes),
            .value("tasted", \.tasted),
        ])

    static let searchDescription = declaration.searchDescription(indexesShortTerms: false)
}

/// A step of a dish, deleted with it.
struct DishStep: DeclaredEntity, Hashable {
    var id: Int64?
    var dishID: Int64
    var position: Int
    var text: String

    static let declaration = EntityDeclaration<DishStep>(
        table: "dish_steps", template: DishStep(dishID: 0, position: 0, text: ""), folding: TextFolding.fold,
        attributes: [
            .reference("dishID", \.dishID, to: Dish.self, onDelete: .cascade),
            .value("position", \.position),
            .text("text", \.text),
        ])
}

/// A dish's tasting note, which keeps its dish from being deleted.
struct Tasting: DeclaredEntity, Hashable {
    var id: Int64?
    var dishID: Int64
    var verdict: String

    static let declaration = EntityDeclaration<Tasting>(
        table: "tastings", template: Tasting(dishID: 0, verdict: ""), folding: TextFolding.fold,
        attributes: [
            .reference("dishID", \.dishID, to: Dish.self, onDelete: .restrict),
            .text("verdict", \.verdict),
        ])
}

enum Kitchen {
    static let identity = "org.example.kitchen"

    /// The schema as first released.
    static let before = EntitySchema(identity: identity, tables: [EntityTable(DishBefore.self)])

    /// The tables now.
    static let tables = [EntityTable(Dish.self), EntityTable(DishStep.self), EntityTable(Tasting.self)]

    /// The dish's changes, and the tables of steps and tastings added later, as typed steps.
    static let changes: [Migration] = [
        .addingAttribute("servings", of: Dish.self, version: 2),
        .renamingColumn("notes", to: "remarks", of: Dish.self, version: 3),
        .addingIndexes(of: Dish.self, version: 4),
        .creatingTable(EntityTable(DishStep.self), version: 5),
        .creatingTable(EntityTable(Tasting.self), version: 6),
    ]

    /// The schema now: ``tables`` after ``changes``.
    static let now = EntitySchema(identity: identity, tables: tables, changes: changes)

    /// A fresh store of the engine at the schema now.
    static func store(_ engine: StoreEngine) throws -> TestStore {
        let store = try engine.makeStore()
        try now.migrate(store.writer)
        return store
    }
}
