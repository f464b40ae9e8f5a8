#if Hummingbird
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import ModelKit
    import ModelKitHummingbird
    import ModelKitTestSupport
    import Testing

    /// A to-do with what a payload holds besides plain keys: a nested key path, a date format.
    @Model(keys: .snakeCase)
    final class Todo {
        init(id: Int, title: String) {
            (self.id, self.title) = (id, title)
        }

        @Identifier var id: Int
        var title: String
        var done: Bool = false
        @Transform(.dateFormat("yyyy-MM-dd")) var dueOn: Date?
        @Key("meta.tags") var tags: [String] = []
    }

    extension Todo: ResponseEncodable {}

    /// A body that is not a model: the decoder's fallback, JSONDecoder.
    struct Rename: ResponseCodable {
        var title: String
    }

    /// A route that returns `[T]`: Hummingbird's own conformance, through the context's encoder.
    func routes<Context: RequestContext>(_ router: Router<Context>) {
        router.post("todos") { request, context in
            let todo = try await request.decode(as: Todo.self, context: context)
            todo.title = todo.title.uppercased()
            return ModelResponse(todo, status: .created, headers: [.location: "/todos/\(todo.id)"])
        }
        router.post("todos/generic") { request, context -> Response in
            // Hummingbird's generic entry point: the same reader, unspecialised.
            let todo = try await context.requestDecoder.decode(Todo.self, from: request, context: context)
            return try context.responseEncoder.encode(todo, from: request, context: context)
        }
        router.post("todos/own") { request, context -> Todo in
            try await request.decode(as: Todo.self, context: context)
        }
        router.post("statuses") { request, context -> [Status] in
            try await request.decode(as: [Status].self, context: context)
        }
        router.post("rename") { request, context -> Rename in
            try await request.decode(as: Rename.self, context: context)
        }
        router.get("missing") { _, _ -> String in
            throw HTTPError(.notFound, message: "no such to-do")
        }
    }

    func app<Context: RequestContext>(_ context: Context.Type) -> some ApplicationProtocol
    where Context.Source == ApplicationRequestContextSource {
        let router = Router(context: Context.self)
        routes(router)
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    func text(_ buffer: ByteBuffer) -> String { String(buffer: buffer) }

    /// Models as request and response bodies, over HTTP on loopback (HummingbirdTesting's live
    /// server and client).
    @Suite struct ModelBodyTests {
        static let todo = #"{"id": 7, "title": "buy milk", "due_on": "2026-12-24", "meta": {"tags": ["home"]}}"#

        @Test(arguments: ["/todos", "/todos/generic", "/todos/own"])
        func aModelBodyMapsInAndOutThroughItsSchema(_ route: String) async throws {
            try await app(ModelRequestContext.self).test(.live) { client in
                try await client.execute(uri: route, method: .post, body: ByteBuffer(string: Self.todo)) { response in
                    let todo = try Todo(jsonData: Data(Self.todo.utf8))
                    if route == "/todos" {
                        #expect(response.status == .created)
                        #expect(response.headers[.location] == "/todos/7")
                        todo.title = "BUY MILK"
                    } else {
                        #expect(response.status == .ok)
                    }
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                    // ModelKit's remote keys and transformers, exactly as the model writes itself.
                    #expect(text(response.body) == (try todo.jsonString()))
                    #expect(text(response.body).contains(#""meta":{"tags":["home"]}"#))
                    #expect(text(response.body).contains(#""due_on":"2026-12-24""#))
                }
            }
        }

        /// twitter.json's statuses in and out: a real payload, its nested users, dates and entities.
        @Test func aRealPayloadGoesInAndOutUnchanged() async throws {
            let twitter = try fixtureData("twitter.json")
            let statuses = try [Status](jsonData: twitter, at: "statuses")
            let (body, count) = (try statuses.jsonData(), statuses.count)
            try await app(ModelRequestContext.self).test(.live) { client in
                try await client.execute(uri: "/statuses", method: .post, body: ByteBuffer(bytes: body)) { response in
                    #expect(response.status == .ok)
                    #expect(Data(buffer: response.body) == body)
                    let echoed = try [Status](jsonData: Data(buffer: response.body))
                    #expect(echoed.count == count && count > 0)
                }
            }
        }

        static let badBodies: [(body: String, message: String)] = [
            (#"{"id": 7, "title": 42}"#, #"cannot map 'Todo.title' at 'title': expected a string, found 42"#),
            (#"{"title": "x"}"#, #"cannot map 'Todo.id' at 'id': missing key"#),
            (#"{"id": 7, "title": "x", "due_on": "tomorrow"}"#, #"cannot map 'Todo.dueOn' at 'due_on': expected a date like "yyyy-MM-dd", found "tomorrow""#),
        ]

        /// A body that does not map is a 400 whose body is ModelKit's error text, whichever way it was decoded.
        @Test(arguments: badBodies, ["/todos", "/todos/generic", "/todos/own"])
        func aBodyThatDoesNotMapIsA400WithModelKitsError(_ bad: (body: String, message: String), _ route: String) async throws {
            // The same text ModelKit gives outside a server.
            let direct = #expect(throws: ModelError.self) { try Todo(jsonData: Data(bad.body.utf8)) }
            #expect(direct?.description == bad.message)
            try await app(ModelRequestContext.self).test(.live) { client in
                try await client.execute(uri: route, method: .post, body: ByteBuffer(string: bad.body)) { response in
                    #expect(response.status == .badRequest)
                    let error = try JSONValue(parsing: Array(buffer: response.body))
                    #expect(error["error"]?["message"] == .string(bad.message))
                }
            }
        }

        @Test func malformedJSONIsA400NamingWhere() async throws {
            let body = #"{"id": 7, "title": "x",}"#
            let direct = #expect(throws: ModelError.self) { try Todo(jsonData: Data(body.utf8)) }
            try await app(ModelRequestContext.self).test(.live) { client in
                try await client.execute(uri: "/todos", method: .post, body: ByteBuffer(string: body)) { response in
                    #expect(response.status == .badRequest)
                    let error = try JSONValue(parsing: Array(buffer: response.body))
                    #expect(error["error"]?["message"] == .string(try #require(direct).description))
                    #expect(text(response.body).contains("column 24"))
                }
            }
        }

        @Test func aBodyOverTheUploadLimitIsA413() async throws {
            let big = #"{"id": 1, "title": ""# + String(repeating: "x", count: 3 << 20) + #""}"#
            try await app(ModelRequestContext.self).test(.live) { client in
                try await client.execute(uri: "/todos", method: .post, body: ByteBuffer(string: big)) { response in
                    #expect(response.status == .contentTooLarge)
                }
            }
        }

        /// Values that are not models, and Hummingbird's own errors, go through JSONDecoder and JSONEncoder.
        @Test func otherValuesAndErrorsUseTheFallbacks() async throws {
            try await app(ModelRequestContext.self).test(.live) { client in
                try await client.execute(uri: "/rename", method: .post, body: ByteBuffer(string: #"{"title": "y"}"#)) { response in
                    #expect(response.status == .ok)
                    #expect(text(response.body) == #"{"title":"y"}"#)
                }
                try await client.execute(uri: "/missing", method: .get) { response in
                    #expect(response.status == .notFound)
                    #expect(text(response.body) == #"{"error":{"message":"no such to-do"}}"#)
                }
            }
        }

        /// With Hummingbird's basic context, `decode(as:)` of a model is Hummingbird's, through
        /// JSONDecoder and the model's Codable conformance: importing ModelKitHummingbird changes
        /// no context's coders. What does not map is still a 400 with ModelKit's text (the
        /// conformance throws ModelKit's errors, which Hummingbird alone answers with a 500).
        @Test func aBasicContextKeepsHummingbirdsCoders() async throws {
            try await app(BasicRequestContext.self).test(.live) { client in
                try await client.execute(uri: "/todos/own", method: .post, body: ByteBuffer(string: Self.todo)) { response in
                    #expect(response.status == .ok)
                    let echoed = try Todo(jsonData: Data(buffer: response.body))
                    #expect(echoed.id == 7 && echoed.tags == ["home"])
                }
                try await client.execute(uri: "/todos/own", method: .post, body: ByteBuffer(string: #"{"id": "7"}"#)) { response in
                    #expect(response.status == .badRequest)
                    let error = try JSONValue(parsing: Array(buffer: response.body))
                    #expect(error["error"]?["message"] == .string(#"cannot map 'Todo.id' at 'id': expected an integer, found "7""#))
                }
            }
        }
    }
#endif
