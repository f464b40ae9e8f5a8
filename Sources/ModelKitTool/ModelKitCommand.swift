import ArgumentParser

/// `modelkit`: ModelKit's command-line tool.
@main
struct ModelKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modelkit",
        abstract: "Map, check and inspect data with ModelKit.",
        subcommands: [
            DemoCommand.self, JSONCommand.self, GenerateCommand.self, StoreCommand.self, ArchiveCommand.self,
            PrefsCommand.self,
        ]
    )
}
