import SQLiteStore
import TextSearch

/// Recounts the structures a search of one entity reads — the folded text columns, the suffix table and
/// the short-gram counts — from the names they are derived from, and says where they differ.
///
/// Written against the entity's ``SearchDescription`` alone (its tables, columns and suffix length), with
/// the definitions of ``SearchDescription/installSQL``: a suffix is the text from a non-space character
/// on, cut to the suffix length, one row per distinct suffix of a row; a gram count is the
/// number of rows of a type holding a 1- or 2-character substring at least once (rows counting 0 are
/// allowed). The FTS5 index is checked by SQLite (``Database/fullTextIndexProblem(_:)``).
struct SearchIndexCheck {
    let schema: SearchDescription

    /// One line per structure that does not match the names; empty when all do.
    ///
    /// Reads the entity's table once and each derived table once, in the caller's transaction.
    /// - Complexity: O(n · L) for n rows of names of L characters; memory O(distinct grams).
    func problems(_ db: Database) throws -> [String] {
        let sources = schema.textColumns.map { String($0.dropLast("_folded".count)) }
        let group = schema.gramCountsTable == nil ? "NULL" : schema.scopeColumn ?? "''"
        var unfolded = 0
        var firstUnfolded: Int64?
        var suffixes = Digest()
        var grams: [GramKey: Int] = [:]
        let columns = (sources + schema.textColumns).joined(separator: ", ")
        try db.makeStatement(sql: "SELECT id, \(group), \(columns) FROM \(schema.table)").forEachRow { row in
            let id = try row.decode(Int64.self, at: 0)
            let width = sources.count
            for index in 0..<width {
                let folded = try row.decode(String.self, at: 2 + width + index)
                if Array(folded.utf8) != Array(TextFolding.fold(try row.decode(String.self, at: 2 + index)).utf8) {
                    unfolded += 1
                    if firstUnfolded == nil { firstUnfolded = id }
                }
            }
            guard schema.suffixesTable != nil || schema.gramCountsTable != nil else { return }
            let name = Array(try row.decode(String.self, at: 2 + width).unicodeScalars)
            if schema.suffixesTable != nil {
                var distinct = Set<String>()
                for start in name.indices where name[start] != " " {
                    distinct.insert(String(String.UnicodeScalarView(name[start..<min(start + schema.suffixLength!.scalars, name.count)])))
                }
                for suffix in distinct { suffixes.add(suffix, id) }
            }
            if schema.gramCountsTable != nil {
                let type = try row.decode(String.self, at: 1)
                var distinct = Set<String>()
                for start in name.indices {
                    distinct.insert(String(name[start]))
                    if start + 1 < name.count { distinct.insert(String(String.UnicodeScalarView(name[start...start + 1]))) }
                }
                for gram in distinct { grams[GramKey(gram: gram, group: type), default: 0] += 1 }
            }
        }
        var problems: [String] = []
        if unfolded > 0 {
            problems.append("\(schema.table): \(unfolded) row\(unfolded == 1 ? "'s" : "s'") folded text differs from the folded name (first: id \(firstUnfolded!))")
        }
        if let table = schema.suffixesTable {
            var stored = Digest()
            try db.makeStatement(sql: "SELECT suffix, id FROM \(table)").forEachRow { row in
                stored.add(try row.decode(String.self, at: 0), try row.decode(Int64.self, at: 1))
            }
            if stored.count != suffixes.count {
                problems.append("\(table): \(stored.count) rows, where the names give \(suffixes.count)")
            } else if stored != suffixes {
                problems.append("\(table): \(stored.count) rows, as many as the names give, but not the same ones")
            }
        }
        if let table = schema.gramCountsTable {
            var wrong = 0
            var first: String?
            try db.makeStatement(sql: "SELECT gram, \(schema.scopeColumn ?? "''"), count FROM \(table)").forEachRow { row in
                let key = GramKey(gram: try row.decode(String.self, at: 0), group: try row.decode(String.self, at: 1))
                let count = try row.decode(Int.self, at: 2)
                let expected = grams.removeValue(forKey: key) ?? 0
                if count != expected {
                    wrong += 1
                    if first == nil { first = "\(String(reflecting: key.gram)) in \(key.group): \(count), expected \(expected)" }
                }
            }
            if let missing = grams.first {
                wrong += grams.count
                if first == nil { first = "\(String(reflecting: missing.key.gram)) in \(missing.key.group): missing, expected \(missing.value)" }
            }
            if wrong > 0 { problems.append("\(table): \(wrong) count\(wrong == 1 ? "" : "s") differ from the names (first: \(first!))") }
        }
        return problems
    }

    private struct GramKey: Hashable {
        let gram: String
        let group: String
    }

    /// An order-independent fingerprint of a set of (text, id) pairs: their number and the wrapping sum
    /// of each pair's 64-bit FNV-1a hash. Equal sets give equal digests; different ones collide with a
    /// chance of about 2⁻⁶⁴.
    private struct Digest: Equatable {
        var count = 0
        var sum: UInt64 = 0

        mutating func add(_ text: String, _ id: Int64) {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
            var value = UInt64(bitPattern: id)
            for _ in 0..<8 {
                hash ^= value & 0xff
                hash &*= 0x0000_0100_0000_01b3
                value >>= 8
            }
            count += 1
            sum &+= hash
        }
    }
}
