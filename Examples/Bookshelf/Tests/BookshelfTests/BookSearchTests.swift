import Bookshelf
import Testing

/// Indexed substring search of books in any script, through the index migration 1 generates from the
/// declaration. Each expected result is written by hand from the Search semantics article's rules (case, diacritics
/// and width ignored, canonically equivalent texts equal, every term required, a number also
/// matching the year), not computed.
struct BookSearchTests {
    let shelf: Bookshelf
    let folder: Folder

    static let books = [
        Book(title: "ノルウェイの森", author: "村上春樹", year: 1987, tags: "novel"),
        Book(title: "海辺のカフカ", author: "村上春樹", year: 2002, tags: "novel"),
        Book(title: "デジタル・フォートレス", author: "Dan Brown", year: 1998, tags: "thriller"),
        Book(title: "Les Misérables", author: "Victor Hugo", year: 1862, tags: "classic"),
        Book(title: "Ὀδύσσεια", author: "Ὅμηρος", year: -700, tags: "epic"),
        Book(title: "Преступление и наказание", author: "Фёдор Достоевский", year: 1866, tags: "classic"),
        // Stored decomposed (NFD): `e` then U+0301 COMBINING ACUTE ACCENT.
        Book(title: "Cafe\u{301} Society", author: "Anonymous", year: 2001),
    ]

    init() throws {
        folder = try Folder()
        shelf = try Bookshelf(path: folder.path())
        for book in Self.books { try shelf.add(book) }
    }

    /// The titles of the books matching `text` (`String` equality is canonical equivalence, so the NFD
    /// title equals its NFC spelling here).
    func found(_ text: String) throws -> Set<String> { Set(try shelf.books(matching: text).map(\.title)) }

    @Test(arguments: [
        // Japanese, one and two characters, and half-width katakana (with voiced marks).
        ("森", ["ノルウェイの森"]),
        ("の", ["ノルウェイの森", "海辺のカフカ"]),
        ("村上", ["ノルウェイの森", "海辺のカフカ"]),
        ("ｶﾌｶ", ["海辺のカフカ"]),
        ("ﾉﾙｳｪｲ", ["ノルウェイの森"]),
        ("ﾃﾞｼﾞﾀﾙ", ["デジタル・フォートレス"]),
        // デ typed decomposed: テ then U+3099 COMBINING KATAKANA-HIRAGANA VOICED SOUND MARK.
        ("\u{30C6}\u{3099}ジタル", ["デジタル・フォートレス"]),
        ("ノルウェー", []),
        // Latin: case and diacritics, stored NFD found by NFC text and the reverse.
        ("MISERABLES", ["Les Misérables"]),
        ("misérables", ["Les Misérables"]),
        ("café", ["Café Society"]),
        ("CAFE", ["Café Society"]),
        ("Cafe\u{301}", ["Café Society"]),
        // Greek and Cyrillic, accents and breathings ignored.
        ("οδυσσεια", ["Ὀδύσσεια"]),
        ("ΟΔΎΣΣΕΙΑ", ["Ὀδύσσεια"]),
        ("ομηρ", ["Ὀδύσσεια"]),
        ("федор", ["Преступление и наказание"]),
        // Every term, in the title, author or tags, and numbers as years.
        ("村上 1987", ["ノルウェイの森"]),
        ("novel 2002", ["海辺のカフカ"]),
        ("classic", ["Les Misérables", "Преступление и наказание"]),
        ("1862", ["Les Misérables"]),
        ("classic 1987", []),
    ])
    func findsWhatTheRulesSay(_ text: String, _ titles: [String]) throws {
        #expect(try found(text) == Set(titles))
    }

    @Test func aBookAddedLaterIsFoundAndADeletedOneIsNot() throws {
        let added = try shelf.add(Book(title: "1Q84", author: "村上春樹", year: 2009, tags: "novel"))
        #expect(try found("村上 1Q") == ["1Q84"])
        try shelf.delete(id: added.id!)
        #expect(try found("1q84").isEmpty)
    }
}
