import ArgumentParser

/// `modelkit prefs`: read and change preferences from a shell.
struct PrefsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefs", abstract: "Read and change ModelKit preferences.")

    func run() async throws {}
}
