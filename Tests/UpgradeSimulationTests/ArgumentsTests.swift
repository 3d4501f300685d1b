import Testing

@testable import upgrade_sim

@Suite("Argument parser")
struct ArgumentsTests {
    let spec = CommandSpec(
        name: "demo", summary: "A demo command", positionalName: "PATH...",
        options: [
            .value("--format", "FORMAT", allowed: ["text", "json"], help: "The format."),
            .value("--output", "FILE", help: "Where."),
            .value("--version", "V", required: true, help: "The version."),
            .flag("--processes", help: "Processes."),
        ],
        discussion: "More words.")

    let noPositionals = CommandSpec(
        name: "strict", summary: "No positionals", positionalName: nil,
        options: [.value("--fixture", "FILE", help: "The fixture.")], discussion: "")

    @Test("reads values, flags, inline values and positionals")
    func valid() throws {
        let parsed = try spec.parse(["a", "--format", "json", "--version=1.2", "b", "--processes", "--output", "-"])
        #expect(parsed["--format"] == "json")
        #expect(parsed["--version"] == "1.2")
        #expect(parsed["--output"] == "-")
        #expect(parsed.has("--processes"))
        #expect(!parsed.has("--other"))
        #expect(parsed.positionals == ["a", "b"])
        #expect(!parsed.helpRequested)
    }

    @Test("everything after -- is positional")
    func doubleDash() throws {
        let parsed = try spec.parse(["--version", "1.0", "--", "--format", "-h"])
        #expect(parsed.positionals == ["--format", "-h"])
        #expect(parsed["--format"] == nil)
    }

    @Test("-h and --help ask for help whatever else is given", arguments: [["--help"], ["-h"], ["--bogus", "-h"]])
    func help(arguments: [String]) throws {
        #expect(try spec.parse(arguments).helpRequested)
    }

    @Test(
        "rejects mistakes with a clear message",
        arguments: [
            (["--version", "1.0", "--bogus"], "unknown option \"--bogus\""),
            (["--version", "1.0", "--formt", "json"], "unknown option \"--formt\"; did you mean \"--format\"?"),
            (["--version"], "--version needs a value (--version V)"),
            (["--version", "--processes"], "--version needs a value (--version V)"),
            (["--version", "1.0", "--format", "xml"], "invalid value \"xml\" for --format; expected text, json"),
            (["--version", "1.0", "--processes=yes"], "--processes takes no value"),
            (["--version", "1.0", "--version", "2.0"], "--version is given more than once"),
            (["--processes", "--processes", "--version", "1"], "--processes is given more than once"),
            (["--format", "json"], "missing --version V"),
        ])
    func mistakes(arguments: [String], message: String) {
        #expect(throws: UsageError(message, command: spec)) { try spec.parse(arguments) }
    }

    @Test("a retired option is refused with what to use instead; other unknown options get a suggestion")
    func retired() {
        var retiring = spec
        retiring.retiredOptions = ["--quiet": "use --no-progress"]
        #expect(throws: UsageError(#"unknown option "--quiet"; use --no-progress"#, command: spec)) {
            try retiring.parse(["--version", "1.0", "--quiet"])
        }
        #expect(throws: UsageError(#"unknown option "--quiet""#, command: spec)) {
            try spec.parse(["--version", "1.0", "--quiet"])
        }
        #expect(throws: UsageError(#"unknown option "--formt"; did you mean "--format"?"#, command: spec)) {
            try retiring.parse(["--version", "1.0", "--formt", "json"])
        }
    }

    @Test("a command without positionals rejects stray arguments")
    func strayArgument() {
        #expect(throws: UsageError("unexpected argument \"x\"", command: noPositionals)) {
            try noPositionals.parse(["--fixture", "f", "x"])
        }
    }

    @Test("usage and help list every option")
    func helpText() {
        #expect(spec.usage == "upgrade-sim demo [PATH...] [--format FORMAT] [--output FILE] --version V [--processes]")
        let help = spec.help
        #expect(help.contains("  --format FORMAT  The format. One of: text, json."))
        #expect(help.contains("  --version V      The version. Required."))
        #expect(help.contains("  -h, --help       Show this help."))
        #expect(help.hasSuffix("More words."))
        #expect(UsageError("x", command: spec).hint == "Run 'upgrade-sim demo --help' for usage.")
    }

    @Test("every command has help and a unique name")
    func commandTable() {
        let names = Tool.commands.map { $0.spec.name }
        #expect(names == ["run", "launch", "plan", "explore", "fleet"])
        #expect(Set(names).count == names.count)
        for command in Tool.commands { #expect(command.spec.help.contains("USAGE: upgrade-sim \(command.spec.name)")) }
    }
}
