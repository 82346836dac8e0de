import Foundation

/// Writing to the terminal: notes and progress on standard error, so that standard output holds only data.
enum Terminal {
    /// Whether standard error is a terminal (progress is shown only then).
    static var isInteractive: Bool { isatty(STDERR_FILENO) != 0 }

    /// Writes `catalog: <message>` to standard error.
    static func note(_ message: String) {
        FileHandle.standardError.write(Data("catalog: \(message)\n".utf8))
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
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// A progress reporter for `done of total` work, drawn in place on a terminal and silent otherwise.
    static func progress(_ label: String) -> ((Int, Int) -> Void)? {
        guard isInteractive else { return nil }
        return { done, total in
            let percent = total == 0 ? 100 : done * 100 / total
            let line = "\r\(label): \(done)/\(total) (\(percent)%)" + (done >= total ? "\n" : "")
            FileHandle.standardError.write(Data(line.utf8))
        }
    }
}
