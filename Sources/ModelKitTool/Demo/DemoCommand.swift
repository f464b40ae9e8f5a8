import ArgumentParser
import Foundation
import ModelKit
import ModelKitStore

/// `modelkit demo`: maps a real payload through a context into a store (an SQLite file, or
/// PostgreSQL with `--db postgres://...`), saves the context, edits a few models and saves again,
/// printing what the context tracked; a second run loads the models, and the edits, back first.
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
        // The context is the unit of work: what is mapped, edited or deleted through it is
        // saved by `context.save()`. SQLite loads what a mapping needs as it goes; PostgreSQL's
        // models come from the fetch below.
        let context = ModelContext(store: store)
        let clock = ContinuousClock()

        // A second run finds the first run's models, and its edits, in the store.
        var loaded: [Tweet] = []
        let loading = try await clock.measure { loaded = try await store.fetchAll(Tweet.self, context: context) }
        let edited = loaded.filter { $0.text.hasSuffix(DemoEdits.mark) }.sorted { $0.id < $1.id }
        if !edited.isEmpty {
            print("the last run's edits, loaded back:")
            for tweet in edited { print("  " + DemoEdits.describe(tweet)) }
        }
        var response: SearchResponse?
        let mapping = try clock.measure { response = try SearchResponse(jsonData: data, context: context) }
        guard let response else { return }
        print(DemoSummary(response: response, bytes: data.count, elapsed: mapping).text)
        if loaded.isEmpty {
            print("store: \(path) was empty")
        } else {
            print(StoreSummary(loaded: loaded, mapped: response.statuses, elapsed: loading).text)
        }
        print(DemoEdits.changes(in: context, after: "mapping the payload"))
        let saving = try await clock.measure { try await context.save() }
        let statuses = try await store.fetchCount(Tweet.self)
        let users = try await store.fetchCount(Tweeter.self)
        print("saved the context: \(statuses) statuses and \(users) users in \(path) in \(milliseconds(saving)) ms")
        print(try await DemoRelationships.text(statuses: response.statuses, store: store))

        // Edits through the context: the most retweeted statuses and their users.
        for tweet in DemoEdits.targets(response.statuses) { DemoEdits.edit(tweet) }
        print(DemoEdits.changes(in: context, after: "editing the three most retweeted statuses"))
        try await context.save()
        print("saved the edits; hasChanges: \(context.hasChanges) (run the demo again to load them back)")
        await opened.close()
    }

    private func bundledPayload() throws -> Data {
        guard let url = Bundle.module.url(forResource: "Resources/twitter.json", withExtension: nil) else {
            throw ValidationError("the bundled twitter.json is missing")
        }
        return try Data(contentsOf: url)
    }
}
