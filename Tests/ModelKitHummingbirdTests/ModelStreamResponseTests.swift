#if Hummingbird
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import ModelKit
    import ModelKitHummingbird
    import ModelKitTestSupport
    import Testing

    /// To-dos made one at a time, as a cursor over a store gives them: class instances, not
    /// `Sendable`, made in the task that writes the body. Throws at `failAt` when given.
    struct GeneratedTodos: AsyncSequence {
        let count: Int
        var failAt: Int? = nil

        typealias Element = Todo

        struct Broken: Error {}

        struct AsyncIterator: AsyncIteratorProtocol {
            let count: Int
            let failAt: Int?
            var next = 0

            mutating func next() async throws -> Todo? {
                guard next < count else { return nil }
                defer { next += 1 }
                if next == failAt { throw Broken() }
                let todo = Todo(id: next, title: "to-do \(next) \u{e9}\"\\")
                todo.tags = next.isMultiple(of: 3) ? ["x", "y"] : []
                return todo
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count, failAt: failAt) }
    }

    func streamingApp() -> some ApplicationProtocol {
        let router = Router(context: ModelRequestContext.self)
        router.get("todos") { request, _ in
            let count = request.uri.queryParameters.get("count", as: Int.self) ?? 0
            let format: JSONStreamFormat =
                switch request.uri.queryParameters.get("format") {
                case "array": .array
                case "envelope": .nestedArray(at: "data.items")
                default: .ndjson
                }
            let flushSize = request.uri.queryParameters.get("flush", as: Int.self) ?? 16 << 10
            let failAt = request.uri.queryParameters.get("failAt", as: Int.self)
            return ModelStreamResponse(format: format, flushSize: flushSize) { GeneratedTodos(count: count, failAt: failAt) }
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// Responses streamed from an `AsyncSequence` of models, over HTTP on loopback.
    @Suite struct ModelStreamResponseTests {
        static let cases: [(format: String, stream: JSONStreamFormat, count: Int, flush: Int)] = [
            ("ndjson", .ndjson, 10_000, 16 << 10),
            ("array", .array, 10_000, 16 << 10),
            ("envelope", .nestedArray(at: "data.items"), 10_000, 16 << 10),
            ("ndjson", .ndjson, 50, 0),
            ("array", .array, 0, 16 << 10),
            ("ndjson", .ndjson, 0, 16 << 10),
        ]

        @Test(arguments: cases)
        func everyElementArrivesInItsFormat(_ example: (format: String, stream: JSONStreamFormat, count: Int, flush: Int)) async throws {
            var writer = JSONStreamWriter(format: example.stream)
            var expected = writer.prefix
            for try await todo in GeneratedTodos(count: example.count) { try writer.write(todo, into: &expected) }
            expected += writer.suffix
            let whole = expected
            let uri = "/todos?format=\(example.format)&count=\(example.count)&flush=\(example.flush)"
            try await streamingApp().test(.live) { client in
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == (example.stream == .ndjson ? "application/x-ndjson" : "application/json; charset=utf-8"))
                    #expect(response.headers[.transferEncoding] == "chunked")
                    #expect(Array(buffer: response.body) == whole)
                    // And ModelKit's element reader reads them back, one at a time.
                    let body = Array(buffer: response.body)
                    var read: [Int] = []
                    for try await todo in ModelJSON.elements(of: Todo.self, fromChunks: [body].async, format: example.stream) {
                        read.append(todo.id)
                    }
                    #expect(read == Array(0..<example.count))
                }
            }
        }

        /// A sequence that throws midway: the status is gone, so the connection closes before the
        /// body's end, and the client gets an error rather than a shorter body that looks whole.
        @Test(arguments: ["ndjson", "array"])
        func aFailingSequenceCutsTheResponseShortVisibly(_ format: String) async throws {
            try await streamingApp().test(.ahc(.http)) { client in
                await #expect(throws: (any Error).self) {
                    try await client.execute(uri: "/todos?format=\(format)&count=5000&failAt=4000", method: .get)
                }
                // The server goes on serving.
                try await client.execute(uri: "/todos?count=3", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body).split(separator: "\n").count == 3)
                }
            }
        }
    }

    extension Array where Element: Sendable {
        /// The elements as an async sequence.
        var async: AsyncStream<Element> {
            AsyncStream { continuation in
                for element in self { continuation.yield(element) }
                continuation.finish()
            }
        }
    }
#endif
