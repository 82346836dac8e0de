import ArgumentParser
import Catalog
import Dispatch
import FetchedResults
import PostgreSQLStore
import RecordFormats
import SQLiteStore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CatalogCommand {
    /// `catalog watch`: the listed result, then each change to it as it happens, from any process.
    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            _superCommandName: CatalogCommand.commandName,
            abstract: "Print a list, then every change to it as commits happen, from this or any other process.",
            discussion: """
                Takes the options of `list`. Each change set lists section insertions and deletions, then \
                row deletions (old index paths), insertions (new paths), moves (old → new) and updates, as \
                a table view applies them. --json prints the list as one line of JSON, then one line per \
                change set. --format jsonl, csv or tsv print one row per event: each listed row (event \
                `row`), then each change (`insert`, `delete`, `move`, `update`) with its path, the path it \
                came `from`, its section and the record's fields (a deleted row: only its id). Ctrl-C stops \
                watching.

                Examples:
                  catalog watch
                  catalog watch --scope portable --json
                  catalog watch --format csv
                  catalog watch phones --search pixel
                """)

        @OptionGroup var options: ListedResultOptions

        func run() async throws {
            let (entity, choice, format) = try options.resolved()
            try await reportingFailures {
                try await watch(entity.entityType, choice, format)
            }
        }

        private func watch<Entity: CatalogEntity>(
            _ type: Entity.Type, _ choice: ListChoice, _ format: OutputFormat
        ) async throws {
            let request = try choice.request(Entity.self)
            let catalog = try options.list.openStore()
            // A file's commits are seen by its monitor; a server's by its notifications.
            let monitor = try catalog.file.map { try ChangeMonitor(path: $0.path) }
            let server = ServerCommits(catalog.writer as? PostgreSQLCluster)
            let stopping = SignalHandlers([SIGINT, SIGTERM]) { _ in
                monitor?.stop()
                server.stop()
            }
            defer { withExtendedLifetime(stopping) {} }

            // The first read races other processes' writes: should a row go before its batch is read,
            // start again from a new snapshot. A server lost meanwhile is waited for, as below.
            var attempts = 0
            var started: (FetchedResultsController<Entity>, [EntitySection<Entity>])?
            while started == nil {
                guard !server.isStopped else { return }
                do {
                    let controller = try catalog.trackedResults(request, batchSize: 50)
                    started = (controller, try controller.entitySections())
                } catch FetchError.resultChanged where attempts < 5 {
                    attempts += 1
                } catch let error as PostgreSQLError where error.isConnectionLoss {
                    try server.lost(error)
                    try await Task.sleep(for: .seconds(1))
                }
            }
            let (controller, sections) = started!
            let events = format.dataFormat.flatMap { $0 == .json ? nil : WatchEventWriter<Entity>(format: $0) }
            if let events {
                try events.write(sections)
            } else {
                try printSections(sections, catalog, request, format: format, compact: true)
            }
            if format == .table && Terminal.isInteractive { Terminal.note("watching for changes (Ctrl-C to stop)") }
            let show = { (changeSet: ChangeSet) in
                if let events {
                    try events.write(changeSet, controller)
                } else if format == .json {
                    Terminal.print(try renderJSON(ChangeSetJSON(changeSet, controller), compact: true))
                } else {
                    Terminal.print(renderChangeSet(changeSet, controller))
                }
            }
            if let monitor {
                for try await changeSet in controller.changeSets(from: monitor) { try show(changeSet) }
                return
            }
            for try await _ in server.wakeUps() {
                // After a restart, the first read on a connection made before it finds it closed, and
                // the next one connects again. A server still down is said so; listening again wakes
                // this loop up once it is back.
                let changeSet: ChangeSet
                do {
                    do {
                        changeSet = try await controller.applyPendingChanges()
                    } catch let error as PostgreSQLError where error.isConnectionLoss {
                        changeSet = try await controller.applyPendingChanges()
                    }
                } catch let error as PostgreSQLError where error.isConnectionLoss {
                    try server.lost(error)
                    continue
                }
                if !changeSet.isEmpty { try show(changeSet) }
            }
        }
    }
}

