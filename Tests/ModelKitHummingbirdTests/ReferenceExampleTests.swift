#if Hummingbird
    // snippet: reference-hummingbird-start
    import Hummingbird
    import HummingbirdTesting
    import ModelKit
    import ModelKitHummingbird
    // snippet: reference-hummingbird-end
    import ModelKitTestSupport
    import Testing

    // The example ModelKitHummingbird's reference page starts from (see `DocumentationArticleTests`):
    // it runs here, against a live server on loopback, and what it prints is checked against the
    // comments it shows.

    /// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
    private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
        ExampleOutput.print(items, separator: separator, terminator: terminator)
    }

    // snippet: reference-hummingbird-start
    @Model(keys: .snakeCase) final class Note {
        @Identifier var id: Int
        var text: String
        @Key("meta.pinned") var isPinned = false
    }
    // snippet: reference-hummingbird-end

    @Suite struct HummingbirdReferenceExampleTests {
        @Test func hummingbird() async throws {
            let output = try await ExampleOutput.capture {
                // snippet: reference-hummingbird-start
                let router = Router(context: ModelRequestContext.self)   // ModelKit's coders
                router.post("notes") { request, context in
                    let note = try await request.decode(as: Note.self, context: context)
                    note.text = note.text.capitalized
                    return ModelResponse(note, status: .created)
                }
                router.get("notes") { _, _ in             // NDJSON, one note at a time
                    ModelStreamResponse(format: .ndjson) { NoteFeed(count: 2) }
                }
                let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))

                try await app.test(.live) { client in       // or: try await app.runService()
                    let created = try await client.execute(
                        uri: "/notes", method: .post, body: ByteBuffer(string: #"{"id": 1, "text": "milk", "meta": {"pinned": true}}"#))
                    print(created.status.code, String(buffer: created.body))  // 201 {"id":1,"text":"Milk","meta":{"pinned":true}}
                    let refused = try await client.execute(uri: "/notes", method: .post, body: ByteBuffer(string: #"{"id": "one"}"#))
                    print(refused.status.code, String(buffer: refused.body))  // 400 {"error":{"message":"cannot map 'Note.id' at 'id': expected an integer, found \"one\""}}
                    let feed = try await client.execute(uri: "/notes", method: .get)
                    print(String(buffer: feed.body).split(separator: "\n").count)  // 2
                }
                // snippet: reference-hummingbird-end
            }
            #expect(
                output
                    == DocumentationExamples.commentedOutput(
                        of: try DocumentationExamples.snippet("reference-hummingbird", inFile: #filePath)),
                "printed:\n\(output.joined(separator: "\n"))")
        }
    }

    // snippet: reference-hummingbird-start

    /// Notes made one at a time, as a store cursor gives them.
    struct NoteFeed: AsyncSequence, AsyncIteratorProtocol {
        let count: Int
        var made = 0

        mutating func next() async -> Note? {
            guard made < count else { return nil }
            made += 1
            return Note(id: made, text: "note \(made)")
        }

        func makeAsyncIterator() -> NoteFeed { self }
    }
    // snippet: reference-hummingbird-end
#endif
