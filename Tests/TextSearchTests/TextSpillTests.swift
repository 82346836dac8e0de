import Foundation
@testable import PostgreSQLSearch
import TestSupport
import Testing

/// The temporary file of a bulk load's texts (`TextSpill`): made in `TMPDIR` (else `/tmp`), gone
/// from its folder at once, its rows read back as written, and each failure said truly.
struct TextSpillTests {
    @Test func rowsComeBackAsWrittenAndTheFileIsGoneFromItsFolder() throws {
        let directory = try TemporaryDirectory()
        let spill = try TextSpill(directory: directory.url.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        let written: [(scope: Int, texts: [String?])] = [(3, ["東京", nil, ""]), (0, ["a", "b c", nil]), (7, [nil, nil, nil])]
        for row in written { spill.append(scope: row.scope, texts: row.texts) }
        var read: [(scope: Int, texts: [String?])] = []
        try spill.forEach(textCount: 3) { scope, texts in read.append((scope, texts)) }
        #expect(read.map(\.scope) == written.map(\.scope))
        #expect(read.map(\.texts) == written.map(\.texts))
    }

    @Test func theFolderIsTMPDIRElseTmp() {
        let environment = ProcessInfo.processInfo.environment["TMPDIR"]
        #expect(TextSpill.temporaryDirectory == (environment?.isEmpty == false ? environment! : "/tmp"))
    }

    @Test func aFolderThatCannotHoldTheFileIsNamed() {
        #expect {
            _ = try TextSpill(directory: "/nonexistent-folder-of-texts")
        } throws: { error in
            "\(error)" == "the bulk load's temporary file of texts could not be made in /nonexistent-folder-of-texts: No such file or directory"
        }
    }

    /// A file cut short within a row says so, not what `errno` held last ("Success").
    @Test(arguments: [2, 4 + 2, 4 + 4 + 3])
    func aFileThatEndsWithinARowSaysSo(length: Int) throws {
        let spill = try TextSpill()
        spill.append(scope: 1, texts: ["abcdef"])
        fflush(spill.file)
        #expect(ftruncate(fileno(spill.file), off_t(length)) == 0)
        #expect {
            try spill.forEach(textCount: 1) { _, _ in }
        } throws: { error in
            "\(error)" == "the bulk load's temporary file of texts ends within a row"
        }
    }
}