/// The wake-ups of `watch` on a PostgreSQL server: one when listening starts, then one per commit
/// that changed tracked rows (`PostgreSQLCluster.changeNotifications()`), until ``stop()``.
///
/// When the server cannot be reached (the primary stopped or restarts), whether listening or reading
/// finds it, it says so in one line on standard error (``lost(_:)``), and listens again every second;
/// once it listens again it says so and wakes up, and the change log gives the changes committed
/// meanwhile, so none is missed. A primary that is not back within ``reconnectLimit`` ends `watch`
/// with one line saying so and why (exit 8): it never shows a result that has silently stopped
/// following the server.
final class ServerCommits: Sendable {
    /// How long `watch` tries to listen again before giving up.
    static let reconnectLimit: Duration = .seconds(30)

    private let cluster: PostgreSQLCluster?
    private let stream: AsyncThrowingStream<Void, any Error>
    private let continuation: AsyncThrowingStream<Void, any Error>.Continuation
    /// When the server was found unreachable, until listening works again.
    private let lostAt = Mutex<ContinuousClock.Instant?>(nil)
    private let stopped = Mutex(false)

    init(_ cluster: PostgreSQLCluster?) {
        self.cluster = cluster
        (stream, continuation) = AsyncThrowingStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Whether ``stop()`` was called: a wait for a lost server ends then.
    var isStopped: Bool { stopped.withLock { $0 } }

    /// Ends the wake-ups.
    func stop() {
        stopped.withLock { $0 = true }
        continuation.finish()
    }

    /// Notes that the server cannot be reached: says so the first time, and throws
    /// ``CommandFailure/serverLost(_:)`` once it has not been reached for ``reconnectLimit``.
    func lost(_ error: PostgreSQLError) throws {
        let first = try lostAt.withLock { lostAt -> Bool in
            guard let lostAt else {
                lostAt = .now
                return true
            }
            if ContinuousClock.now - lostAt > Self.reconnectLimit { throw CommandFailure.serverLost(error) }
            return false
        }
        if first { Terminal.note("lost the connection to the PostgreSQL server (\(error.message)); listening again every second") }
    }

    /// The wake-ups; listening starts with the first call.
    func wakeUps() -> AsyncThrowingStream<Void, any Error> {
        guard let cluster else { return stream }
        let continuation = continuation
        let listening = Task {
            while !Task.isCancelled {
                do {
                    for try await _ in cluster.changeNotifications() {
                        if lostAt.withLock({ $0.take() }) != nil {
                            Terminal.note("listening to the PostgreSQL server again; the changes made meanwhile follow")
                        }
                        continuation.yield()
                    }
                    return
                } catch let error as PostgreSQLError where error.isConnectionLoss {
                    do {
                        try lost(error)
                    } catch {
                        continuation.finish(throwing: error)
                        return
                    }
                    try? await Task.sleep(for: .seconds(1))
                } catch {
                    continuation.finish(throwing: error)
                    return
                }
            }
        }
        continuation.onTermination = { _ in listening.cancel() }
        return stream
    }
}

// MARK: - Rendering change sets

/// `watch` in JSON lines, CSV or TSV: one row per event, `event`, `path`, `from`, `section`, then the
/// record's fields. The listed rows come first (`row`), then each change set's changes in order.
final class WatchEventWriter<Entity: CatalogEntity> {
    private let writer: RecordWriter<Entity>
    private let idColumn: Int

    init(format: DataFormat) {
        let extras = ["event", "path", "from", "section"]
        writer = RecordWriter(format: format, layout: Entity.layout, extraFields: extras, output: .standardOutput())
        idColumn = extras.count + Entity.layout.fieldNames.firstIndex(of: "id")!
    }

    /// The listed rows, as `row` events.
    func write(_ sections: [EntitySection<Entity>]) throws {
        for (sectionIndex, section) in sections.enumerated() {
            for (row, record) in section.records.enumerated() {
                let path = ItemPath(section: sectionIndex, row: row).description
                try writer.write(record, extras: [.text("row"), .text(path), nil, .text(section.name)])
            }
        }
        try writer.finish()
    }

