import Foundation
import TestSupport

/// A tmux pane running a shell, on a tmux server of its own (its own socket), for end-to-end tests of
/// `catalog browse` in a real terminal: keys go in with `send-keys`, the screen comes out with
/// `capture-pane`. Waits poll the screen until a deadline, never a fixed sleep.
final class TmuxPane {
    /// Whether tmux is installed (CI installs it; `.ci/run`).
    static var isAvailable: Bool {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static var tmux: URL {
        URL(fileURLWithPath: ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
            .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/tmux")
    }

    /// The prompt of the pane's shell.
    static let prompt = "PANE$ "
    /// How long a wait may take before the test fails: generous, as CI machines are slow and shared.
    static let deadline: Duration = .seconds(60)

    private let socket: String
    /// The pane's shell, a process group leader: ended with its group when the pane goes, since it
    /// ignores the SIGHUP `kill-server` sends and the server waits for it (they outlived the tests).
    private var shell: Int32 = 0

    /// Starts a tmux server with one `columns`×`lines` pane running `sh` in `directory`, with
    /// `environment` added.
    init(directory: String, columns: Int = 100, lines: Int = 30, environment: [String: String]) throws {
        socket = directory + "/tmux.socket"
        var variables = ProcessRunner.environment(home: nil, adding: environment)
        variables["PS1"] = Self.prompt
        variables["TERM"] = "xterm-256color"
        variables.removeValue(forKey: "TMUX")
        let status = Self.spawnDetached([Self.tmux.path, "-S", socket, "-f", "/dev/null", "new-session", "-d",
            "-x", String(columns), "-y", String(lines), "-c", directory, "env"]
            + variables.map { "\($0.key)=\($0.value)" } + ["sh"])
        guard status == 0 else { throw TmuxError(description: "tmux new-session failed with status \(status)") }
        shell = try shellPID()
        _ = try wait(for: "a shell prompt") { $0.contains("PANE$") }
    }

    /// Runs `arguments` with /dev/null as its standard streams and no other descriptor of ours, and
    /// returns its exit status. The tmux server it starts lives on with the descriptors it inherits:
    /// a pipe of this process (any test's) held there would never reach its end.
    private static func spawnDetached(_ arguments: [String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in Int32(0)...2 {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        // Close every other descriptor (there is no closefrom action in Swift's Glibc), then run it.
        let script = #"for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; exec "$@""#
        var argv = (["/bin/bash", "-c", script, "bash"] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/bash", &actions, nil, &argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status >> 8) & 0xFF
    }

    deinit {
        if shell > 0 { kill(-shell, SIGKILL) }
        _ = try? ProcessRunner.run(executable: Self.tmux, ["-S", socket, "kill-server"])
    }

    /// Types `text` literally (UTF-8, as an input method commits it).
    func type(_ text: String) throws {
        try tmux(["send-keys", "-l", text])
    }

    /// Presses keys by tmux name (`Enter`, `C-t`, `Escape`, `Down`).
    func press(_ keys: String...) throws {
        for key in keys { try tmux(["send-keys", key]) }
    }

    /// The screen as text.
    func capture() throws -> String {
        try tmuxOutput(["capture-pane", "-p"])
    }

    /// The pid of the pane's shell.
    func shellPID() throws -> Int32 {
        Int32(try tmuxOutput(["display-message", "-p", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Polls the screen until `condition` holds; throws with the last screen after ``deadline``.
    @discardableResult
    func wait(for what: String, _ condition: (String) -> Bool) throws -> String {
        let clock = ContinuousClock()
        let end = clock.now + Self.deadline
        var screen = ""
        while clock.now < end {
            screen = try capture()
            if condition(screen) { return screen }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw TmuxError(description: "timed out waiting for \(what); the screen:\n\(screen)")
    }

    private func tmux(_ arguments: [String]) throws {
        _ = try tmuxOutput(arguments)
    }

    private func tmuxOutput(_ arguments: [String]) throws -> String {
        let result = try ProcessRunner.run(executable: Self.tmux, ["-S", socket] + arguments)
        guard result.status == 0 else { throw TmuxError(description: "tmux \(arguments) failed: \(result)") }
        return result.output
    }
}

/// A tmux step that failed or timed out.
struct TmuxError: Error, CustomStringConvertible {
    let description: String
}
