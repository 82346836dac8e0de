/// A drawn screen: its lines, each exactly the terminal's width, and where the cursor goes.
struct Screen: Hashable, Sendable {
    var lines: [ScreenLine]
    /// The cursor's line and column (0-based), or nil to hide it.
    var cursor: Cursor?

    /// A place on screen.
    struct Cursor: Hashable, Sendable {
        var line: Int
        var column: Int
    }

    /// The lines as plain text, as `tmux capture-pane` shows them (trailing spaces removed).
    var text: [String] {
        lines.map { line in
            var text = line.text
            while text.last == " " { text.removeLast() }
            return text
        }
    }
}

/// One line of the screen: runs of text, each with a role that the driver turns into attributes.
struct ScreenLine: Hashable, Sendable {
    var spans: [Span]

    /// A run of text with one role.
    struct Span: Hashable, Sendable {
        var text: String
        var role: Role
    }

    /// What a run of text is, which decides how it looks.
    enum Role: Hashable, Sendable {
        case plain
        /// The title bar.
        case title
        /// The chosen scope, sort or entity in the title bar.
        case chosen
        /// Column titles and section headers.
        case header
        /// The selected row, or the highlighted completion.
        case selected
        /// Completions, the key lines and other secondary text.
        case dim
        /// The section index's title of the selected row's section.
        case indexCurrent
        /// A question or a warning.
        case alert
    }

    init(_ spans: [Span] = []) {
        self.spans = spans
    }

    init(_ text: String, _ role: Role = .plain) {
        spans = [Span(text: text, role: role)]
    }

    /// The text without roles.
    var text: String { spans.map(\.text).joined() }

    mutating func append(_ text: String, _ role: Role = .plain) {
        spans.append(Span(text: text, role: role))
    }

    /// The line cut or padded to exactly `width` columns; padding takes the last run's role.
    func fitted(to width: Int) -> ScreenLine {
        var result = ScreenLine()
        var used = 0
        for span in spans {
            let room = width - used
            if room <= 0 { break }
            let spanWidth = DisplayWidth.of(span.text)
            if spanWidth <= room {
                result.spans.append(span)
                used += spanWidth
            } else {
                let cut = DisplayWidth.truncating(span.text, toWidth: room)
                result.spans.append(Span(text: cut, role: span.role))
                used += DisplayWidth.of(cut)
                break
            }
        }
        if used < width {
            let role = result.spans.last?.role ?? .plain
            result.spans.append(Span(text: String(repeating: " ", count: width - used), role: role))
        }
        return result
    }
}
