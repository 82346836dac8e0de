import Foundation
import TestSupport

/// A real, small file system that can be filled: a tmpfs of a given size, mounted in a mount namespace
/// of its own (`unshare --mount`), so that nothing outside this object sees it and it goes away with it.
/// Commands run inside the namespace through `nsenter`; the test reads the files through
/// `/proc/<pid>/root`.
///
/// Mounting needs root (`CAP_SYS_ADMIN`): see ``isAvailable``.
final class SmallFileSystem {
    /// Whether this process can make one: root, with `unshare` and `nsenter`, allowed to mount.
    static let isAvailable: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/nsenter") else { return false }
        let probe = try? ProcessRunner.run(
            executable: URL(fileURLWithPath: "/usr/bin/unshare"),
            ["--mount", "--propagation", "private", "/bin/sh", "-c", "mount -t tmpfs -o size=64k tmpfs /tmp"])
        return probe?.status == 0
    }()

    /// The folder the file system is mounted on, as commands inside the namespace name it.
    let mountPoint: String
    private let workspace: Workspace
    private let holder = Process()

    /// Mounts a tmpfs of `kilobytes` KiB on a new folder of a new workspace.
    init(kilobytes: Int) throws {
        workspace = try Workspace()
        mountPoint = workspace.path("small")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        holder.arguments = [
            "--mount", "--propagation", "private", "/bin/sh", "-c",
            "mount -t tmpfs -o size=\(kilobytes)k tmpfs \"$0\" && echo mounted && exec sleep 3600", mountPoint,
        ]
        let output = Pipe()
        holder.standardOutput = output
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        let line = String(decoding: output.fileHandleForReading.readData(ofLength: 8), as: UTF8.self)
        guard line.hasPrefix("mounted") else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "could not mount a tmpfs on \(mountPoint)"])
        }
    }

    deinit {
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
    }

    /// The path of `name` on the small file system, for commands run with ``run(_:_:)``.
    func path(_ name: String) -> String { mountPoint + "/" + name }

    /// The same file as this process reaches it, through the namespace's root.
    func hostPath(_ name: String) -> String { "/proc/\(holder.processIdentifier)/root" + path(name) }

    /// The names of the files on the small file system.
    func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: hostPath("")).sorted()
    }

    /// Runs `executable` (a path) with `arguments` inside the namespace.
    @discardableResult
    func run(_ executable: String, _ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(
            executable: URL(fileURLWithPath: "/usr/bin/nsenter"),
            ["--target", String(holder.processIdentifier), "--mount", "--", executable] + arguments,
            home: workspace.path("home"))
    }

    /// Runs the built `catalog` with `arguments` inside the namespace.
    func catalog(_ arguments: [String]) throws -> ProcessResult {
        try run(ProcessRunner.productsDirectory.appendingPathComponent("catalog").path, arguments)
    }

    /// Fills the file system with a file named `filler`, until a write fails for want of space.
    func fill() throws {
        try run("/bin/dd", ["if=/dev/zero", "of=" + path("filler"), "bs=4096"])
    }

    /// Makes room again by removing the `filler`.
    func makeRoom() throws {
        try FileManager.default.removeItem(atPath: hostPath("filler"))
    }
}
