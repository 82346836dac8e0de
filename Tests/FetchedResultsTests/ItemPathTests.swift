import FetchedResults
import Testing

/// Index paths read and print as `section.row`, and nothing else reads as one.
struct ItemPathTests {
    @Test(arguments: [("0.0", 0, 0), ("2.15", 2, 15), ("10.3", 10, 3), ("007.1", 7, 1)])
    func parses(_ text: String, _ section: Int, _ row: Int) throws {
        let path = try ItemPath(parsing: text)
        #expect(path == ItemPath(section: section, row: row))
    }

    @Test(arguments: ["", "1", "1.", ".1", "-1.0", "1.-1", "a.b", "1.2.3", " 1.2", "1.2 ", "+1.2", "1,2", "１.２", "9999999999.0"])
    func rejects(_ text: String) {
        #expect(throws: ItemPathParseError(text: text)) { try ItemPath(parsing: text) }
    }

    @Test func printsAndOrders() {
        #expect(ItemPath(section: 1, row: 3).description == "1.3")
        #expect(ItemPath(section: 0, row: 9) < ItemPath(section: 1, row: 0))
        #expect(ItemPath(section: 1, row: 2) < ItemPath(section: 1, row: 3))
    }
}
