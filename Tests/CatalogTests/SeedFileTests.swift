import Catalog
import Foundation
import TestSupport
import Testing

/// Seed files are read strictly, with errors that name the record and field at fault.
struct SeedFileTests {
    private func parse(_ json: String) throws -> SeedFile {
        try SeedFile(data: Data(json.utf8), path: "test.json")
    }

    private func reason(_ json: String) -> String? {
        do {
            _ = try parse(json)
            return nil
        } catch let CatalogError.invalidFile(_, reason) {
            return reason
        } catch {
            return "\(error)"
        }
    }

    @Test func readsProductsAndPhones() throws {
        let products = try parse(#"[{"type":"device","name":"iPod","yearIntroduced":2001,"introPrice":399}]"#)
        #expect(products == SeedFile([Product(type: .device, name: "iPod", yearIntroduced: 2001, introPrice: 399)]))
        let phones = try parse(#"[{"name":"N95","maker":"Nokia","yearReleased":2007,"operatingSystem":"Symbian","screenInches":2.6}]"#)
        #expect(phones.entity == .phones)
    }

    @Test func explainsWhatIsWrong() {
        #expect(reason("{") == "line 1, column 2: expected a JSON array of objects ([ … ])")
        #expect(reason(#"[{"a":1}"#) == "line 1: unknown field a (expected id, type, name, yearIntroduced, introPrice)")
        #expect(reason(#"[{"type":"device","name":"x","yearIntroduced":2001}]"#) == "line 1: missing field introPrice")
        #expect(reason("[\n{\"type\":\"device\",\"name\":\"x\",\"yearIntroduced\":\"2001\",\"introPrice\":1}]")
            == #"line 2, column 46 (yearIntroduced): expected a number, found text "2001""#)
        #expect(reason(#"[{"type":"gadget","name":"x","yearIntroduced":2001,"introPrice":1}]"#)?.hasPrefix("line 1, column 10 (type): invalid type") == true)
        #expect(reason(#"[{"type":"device","name":"","yearIntroduced":2001,"introPrice":1}]"#)?.contains("must not be empty") == true)
        #expect(reason(#"[{"type":"device","name":"x","yearIntroduced":1800,"introPrice":1}]"#)?.contains("(yearIntroduced): invalid year \"1800\"") == true)
        #expect(reason(#"[{"color":"red"}]"#)?.contains("unknown field color") == true)
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: CatalogError.self) { try SeedFile(data: Data([0x5B, 0xFF, 0xFE, 0x5D]), path: "bad.json") }
    }

    @Test func aMissingFileIsNamed() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: CatalogError.inaccessibleFile(path: directory.path("none.json"), reason: "no such file")) {
            try SeedFile(contentsOf: directory.path("none.json"))
        }
    }
}
