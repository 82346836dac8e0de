import Entities
import SQLiteStore
import TextSearch

/// An ingredient of one recipe: the example's child entity, deleted with its recipe.
public struct Ingredient: Hashable, Sendable {
    /// The row id; nil until the ingredient is saved.
    public var id: Int64?
    /// The recipe it belongs to.
    public var recipeID: Int64
    /// Its place in the list.
    public var position: Int
    /// What it is (`卵`, `cream`).
    public var name: String
    /// How much, if measured.
    public var quantity: Double?
    /// The unit of `quantity` (`g`, `ml`, or empty for a count).
    public var unit: String

    /// Creates an ingredient.
    public init(id: Int64? = nil, recipeID: Int64, position: Int, name: String, quantity: Double? = nil, unit: String = "") {
        (self.id, self.recipeID, self.position, self.name, self.quantity, self.unit) = (id, recipeID, position, name, quantity, unit)
    }
}

extension Ingredient: DeclaredEntity {
    /// The ingredient, declared once: `recipeID` is a foreign key to `recipes` (column `recipe_id`,
    /// indexed), and deleting a recipe deletes its ingredients.
    public static let declaration = EntityDeclaration<Ingredient>(
        table: "ingredients", template: Ingredient(recipeID: 0, position: 0, name: ""), folding: TextFolding.fold,
        attributes: [
            .reference("recipeID", \.recipeID, to: Recipe.self, onDelete: .cascade),
            .value("position", \.position),
            .text("name", \.name, folded: true, check: nonEmpty("name")),
            .value("quantity", \.quantity, sqlCheck: "quantity > 0"),
            .text("unit", \.unit),
        ])
}