    /// One event per change: the record as it is now (a deleted one: its id only).
    func write(_ changeSet: ChangeSet, _ controller: FetchedResultsController<Entity>) throws {
        for change in changeSet.changes {
            let (event, path, from): (String, ItemPath, ItemPath?) = switch change {
            case .insert(_, let path): ("insert", path, nil)
            case .delete(_, let path): ("delete", path, nil)
            case .move(_, let from, let to): ("move", to, from)
            case .update(_, let from, let to): ("update", to, from)
            }
            // A later commit, not applied yet, may have deleted the row already: then only its id.
            let record = event == "delete" ? nil : try? controller.object(at: path)
            let section = event == "delete" ? nil : controller.sections[path.section].name
            let extras: [FieldValue?] = [.text(event), .text(path.description), from.map { .text($0.description) }, section.map(FieldValue.text)]
            if let record {
                try writer.write(record, extras: extras)
            } else {
                var values = extras + Array(repeating: nil, count: Entity.layout.fields.count)
                values[idColumn] = .integer(change.id)
                try writer.write(values: values)
            }
        }
        try writer.finish()
    }
}

/// A change set in JSON: `deletedSections`, `insertedSections` (`index`, `name`), `changes` (`kind`,
/// `id`, `path` or `from`/`to`) and the `sections` after it (`name`, `count`).
struct ChangeSetJSON: Encodable {
    struct Section: Encodable {
        let index: Int
        let name: String
    }

    struct Change: Encodable {
        let kind: String
        let id: Int64
        let path: String?
        let from: String?
        let to: String?
    }

    struct Count: Encodable {
        let name: String
        let count: Int
    }

    let deletedSections: [Section]
    let insertedSections: [Section]
    let changes: [Change]
    let sections: [Count]

    init<Entity>(_ changeSet: ChangeSet, _ controller: FetchedResultsController<Entity>) {
        deletedSections = changeSet.deletedSections.map { Section(index: $0.index, name: $0.name) }
        insertedSections = changeSet.insertedSections.map { Section(index: $0.index, name: $0.name) }
        changes = changeSet.changes.map { change in
            switch change {
            case .insert(let id, let path): Change(kind: "insert", id: id, path: path.description, from: nil, to: nil)
            case .delete(let id, let path): Change(kind: "delete", id: id, path: path.description, from: nil, to: nil)
            case .move(let id, let from, let to):
                Change(kind: "move", id: id, path: nil, from: from.description, to: to.description)
            case .update(let id, let from, let to):
                Change(kind: "update", id: id, path: nil, from: from.description, to: to.description)
            }
        }
        sections = controller.sections.map { Count(name: $0.name, count: $0.numberOfObjects) }
    }
}

/// A change set as aligned lines: one per section change and per row change, with the row's name.
func renderChangeSet<Entity: CatalogEntity>(_ changeSet: ChangeSet, _ controller: FetchedResultsController<Entity>) -> String {
    var table = TextTable()
    for section in changeSet.deletedSections { table.append(["delete section", String(section.index), section.name]) }
    for section in changeSet.insertedSections { table.append(["insert section", String(section.index), section.name]) }
    for change in changeSet.changes {
        let (kind, place): (String, String) = switch change {
        case .insert(_, let path): ("insert", path.description)
        case .delete(_, let path): ("delete", path.description)
        case .move(_, let from, let to): ("move", "\(from) → \(to)")
        case .update(_, let from, let to): ("update", from == to ? from.description : "\(from) → \(to)")
        }
        // A later commit, not applied yet, may have deleted the row already: then no name.
        let name = change.newPath.flatMap { try? controller.object(at: $0).name } ?? ""
        table.append([kind, place, name, "id \(change.id)"])
    }
    let counts = changeSet.changes.reduce(into: [String: Int]()) { counts, change in
        let kind = switch change {
        case .insert: "insert"
        case .delete: "delete"
        case .move: "move"
        case .update: "update"
        }
        counts[kind, default: 0] += 1
    }
    let summary = ["insert", "delete", "move", "update"].compactMap { kind in counts[kind].map { "\($0) \(kind)" } }
    return "— " + summary.joined(separator: ", ") + "\n" + table.render().split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
}
