import ArgumentParser
import Foundation
import ModelKit
import ModelKitPreferences

/// `modelkit prefs`: read and change preferences from a shell.
///
/// ```text
/// $ modelkit prefs set com.example.app volume 0.8
/// $ modelkit prefs get com.example.app volume
/// 0.8
/// $ modelkit prefs list com.example.app --file ./settings.json
/// theme = "dark"
/// volume = 0.8
/// $ modelkit prefs delete com.example.app volume
/// ```
struct PrefsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefs",
        abstract: "Read and change ModelKit preferences.",
        discussion: """
            NAME is the preferences name, e.g. com.example.app. The file is \
            $XDG_CONFIG_HOME/NAME/preferences.json (or ~/.config/NAME/preferences.json) on Linux and \
            ~/Library/Application Support/NAME/preferences.json on Apple platforms, unless --file gives it. \
            Values are JSON; on failure the error is printed and the exit status is 1.
            """,
        subcommands: [
            PrefsGetCommand.self, PrefsSetCommand.self, PrefsListCommand.self, PrefsDeleteCommand.self,
            PrefsWriteLoopCommand.self,
        ]
    )
}

/// The arguments every `prefs` subcommand shares: which preferences.
struct PrefsLocation: ParsableArguments {
    @Argument(help: "The preferences name, e.g. com.example.app.")
    var name: String

    @Option(name: .long, help: ArgumentHelp("The preferences file, instead of the standard place.", valueName: "path"))
    var file: String?

    /// Opens the preferences; saving is left to the command, which flushes before it exits.
    func open() throws -> Preferences {
        let url = file.map { URL(fileURLWithPath: $0) }
        return try Preferences(name: name, file: url, configuration: .init(savePolicy: .manually))
    }
}

/// Runs a subcommand's work, printing a failure's sentence to standard error and exiting
/// with status 1.
func runReportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        printError("\(error)")
        throw ExitCode(1)
    }
}


/// A value as one line of JSON, or pretty-printed.
func formatJSON(_ value: JSONValue, pretty: Bool) throws -> String {
    try value.jsonString(options: pretty ? [.prettyPrinted, .sortedKeys] : [.sortedKeys])
}
