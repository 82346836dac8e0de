import Entities
import Foundation
import SQLiteStore
import TextSearch

/// A recipe: the example's parent entity.
public struct Recipe: Hashable, Sendable {
    /// The row id; nil until the recipe is saved.
    public var id: Int64?
    /// The name, unique in the book (`親子丼`, `Crème brûlée`).
    public var name: String
    /// The cuisine it comes from (`Japanese`).
    public var cuisine: String
    /// Minutes from start to table.
    public var minutes: Int
    /// Whether it has no meat or fish.
    public var vegetarian: Bool
    /// How many it serves: added in the schema's second version (rows before it serve 2).
    public var servings: Int
    /// When it was first published, if known.
    public var published: Date?
    /// The readers' mean rating out of 5, if rated.
    public var rating: Double?

    /// Creates a recipe.
    public init(
        id: Int64? = nil, name: String, cuisine: String, minutes: Int, vegetarian: Bool = false, servings: Int = 2,
        published: Date? = nil, rating: Double? = nil
    ) {
        (self.id, self.name, self.cuisine, self.minutes, self.vegetarian, self.servings, self.published, self.rating) =
            (id, name, cuisine, minutes, vegetarian, servings, published, rating)
    }
}

/// Why a recipe or an ingredient is refused.
public struct Refused: Error, Equatable, CustomStringConvertible {
    /// The field at fault.
    public var field: String
    public var description: String { "invalid \(field)" }
}

extension Recipe: SearchableEntity {
    /// The recipe, declared once: its table (and the generated schema), files, sorts, sections and
    /// search follow from it.
    public static let declaration = EntityDeclaration<Recipe>(
        table: "recipes", template: Recipe(name: "", cuisine: "", minutes: 0), folding: TextFolding.fold,
        attributes: [
            .text("name", \.name, folded: true, searched: true, sections: .initial, check: nonEmpty("name"), unique: true,
                  sqlCheck: "length(name) > 0"),
            .text("cuisine", \.cuisine, folded: true, searched: true, check: nonEmpty("cuisine")),
            .value("minutes", \.minutes, searchedAsNumber: true, check: { minutes in
                guard minutes > 0 else { throw Refused(field: "minutes") }
                return minutes
            }, sqlCheck: "minutes > 0"),
            .value("vegetarian", \.vegetarian),
            .value("servings", \.servings, default: 2, sqlCheck: "servings > 0"),
            .value("published", \.published),
            .value("rating", \.rating, sqlCheck: "rating BETWEEN 0 AND 5"),
        ],
        indexes: [EntityIndex(\.cuisine, \.name, sectionedBy: \.cuisine)])

    /// What a search looks in: the folded name and cuisine, and the minutes as a number; the cuisine
    /// is its scope, whose values its indexes count and page one by one.
    public static let searchDescription = declaration.searchDescription(scope: \Recipe.cuisine, indexesShortTerms: false)

    /// A search restricted to cuisines (`scope: \.cuisine, in: ["French"]`), or sectioned by cuisine, is
    /// counted and paged by the search's indexes.
    public static var searchScope: (PartialKeyPath<Recipe> & Sendable)? { \Recipe.cuisine }
}

/// A check that trims text and refuses it when nothing is left.
func nonEmpty(_ field: String) -> @Sendable (String) throws -> String {
    { text in
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw Refused(field: field) }
        return trimmed
    }
}
