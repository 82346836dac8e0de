import Entities
import Foundation
import SQLiteStore
import Testing
import TestSupport

/// Random histories of insert, update and delete, checked after every step against a model written
/// from the rules ("Defining an entity", each engine's rule for new ids), not from the code: a map of
/// id to note, titles unique, a refused write changing nothing.
struct PersistenceModelTests {
    static let titles = ["Alpha", " alpha", "Beta ", "Gamma", "  ", "Émile", "東京"]

    /// The model's reading of the declared checks: the title trimmed and not empty, the priority 0-9.
    static func modelValid(_ note: Note) -> Note? {
        var valid = note
        valid.title = note.title.trimmingCharacters(in: .whitespaces)
        return valid.title.isEmpty || !(0...9).contains(note.priority) ? nil : valid
    }

    @Test(arguments: StoreEngine.all, 0..<25)
    func historiesMatchTheModel(engine: StoreEngine, seed: UInt64) throws {
        let store = try Note.store(engine)
        let queue = store.writer
        var random = SplitMix64(seed: seed)
        var model: [Int64: Note] = [:]
        // The largest id the engine gave: PostgreSQL's identity never gives one again (nor one a failed
        // insert took), where SQLite's rowid is one more than the largest in use.
        var largestGiven: Int64 = 0
        /// Whether `id` is the one the engine's rule gives a new row.
        func isNewID(_ id: Int64?) -> Bool {
            guard let id else { return false }
            switch engine {
            case .sqlite: return id == (model.keys.max() ?? 0) + 1
            case .postgreSQL: return id > largestGiven
            }
        }

        for step in 0..<60 {
            var note = Note(
                title: Self.titles.randomElement(using: &random)!, kind: Bool.random(using: &random) ? .idea : .task,
                priority: Int.random(in: -1...10, using: &random), due: Bool.random(using: &random) ? 2.5 : nil)
            let valid = Self.modelValid(note)
            let taken = { (title: String, except: Int64?) in model.values.contains { $0.title == title && $0.id != except } }
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let succeeded = (try? queue.write { db in try note.insert(db) }) != nil
                if let valid, !taken(valid.title, nil) {
                    #expect(succeeded && isNewID(note.id), "step \(step)")
                    guard let id = note.id else { continue }
                    largestGiven = max(largestGiven, id)
                    var saved = valid
                    saved.id = id
                    model[id] = saved
                } else {
                    #expect(!succeeded, "step \(step)")
                }
            case 1:
                let added = try? queue.write { db in try note.insertUnlessConflicting(db) }
                if let valid, !taken(valid.title, nil) {
                    #expect(added == true && isNewID(note.id), "step \(step)")
                    guard let id = note.id else { continue }
                    largestGiven = max(largestGiven, id)
                    var saved = valid
                    saved.id = id
                    model[id] = saved
                } else {
                    #expect(added == (valid == nil ? nil : false), "step \(step)")
                }
            case 2:
                note.id = Int64.random(in: 1...((model.keys.max() ?? 0) + 2), using: &random)
                let succeeded = (try? queue.write { db in try note.update(db) }) != nil
                if let valid, model[note.id!] != nil, !taken(valid.title, note.id) {
                    #expect(succeeded, "step \(step)")
                    var saved = valid
                    saved.id = note.id
                    model[note.id!] = saved
                } else {
                    #expect(!succeeded, "step \(step)")
                }
            default:
                let id = Int64.random(in: 1...((model.keys.max() ?? 0) + 2), using: &random)
                let deleted = try? queue.write { db in try Note.delete(id: id, db) }
                #expect(deleted == model[id], "step \(step)")
                model[id] = nil
            }
            let stored = try queue.read { db in try Note.fetchAll(db) }
            #expect(stored == model.values.sorted { $0.id! < $1.id! }, "seed \(seed) step \(step)")
        }
    }
}
