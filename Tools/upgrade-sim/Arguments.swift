// The whole command-line parser of upgrade-sim: commands declare their options as data, and
// `CommandSpec.parse` turns the arguments into values or a `UsageError` (exit status 2).
// No outside argument-parsing package can be fetched here, so it is kept small and in this one file.

import StrictJSON

/// One option a command accepts: a flag such as `--processes`, or an option with a value such as
/// `--format FORMAT`, written `--format json` or `--format=json`.
struct OptionSpec: Sendable {
    /// The option's name with its dashes, such as `--format`.
    let name: String
    /// The placeholder of the value in help, such as `FORMAT`; `nil` for a flag.
    let valueName: String?
    /// The values it accepts, if only some; checked by the parser.
    let allowedValues: [String]?
    /// Whether the command needs it.
    let isRequired: Bool
    /// One line of help.
    let help: String

    /// A flag: present or not, no value.
    static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, allowedValues: nil, isRequired: false, help: help)
    }

    /// An option with a value.
    static func value(
        _ name: String, _ valueName: String, allowed: [String]? = nil, required: Bool = false, help: String
    ) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, allowedValues: allowed, isRequired: required, help: help)
    }
}

/// What a command accepts, and its help.
struct CommandSpec: Sendable {
    /// The command's name, such as `run`.
    let name: String
    /// One line saying what it does, for the list of commands.
    let summary: String
    /// The placeholder of positional arguments in help, such as `PATH...`; `nil` when it takes none.
    let positionalName: String?
    /// The options, in the order help lists them (`--help` is added).
    let options: [OptionSpec]
    /// Paragraphs after the options in help.
    let discussion: String
    /// Whether the positional arguments are required (shown without brackets in the usage line).
    var positionalIsRequired = false
    /// Options the command no longer accepts, each with what to use instead, added to the "unknown
    /// option" error: `["--quiet": "explore's progress line is hidden with --no-progress"]`.
    var retiredOptions: [String: String] = [:]

    /// The usage line: `upgrade-sim run [PATH...] [--format FORMAT] ...`.
    var usage: String {
        var parts = ["\(Tool.name) \(name)"]
        if let positionalName { parts.append(positionalIsRequired ? positionalName : "[\(positionalName)]") }
        for option in options {
            let text = option.valueName.map { "\(option.name) \($0)" } ?? option.name
            parts.append(option.isRequired ? text : "[\(text)]")
        }
        return parts.joined(separator: " ")
    }

    /// The full help text.
    var help: String {
        var lines = ["\(Tool.name) \(name): \(summary)", "", "USAGE: \(usage)", "", "OPTIONS:"]
        let all = options + [.flag("--help", help: "Show this help.")]
        let labels = all.map { option in
            var label = option.valueName.map { "\(option.name) \($0)" } ?? option.name
            if option.name == "--help" { label = "-h, --help" }
            return label
        }
        let width = (labels.map(\.count).max() ?? 0) + 2
        for (label, option) in zip(labels, all) {
            var text = option.help
            if let allowed = option.allowedValues { text += " One of: \(allowed.joined(separator: ", "))." }
            if option.isRequired { text += " Required." }
            lines.append("  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + text)
        }
        if !discussion.isEmpty {
            lines.append("")
            lines.append(discussion)
        }
        return lines.joined(separator: "\n")
    }

    /// Reads a command's arguments (those after the command's name).
    ///
    /// `-h` or `--help` anywhere before `--` asks for help. An unknown option, an option given twice,
    /// a missing or unaccepted value, a value given to a flag, a stray argument, or a missing required
    /// option is a ``UsageError``. `--` ends the options: what follows is positional.
    ///
    /// - Parameter arguments: The arguments.
    /// - Returns: The parsed arguments.
    /// - Throws: ``UsageError``.
    func parse(_ arguments: some Collection<String>) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        let list = Array(arguments)
        if list.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            parsed.helpRequested = true
            return parsed
        }
        var index = 0
        var optionsEnded = false
        while index < list.count {
            let argument = list[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                guard positionalName != nil else {
                    throw UsageError("unexpected argument \"\(argument)\"", command: self)
                }
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.name == name }) else {
                var message = "unknown option \"\(name)\""
                if let instead = retiredOptions[name] {
                    message += "; \(instead)"
                } else if let close = Self.closest(to: name, among: options.map(\.name) + ["--help"]) {
                    message += "; did you mean \"\(close)\"?"
                }
                throw UsageError(message, command: self)
            }
            if parsed.values[name] != nil || parsed.flags.contains(name) {
                throw UsageError("\(name) is given more than once", command: self)
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil { throw UsageError("\(name) takes no value", command: self) }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < list.count, !(list[index].hasPrefix("-") && list[index] != "-") {
                value = list[index]
                index += 1
            } else {
                throw UsageError("\(name) needs a value (\(name) \(valueName))", command: self)
            }
            if let allowed = option.allowedValues, !allowed.contains(value) {
                throw UsageError(
                    "invalid value \"\(value)\" for \(name); expected \(allowed.joined(separator: ", "))", command: self
                )
            }
            parsed.values[name] = value
        }
        for option in options where option.isRequired && parsed.values[option.name] == nil {
            throw UsageError("missing \(option.name) \(option.valueName ?? "")", command: self)
        }
        return parsed
    }

    /// The candidate within two edits of `word` (or equal but for case), if any.
    static func closest(to word: String, among candidates: [String]) -> String? {
        Suggestion.closest(to: word, among: candidates)
    }
}

/// A command's arguments, read.
struct ParsedArguments: Sendable, Equatable {
    /// The values of the options given, by name (`--format`).
    var values: [String: String] = [:]
    /// The flags given, by name (`--processes`).
    var flags: Set<String> = []
    /// The positional arguments, in order.
    var positionals: [String] = []
    /// Whether `-h` or `--help` was given.
    var helpRequested = false

    /// The value of an option, or `nil` when it was not given.
    subscript(_ name: String) -> String? { values[name] }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// A mistake in the arguments: reported with a pointer to the help, exit status 2.
struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    let message: String
    /// The command whose arguments were wrong, if known.
    let commandName: String?

    init(_ message: String, command: CommandSpec? = nil) {
        self.message = message
        self.commandName = command?.name
    }

    /// The message.
    var description: String { message }

    /// Where to look for help: `Run 'upgrade-sim run --help' for usage.`
    var hint: String { "Run '\(Tool.name)\(commandName.map { " \($0)" } ?? "") --help' for usage." }
}
