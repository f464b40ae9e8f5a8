// A small REST API of to-dos: Hummingbird routes whose bodies are `@Model` types, read and written
// by ModelKit's JSON bytes path, kept in an SQLite store, one ModelContext per request.
//
//     swift run --traits Hummingbird TodoServer [--port 8080] [--db todos.sqlite]
//
// | route | what it does |
// | --- | --- |
// | `GET /todos[?format=ndjson]` | every to-do, streamed from a store cursor as a JSON array or NDJSON |
// | `GET /todos/:id` | one to-do, or 404 |
// | `POST /todos` | a new to-do from the body: 201 with its `Location`, 409 if the id is taken |
// | `PUT /todos/:id` | the to-do replaced by the body (the same id), or 404 |
// | `DELETE /todos/:id` | 204, or 404 |
//
// A body that does not map is a 400 whose body is ModelKit's error text. The port 0 picks a free
// one; the first line printed names the address.
#if Hummingbird
    import Foundation
    import Hummingbird
    import ModelKit
    import ModelKitHummingbird
    import ModelKitStore

    @Model(keys: .snakeCase)
    final class Todo {
        @Identifier var id: Int
        var title: String
        @Transform(.dateFormat("yyyy-MM-dd")) var dueOn: Date?   // "due_on": "2026-12-24"
        @Key("meta.tags") var tags: [String] = []                 // "meta": {"tags": [...]}
        var done = false
    }

    extension Todo: ResponseEncodable {}

    /// `--port N` and `--db PATH`, or nil when the arguments say something else.
    func parseArguments(_ arguments: ArraySlice<String>) -> (port: Int, database: String)? {
        var (port, database, rest) = (8080, "todos.sqlite", arguments)
        while let argument = rest.popFirst() {
            switch (argument, rest.popFirst()) {
            case ("--port", let value?):
                guard let number = Int(value), (0...65535).contains(number) else { return nil }
                port = number
            case ("--db", let value?): database = value
            default: return nil
            }
        }
        return (port, database)
    }

    guard let options = parseArguments(CommandLine.arguments.dropFirst()) else {
        print("usage: TodoServer [--port N] [--db PATH]")
        exit(64)
    }

    let store = try SQLiteStore(path: options.database)
    let router = Router(context: ModelRequestContext.self)

    router.get("todos") { request, _ in
        let format: JSONStreamFormat = request.uri.queryParameters.get("format") == "ndjson" ? .ndjson : .array
        return ModelStreamResponse(format: format) { store.cursor(ModelQuery(Todo.self).order(by: \Todo.id)) }
    }

    router.get("todos/:id") { _, context -> Todo in
        let id = try context.parameters.require("id", as: Int.self)
        guard let todo = try await store.fetchOne(Todo.self, id: id, context: ModelContext(store: store)) else {
            throw HTTPError(.notFound, message: "no to-do \(id)")
        }
        return todo
    }

    router.post("todos") { request, context in
        let todo = try await request.decode(as: Todo.self, context: context)
        let models = ModelContext(store: store)
        guard try models.model(Todo.self, id: todo.id) == nil else {
            throw HTTPError(.conflict, message: "to-do \(todo.id) exists")
        }
        try models.insert(todo)
        try await models.save()
        return ModelResponse(todo, status: .created, headers: [.location: "/todos/\(todo.id)"])
    }

    router.put("todos/:id") { request, context -> Todo in
        let id = try context.parameters.require("id", as: Int.self)
        let replacement = try await request.decode(as: Todo.self, context: context)
        guard replacement.id == id else { throw HTTPError(.badRequest, message: "the body's id is \(replacement.id), not \(id)") }
        let models = ModelContext(store: store)
        guard let todo = try models.model(Todo.self, id: id) else { throw HTTPError(.notFound, message: "no to-do \(id)") }
        (todo.title, todo.done, todo.dueOn, todo.tags) = (replacement.title, replacement.done, replacement.dueOn, replacement.tags)
        try await models.save()
        return todo
    }

    router.delete("todos/:id") { _, context -> HTTPResponse.Status in
        let id = try context.parameters.require("id", as: Int.self)
        guard try await store.deleteOne(Todo.self, id: id) else { throw HTTPError(.notFound, message: "no to-do \(id)") }
        return .noContent
    }

    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: options.port)),
        onServerRunning: { channel in
            print("TodoServer listening on http://127.0.0.1:\(channel.localAddress?.port ?? options.port), to-dos in \(options.database)")
            fflush(nil)  // to a pipe, standard output is flushed only when its buffer fills
        })
    try await app.runService()
#else
    import Foundation

    print("TodoServer needs Hummingbird: swift run --traits Hummingbird TodoServer")
    exit(69)
#endif
