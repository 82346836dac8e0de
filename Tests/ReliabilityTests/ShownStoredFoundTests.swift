import Catalog
import Foundation
import TestSupport
import Testing
import TextSearch

/// What `list` shows is what is stored, and `search` for what is shown finds it.
struct ShownStoredFoundTests {
    @Test(arguments: ["599.999", "0.005", "1000000000.0000000001", "1000000000.01", "19.9901"])
    func aPriceWithMoreThanTwoDecimalsIsRefused(_ price: String) throws {
        let workspace = try Workspace()
        let result = try workspace.catalog(["add", "product", "--type", "device", "--name", "Odd", "--year", "2000", "--price", price])
        #expect(result.status == 65, "\(result)")
        #expect(result.error.hasPrefix("catalog: error: invalid price \"\(price)\""), "\(result)")
        #expect(result.error.split(separator: "\n").count == 1)
    }

    @Test func aScreenWithMoreThanTwoDecimalsIsRefusedAndTrailingZerosAreNotDecimals() throws {
        let workspace = try Workspace()
        let phone = ["add", "phone", "--name", "P", "--maker", "M", "--year", "2020", "--os", "X", "--screen"]
        #expect(try workspace.catalog(phone + ["6.391"]).status == 65)
        let added = try workspace.catalog(phone + ["6.390"])
        #expect(added.status == 0, "\(added)")
        #expect(try workspace.catalog(["show", "--id", "1", "--entity", "phones"]).output.contains("6.39\""))
        #expect(try workspace.catalog(["add", "product", "--type", "device", "--name", "Z", "--year", "2000", "--price", "599.9900"]).status == 0)
    }

    @Test func aFileRecordWithMoreDecimalsIsRefusedWhole() throws {
        let workspace = try Workspace()
        let file = try workspace.write(
            #"[{"type":"device","name":"A","yearIntroduced":2000,"introPrice":599.99},{"type":"device","name":"B","yearIntroduced":2000,"introPrice":599.999}]"#,
            to: "prices.json")
        let result = try workspace.catalog(["import", file])
        #expect(result.status == 65, "\(result)")
        #expect(result.error.hasPrefix("catalog: error: cannot use \(file): line 1, column 136 (introPrice): invalid price"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: workspace.database), "nothing was written")
    }

    /// The example prices of the Search semantics article, searched as `list` shows them and as typed.
    @Test(arguments: [("600", "600.00"), ("600.00", "600"), ("1299", "1,299.00"), ("1299", "1,299"), ("1299.5", "1,299.50"),
                      ("1234567", "1,234,567.00"), ("0.5", "0.50"), ("1299", "$1,299.00"), ("0.5", "$0.50"), ("600", "＄600")])
    func searchingForTheShownPriceFindsTheRow(_ price: String, _ search: String) throws {
        let workspace = try Workspace()
        let add = try workspace.catalog(["add", "product", "--type", "device", "--name", "Priced", "--year", "2000", "--price", price])
        #expect(add.status == 0, "\(add)")
        let found = try workspace.catalog(["search", search])
        #expect(found.status == 0, "\(found)")
        #expect(found.output.contains("Priced"), "search \(search) for a price of \(price): \(found)")
    }

    @Test(arguments: ["1,29", "12,99", "1,2999", ",299", "1,299,", "1.299,00"])
    func commasOutsideThousandsGroupsAreNotNumbers(_ search: String) throws {
        #expect(SearchTerm(search).number == nil)
    }

    /// Search semantics: one leading currency sign is not part of the number; anything else about
    /// the sign makes the term text only.
    @Test func aLeadingCurrencySignIsNotPartOfTheNumber() throws {
        for (search, number) in [("$1,299.00", 1299.0), ("€5", 5), ("£0.50", 0.5), ("¥1997", 1997)] {
            #expect(SearchTerm(search).number == number, "\(search)")
        }
        for search in ["$$5", "5$", "$", "$-5", "$ 5", "$1,29", "a$5"] {
            #expect(SearchTerm(search).number == nil, "\(search)")
        }
    }
}
