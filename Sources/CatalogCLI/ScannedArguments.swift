/// A command's arguments as its ``CommandGrammar`` read them: each option's value, whether each flag
/// was given, and the positional words in order.
struct ScannedArguments {
    /// The grammar that read the arguments.
    let grammar: CommandGrammar
    /// Each option's value, or nil, in the order of `grammar.options`.
    let values: [String?]
    /// Whether each flag was given, in the order of `grammar.flags`.
    let flags: [Bool]
    /// The positional words, in the order given.
    let positionals: [String]

    /// The value of the option `name`, or nil when it was not given.
    ///
    /// - Precondition: `name` is one of the grammar's options.
    func value(_ name: String) -> String? {
        guard let index = grammar.options.firstIndex(of: name) else {
            preconditionFailure("\(name) is not an option of this command's grammar")
        }
        return values[index]
    }

    /// The value of the option `name` read by `transform` (the option's declared transform, or its
    /// type's `init(argument:)`), or nil when it was not given.
    ///
    /// - Throws: What `transform` throws, or ``UnreadableValue`` when it returns nil.
    func value<Value>(_ name: String, _ transform: (String) throws -> Value?) throws -> Value? {
        try value(name).map { try Self.read($0, transform) }
    }

    /// `word` read by `transform`.
    ///
    /// - Throws: What `transform` throws, or ``UnreadableValue`` when it returns nil.
    static func read<Value>(_ word: String, _ transform: (String) throws -> Value?) throws -> Value {
        guard let value = try transform(word) else { throw UnreadableValue() }
        return value
    }

    /// A value its option's type does not read (`--format xml`): ArgumentParser, which parses the
    /// arguments again, tells what is wrong.
    struct UnreadableValue: Error {}

    /// Whether the flag `name` was given.
    ///
    /// - Precondition: `name` is one of the grammar's flags.
    func flag(_ name: String) -> Bool {
        guard let index = grammar.flags.firstIndex(of: name) else {
            preconditionFailure("\(name) is not a flag of this command's grammar")
        }
        return flags[index]
    }
}
