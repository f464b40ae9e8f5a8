import ArgumentParser

/// `modelkit demo`: maps a real payload and prints a summary.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Map twitter.json into models and print a summary.")

    func run() async throws {
        print("demo")
    }
}
