import ArgumentParser
import Foundation
import ModelKit
import ModelKitPreferences

/// `modelkit prefs get NAME KEY`: prints a value as JSON.
struct PrefsGetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Print the value of a key as JSON (exit status 1 if it is not set).")

    @OptionGroup var location: PrefsLocation

    @Argument(help: "The key.")
    var key: String

    @Flag(name: .long, help: "Print a string value without quotes.")
    var raw = false

    func run() throws {
        try runReportingErrors {
            let prefs = try location.open()
            guard let value = try prefs.value(forKey: key) else {
                throw PreferencesToolError(
                    "no value for '\(key)' in preferences '\(location.name)' ('\(prefs.fileURL.path)')")
            }
            if raw, case .string(let text) = value {
                print(text)
            } else {
                print(try formatJSON(value, pretty: true))
            }
        }
    }
}

/// `modelkit prefs set NAME KEY VALUE`: stores a value (JSON if it parses, else a string).
struct PrefsSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Store a value: VALUE is read as JSON if it is valid JSON, else as a string.")

    @OptionGroup var location: PrefsLocation

    @Argument(help: "The key.")
    var key: String

    // Takes unrecognized options too, so that negative numbers (`-1`) are values, not options;
    // `--` still ends the options, for a value such as `--file`.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("The value, e.g. 0.8, -1, true, '[1, 2]', '{\"a\": 1}' or dark.", valueName: "value"))
    var values: [String] = []

    @Flag(name: .long, help: "Store VALUE as a string even if it is valid JSON.")
    var string = false

    /// The value given, after a `--` if there is one.
    private var givenValues: [String] {
        values.first == "--" ? Array(values.dropFirst()) : values
    }

    func validate() throws {
        let values = givenValues
        guard values.count == 1 else {
            throw ValidationError(
                values.isEmpty
                    ? "Missing expected argument '<value>'"
                    : "Expected one value, got \(values.count): \(values.joined(separator: " "))")
        }
    }

    func run() throws {
        try runReportingErrors {
            let prefs = try location.open()
            let value = givenValues[0]
            let json = string ? .string(value) : ((try? JSONValue(parsing: value)) ?? .string(value))
            try prefs.setValue(json, forKey: key)
            try prefs.flush()
        }
    }
}

/// `modelkit prefs list NAME`: prints every key and value.
struct PrefsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Print every key as 'key = json', sorted by key.")

    @OptionGroup var location: PrefsLocation

    @Flag(name: .long, help: "Print the whole preferences as one JSON object instead.")
    var json = false

    func run() throws {
        try runReportingErrors {
            let prefs = try location.open()
            let values = try prefs.allValues()
            if json {
                let members = values.map { JSONMember($0.key, $0.value) }
                print(try formatJSON(.object(members), pretty: true))
                return
            }
            for key in values.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                guard let value = values[key] else { continue }
                print("\(key) = \(try formatJSON(value, pretty: false))")
            }
        }
    }
}

/// `modelkit prefs delete NAME KEY`: removes a key (nothing to do if it is not set).
struct PrefsDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Remove a key (succeeds if it is not set).")

    @OptionGroup var location: PrefsLocation

    @Argument(help: "The key.")
    var key: String

    func run() throws {
        try runReportingErrors {
            let prefs = try location.open()
            try prefs.removeValue(forKey: key)
            try prefs.flush()
        }
    }
}

/// `modelkit prefs write-loop NAME`: sets keys in a loop, saving after each write. Hidden: the
/// preferences tests run it as a second process, kill it mid-save, and check the save at exit.
struct PrefsWriteLoopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write-loop", abstract: "Set PREFIX-N = N for N from 0, saving after each write.",
        shouldDisplay: false)

    @OptionGroup var location: PrefsLocation

    @Option(help: "The start of every key.")
    var prefix = "key"

    @Option(help: "The first N (later writes count up from it).")
    var start = 0

    @Option(help: "How many writes; 0 writes until the process is killed.")
    var count = 100

    @Option(help: "How many distinct keys to cycle through; 0 for a new key every write.")
    var keys = 0

    @Option(
        help: "Store {\"n\": N, \"padding\": \"xx...\"} with a string this long instead of N, to make saves slower.")
    var padding = 0

    @Flag(help: "Never call flush(), and exit while the preferences are in use: rely on the save at exit.")
    var noFlush = false

    @Flag(help: "Print `saved N` once the save of write N has returned.")
    var report = false

    func run() throws {
        try runReportingErrors {
            let prefs = try location.open()
            let filler = String(repeating: "x", count: max(padding, 0))
            var index = start
            while count == 0 || index < start + count {
                let slot = keys > 0 ? index % keys : index
                let number = JSONValue.int(Int64(index))
                let value =
                    filler.isEmpty
                    ? number : .object([JSONMember("n", number), JSONMember("padding", .string(filler))])
                try prefs.setValue(value, forKey: "\(prefix)-\(slot)")
                if !noFlush {
                    try prefs.flush()
                    if report { FileHandle.standardOutput.write(Data("saved \(index)\n".utf8)) }
                }
                index += 1
            }
            if noFlush {
                // Exit with the instance alive, so only the exit handler can save.
                withExtendedLifetime(prefs) { Foundation.exit(0) }
            }
        }
    }
}

/// A failure of the tool itself, e.g. a key with no value.
struct PreferencesToolError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
