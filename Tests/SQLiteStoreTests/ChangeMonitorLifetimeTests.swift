#if os(Linux)
import Foundation
import SQLiteStore
import Testing

/// The monitor's thread, connection and inotify watch end with the last reference to it, which a
/// cancelled consumer releases. Checked through `/proc/self`, on Linux.
/// SQLite-only: the monitor of a database file (PostgreSQL's notifications: ChangeLogPositionTests).
struct ChangeMonitorLifetimeTests {
    @Test func cancellingTheLastConsumerClosesTheConnectionAndTheWatch() async throws {
        let store = try TrackedDatabase()
        let baseline = descriptors(in: store.directory)  // the writer's
        #expect(watches(of: store.directory) == 0)

        let consumer = try startConsumer(of: store)
        #expect(descriptors(in: store.directory) > baseline)
        #expect(watches(of: store.directory) == 1)

        consumer.cancel()
        await consumer.value
        // SQLite keeps a closed connection's descriptor of a file open while another connection of the
        // process holds a lock on that file (closing it would drop their POSIX locks): close the writer too.
        try store.queue.close()
        let deadline = ContinuousClock.now + .seconds(2)
        while descriptors(in: store.directory) > 0 || watches(of: store.directory) > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(paths(in: store.directory) == [])
        #expect(watches(of: store.directory) == 0)
    }

    /// A task iterating a monitor that nothing else references.
    private func startConsumer(of store: TrackedDatabase) throws -> Task<Void, Never> {
        let changes = try ChangeMonitor(path: store.path).changes()
        return Task { for await _ in changes {} }
    }

    /// The number of this process's descriptors open on files in `directory`.
    private func descriptors(in directory: URL) -> Int {
        let links = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return links.filter { link in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(link)"))?
                .hasPrefix(directory.path) ?? false
        }.count
    }

    private func paths(in directory: URL) -> [String] {
        let links = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return links.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
            .filter { $0.hasPrefix(directory.path) }
    }

    /// The number of inotify watches this process holds on `directory`.
    private func watches(of directory: URL) -> Int {
        var status = stat()
        guard stat(directory.path, &status) == 0 else { return 0 }
        let inode = " ino:" + String(status.st_ino, radix: 16) + " "
        let infos = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fdinfo")) ?? []
        return infos.reduce(0) { count, descriptor in
            let text = (try? String(contentsOfFile: "/proc/self/fdinfo/\(descriptor)", encoding: .utf8)) ?? ""
            return count + text.split(separator: "\n").filter { $0.hasPrefix("inotify") && $0.contains(inode) }.count
        }
    }
}
#endif
