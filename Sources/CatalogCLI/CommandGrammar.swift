/// What the fast parse of a command (``FastParsableCommand``) knows of its arguments: the long names
/// of its options that take a value, of its flags, and how many positional words it takes. A test
/// checks that it is exactly what ArgumentParser declares for the command (its `_dumpHelp()`), so an
/// option added to a command without its table makes the test fail rather than the fast parse refuse
/// or misread it.
///
/// ```swift
/// CommandGrammar(options: ["--limit"], flags: ["--json"], positionals: 1...1)
///     .scanned(["mac", "--limit=3"])  // values ["3"], flags [false], positionals ["mac"]
/// ```
struct CommandGrammar {
    /// The options that take a value, as typed (`--search`).
    let options: [String]
    /// The flags, as typed (`--json`).
    let flags: [String]
    /// How many positional words the command takes.
    let positionals: ClosedRange<Int>

    /// This grammar with `options`, `flags` and the positional words of an option group or command
    /// around it added.
    func adding(options: [String] = [], flags: [String] = [], positionals: ClosedRange<Int>) -> CommandGrammar {
        CommandGrammar(options: self.options + options, flags: self.flags + flags, positionals: positionals)
    }

    /// `arguments` read by this grammar, or nil for anything whose meaning is not certain from it alone:
    /// a word that starts with `-` and is not one of its options or flags (`-h`, `--help`, `--`,
    /// `--version`, `--generate-completion-script`, an unknown option), an option or flag given twice,
    /// an option without a value or whose value starts with `-`, a flag with `=`, or too many or too
    /// few positional words. Each option is `--name value` or `--name=value` (split at the first `=`,
    /// as ArgumentParser splits it, after ``CatalogCommand/normalizedArguments(_:)``).
    func scanned(_ arguments: ArraySlice<String>) -> ScannedArguments? {
        var values = [String?](repeating: nil, count: options.count)
        var flagsGiven = [Bool](repeating: false, count: flags.count)
        var words: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard Self.startsWithDash(argument) else {
                words.append(argument)
                continue
            }
            guard argument.utf8.dropFirst().first == Self.dash else { return nil }
            let equals = argument.firstIndex(of: "=")
            let name = equals.map { String(argument[..<$0]) } ?? argument
            if let option = options.firstIndex(of: name) {
                guard values[option] == nil else { return nil }
                let value: String
                if let equals {
                    value = String(argument[argument.index(after: equals)...])
                } else {
                    guard index < arguments.endIndex else { return nil }
                    value = arguments[index]
                    index += 1
                }
                guard !Self.startsWithDash(value) else { return nil }
                values[option] = value
            } else if equals == nil, let flag = flags.firstIndex(of: name), !flagsGiven[flag] {
                flagsGiven[flag] = true
            } else {
                return nil
            }
        }
        guard positionals.contains(words.count) else { return nil }
        return ScannedArguments(grammar: self, values: values, flags: flagsGiven, positionals: words)
    }

    /// The byte that starts an option.
    private static let dash = UInt8(ascii: "-")

    /// Whether `word`'s first Unicode scalar is `-` (with or without a combining mark after it).
    private static func startsWithDash(_ word: String) -> Bool {
        word.utf8.first == dash
    }
}
