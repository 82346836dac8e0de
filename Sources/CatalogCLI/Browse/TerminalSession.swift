#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private let systemWrite = write

/// The terminal while `browse` runs: raw mode, the alternate screen, and drawing a ``Screen`` by
/// rewriting only the lines that changed, with plain termios and ANSI (VT100/xterm) escape sequences.
///
/// ``restore()`` puts everything back (attributes, cursor, main screen, the saved termios settings);
/// it is idempotent, and the driver calls it on quit, Ctrl-C, SIGTERM and a thrown error.
final class TerminalSession {
    private let input: Int32
    private let output: Int32
    private var saved = termios()
    private var isActive = false
    /// The screen on the terminal now; nil forces a full redraw.
    private var shown: Screen?
    let style: ScreenStyle

    /// Takes over the terminal on `input`/`output`: raw mode, alternate screen, cursor hidden.
    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, style: ScreenStyle) throws {
        self.input = input
        self.output = output
        self.style = style
        guard tcgetattr(input, &saved) == 0 else { throw TerminalError.notATerminal }
        var raw = saved
        // No echo, no line editing, no signals from keys (Ctrl-C and Ctrl-Z arrive as bytes), no
        // flow control (Ctrl-S, Ctrl-Q) and no CR → NL translation; 8-bit bytes; read returns each byte.
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else { throw TerminalError.notATerminal }
        isActive = true
        write(Escape.alternateScreen + Escape.hideCursor + Escape.clear)
    }

    deinit {
        restore()
    }

    /// Puts the terminal back as it was. Idempotent.
    func restore() {
        guard isActive else { return }
        isActive = false
        write(Escape.reset + Escape.showCursor + Escape.mainScreen)
        _ = tcsetattr(input, TCSAFLUSH, &saved)
    }

    /// Forgets what is on screen, so that the next ``draw(_:)`` rewrites every line (after a resize).
    func invalidate() {
        shown = nil
        write(Escape.clear)
    }

    /// Draws `screen`, writing only the lines that differ from the screen drawn last; nothing at all
    /// when the screen is unchanged.
    func draw(_ screen: Screen) {
        guard screen != shown else { return }
        var bytes = Escape.hideCursor
        for (index, line) in screen.lines.enumerated() {
            if let shown, index < shown.lines.count, shown.lines[index] == line { continue }
            bytes += Escape.moveTo(line: index, column: 0) + encode(line) + Escape.reset
        }
        if let cursor = screen.cursor {
            bytes += Escape.moveTo(line: cursor.line, column: cursor.column) + Escape.showCursor
        }
        write(bytes)
        shown = screen
    }

    /// A line with the escape sequences of its roles.
    private func encode(_ line: ScreenLine) -> String {
        var text = ""
        for span in line.spans {
            text += Escape.reset + Escape.attributes(for: span.role, style: style) + Self.printable(span.text)
        }
        return text
    }

    /// `text` without control characters, which would move the cursor.
    private static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                systemWrite(output, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            offset += written
        }
        bytes.removeAll()
    }
}

/// Why the terminal could not be taken over.
enum TerminalError: Error, CustomStringConvertible {
    case notATerminal

    var description: String { "standard input is not a terminal" }
}

/// The ANSI escape sequences `browse` writes.
enum Escape {
    static let alternateScreen = "\u{1B}[?1049h"
    static let mainScreen = "\u{1B}[?1049l"
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    static let clear = "\u{1B}[H\u{1B}[2J"
    static let reset = "\u{1B}[0m"

    /// Moves the cursor to a 0-based line and column.
    static func moveTo(line: Int, column: Int) -> String { "\u{1B}[\(line + 1);\(column + 1)H" }

    /// The SGR attributes of a role: colours only in ``ScreenStyle/color``, bold and reverse video in
    /// ``ScreenStyle/monochrome`` too, nothing in ``ScreenStyle/plain``.
    static func attributes(for role: ScreenLine.Role, style: ScreenStyle) -> String {
        let codes: String? = switch (style, role) {
        case (.plain, _), (_, .plain): nil
        case (.color, .title): "1;37;44"
        case (.color, .chosen): "1;30;46"
        case (.color, .header): "1;33"
        case (.color, .selected): "1;30;47"
        case (.color, .dim): "2"
        case (.color, .indexCurrent): "1;30;46"
        case (.color, .alert): "1;31"
        case (.monochrome, .title): "7"
        case (.monochrome, .chosen): "1"
        case (.monochrome, .header): "1"
        case (.monochrome, .selected): "7"
        case (.monochrome, .dim): "2"
        case (.monochrome, .indexCurrent): "7"
        case (.monochrome, .alert): "1"
        }
        return codes.map { "\u{1B}[\($0)m" } ?? ""
    }
}
