/// The rule that names an attribute's column after its property name, when the declaration gives no
/// `column:` (any attribute may give one).
///
/// The name is cut into words, each lowercased, joined by `_`. A word starts at an uppercase letter
/// that follows a lowercase letter or a digit, and at an uppercase letter that follows another
/// uppercase letter and precedes a lowercase one. So a run of capitals, an acronym, is one word:
///
/// | Property          | Column              |
/// |-------------------|---------------------|
/// | `title`           | `title`             |
/// | `yearIntroduced`  | `year_introduced`   |
/// | `recipeID`        | `recipe_id`         |
/// | `isbnURL`         | `isbn_url`          |
/// | `URLString`       | `url_string`        |
/// | `HTTPRequestID`   | `http_request_id`   |
/// | `top10Books`      | `top10_books`       |
///
/// The same words, joined by spaces, are an attribute's label by default (`recipe id`). A folded text's
/// folded column is its column followed by `_folded`.
public enum ColumnNames {
    /// The column named after `name` by the rule above.
    public static func column(forName name: String) -> String { words(of: name).joined(separator: "_") }

    /// The words of a camel-case name, lowercased.
    static func words(of name: String) -> [String] {
        let characters = Array(name)
        var words: [String] = []
        var word = ""
        for index in characters.indices {
            let character = characters[index]
            if character.isUppercase, index > 0, !word.isEmpty {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let afterLower = previous.isLowercase || previous.isNumber
                let endsAcronym = previous.isUppercase && next?.isLowercase == true
                if afterLower || endsAcronym {
                    words.append(word)
                    word = ""
                }
            }
            word += character.lowercased()
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}
