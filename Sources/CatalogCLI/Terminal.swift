import RecordFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private let systemWrite = write

/// Writing to the terminal: notes and progress on standard error, so that standard output holds only data.
enum Terminal {
    /// Whether standard error is a terminal (progress is shown only then).
    static var isInteractive: Bool { isatty(STDERR_FILENO) != 0 }

    /// Writes `catalog: <message>` to standard error.
    static func note(_ message: String) {
        write("catalog: \(message)\n", to: STDERR_FILENO)
    }

    /// `text` with each control character (a newline, an escape sequence…) written as a Swift escape
    /// (`\n`, `\u{1B}`), so that a path or value holding one cannot break an error into several lines,
    /// forge one, or drive the terminal.
    static func oneLine(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: result += scalar.escaped(asASCII: true)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Writes data to standard output.
    static func print(_ text: String) {
        write(text.hasSuffix("\n") ? text : text + "\n", to: STDOUT_FILENO)
    }

    /// Writes all of `text` to `descriptor`, again after a signal interrupts it.
    ///
    /// Traps when the write fails (a full disk, a closed descriptor), as Foundation's
    /// `FileHandle.write(_:)` did: the output would be incomplete, and the command cannot say so on it.
    static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                precondition(written >= 0, "writing to file descriptor \(descriptor) failed: \(String(cString: strerror(errno)))")
                offset += written
            }
        }
    }

    /// A progress line for long work, when standard error is a terminal; nil otherwise (piped or
    /// redirected, nothing is drawn). `showsOnDataOutput`: the command's data goes to standard output,
    /// so no progress is drawn when that is the same terminal.
    static func progress(_ label: String, showsOnDataOutput: Bool = false) -> ProgressLine? {
        guard isInteractive, !(showsOnDataOutput && isatty(STDOUT_FILENO) != 0) else { return nil }
        return ProgressLine(label: label)
    }
}

/// Progress drawn in place on standard error: the records done and the rate, at most
/// ``redrawInterval`` apart, and a last line once when the work is done.
final class ProgressLine {
    /// How often the line is redrawn at most: often enough to look alive, seldom enough to cost nothing.
    static let redrawInterval = Duration.milliseconds(100)

    private let label: String
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDrawn: ContinuousClock.Instant

    init(label: String) {
        self.label = label
        start = clock.now
        lastDrawn = start
    }

    /// Shows `done` records, unless the line was drawn less than ``redrawInterval`` ago.
    func update(_ done: Int) {
        let now = clock.now
        guard now - lastDrawn >= Self.redrawInterval else { return }
        lastDrawn = now
        draw(done, now: now, final: false)
    }

    /// Shows the final count and ends the line.
    func finish(_ done: Int) {
        draw(done, now: clock.now, final: true)
    }

    private func draw(_ done: Int, now: ContinuousClock.Instant, final: Bool) {
        let seconds = max((now - start) / .seconds(1), 0.001)
        let rate = Int((Double(done) / seconds).rounded())
        let line = "\r\u{1B}[K\(label): \(counted(done, "record", "records", shownAs: grouped(done))), \(grouped(rate))/s" + (final ? ", \(FixedPoint.text(seconds, decimals: 1)) s\n" : "")
        Terminal.write(line, to: STDERR_FILENO)
    }

    private func grouped(_ number: Int) -> String {
        var digits = String(number)
        var result = ""
        while digits.count > 3 {
            result = "," + digits.suffix(3) + result
            digits.removeLast(3)
        }
        return digits + result
    }
}
