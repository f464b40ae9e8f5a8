import ArgumentParser
import Foundation
import ModelKit
import ModelKitStore

/// `modelkit demo`: maps a real payload through an identity context into a store (an SQLite
/// file, or PostgreSQL with `--db postgres://...`) and prints a summary; a second run loads the
/// models back from the store first.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Map twitter.json into models, store them in SQLite or PostgreSQL, and print a summary.")

    @Option(help: "A Twitter search response to map instead of the bundled twitter.json.")
    var file: String?

    @Option(
        help: ArgumentHelp(
            "The SQLite file to store the models in (default: modelkit-demo.sqlite in the temporary directory), "
                + "or a postgres:// URL (with the PostgreSQL trait)."))
    var db: String?

    func run() async throws {
        let data = try file.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } ?? bundledPayload()
        let location = StoreLocation(
            text: db ?? FileManager.default.temporaryDirectory.appendingPathComponent("modelkit-demo.sqlite").path)
        let path = location.displayName
        let opened = try ToolFailure.reporting { try location.open() }
        let store = opened.store
        // SQLite loads what a mapping needs as it goes; PostgreSQL's models come from the fetch below.
        let context = ModelContext(store: store as? any ModelLoading)
        let clock = ContinuousClock()

        // A second run finds the first run's models in the store and loads them first.
        var loaded: [Tweet] = []
        let loading = try await clock.measure { loaded = try await store.fetchAll(Tweet.self, context: context) }
        var response: SearchResponse?
        let mapping = try clock.measure { response = try SearchResponse(jsonData: data, context: context) }
        guard let response else { return }
        print(DemoSummary(response: response, bytes: data.count, elapsed: mapping).text)
        if loaded.isEmpty {
            print("store: \(path) was empty")
        } else {
            print(StoreSummary(loaded: loaded, mapped: response.statuses, elapsed: loading).text)
        }
        let saving = try await clock.measure { try await store.save(response.statuses) }
        let statuses = try await store.fetchCount(Tweet.self)
        let users = try await store.fetchCount(Tweeter.self)
        print("saved \(statuses) statuses and \(users) users to \(path) in \(milliseconds(saving)) ms")
        await opened.close()
    }

    private func bundledPayload() throws -> Data {
        guard let url = Bundle.module.url(forResource: "Resources/twitter.json", withExtension: nil) else {
            throw ValidationError("the bundled twitter.json is missing")
        }
        return try Data(contentsOf: url)
    }
}
