import Foundation
import ModelKit
import ModelKitRemote
import ModelKitStore
import ModelKitTestSupport
import Testing

/// The client against a real server: collections through an envelope, identity, the store, writes.
@Suite struct RemoteClientTests {
    @Test func aCollectionFetchGivesOneInstancePerIdentifier() async throws {
        try await TestServer.with { server in
            let fixtures = try Fixtures.shared()
            let client = server.client()
            let context = ModelContext()
            let users = try await client.fetchAll(TwitterUser.self, context: context)
            // Every element of "data.items", repeats included, mapped ...
            expectEqual(users.count, fixtures.users.count)
            let identifiers = Set(users.map(\.id))
            expectEqual(identifiers.count, 115)
            #expect(users.count > identifiers.count)
            // ... to one instance per identifier: repeats are the same object.
            var first: [String: TwitterUser] = [:]
            for user in users {
                if let seen = first[user.id] { #expect(seen === user) } else { first[user.id] = user }
            }
            let identities: Set<ObjectIdentifier> = Set(users.map { ObjectIdentifier($0) })
            expectEqual(identities.count, 115)
            #expect(context.registeredModel(TwitterUser.self, id: users[0].id) === users[0])
            // Fetching again through the context returns the same instances.
            let again = try await client.fetchAll(TwitterUser.self, context: context)
            #expect(zip(users, again).allSatisfy { $0 === $1 })
        }
    }

    @Test func queryItemsReachTheServer() async throws {
        try await TestServer.with { server in
            let users = try await server.client().fetchAll(TwitterUser.self, query: [URLQueryItem(name: "limit", value: "7")])
            expectEqual(users.count, 7)
            let request = try #require(await server.log.entries.last)
            #expect(request.method == "GET" && request.path == "/users" && request.query == ["limit": "7"])
        }
    }

    @Test func anInstanceFetchUpdatesTheLiveInstanceInPlace() async throws {
        try await TestServer.with { server in
            let client = server.client()
            let context = ModelContext()
            let users = try await client.fetchAll(TwitterUser.self, query: [URLQueryItem(name: "limit", value: "3")], context: context)
            let live = users[1]
            let originalName = live.name
            #expect(originalName != "Renamed on the server")
            await server.log.override("name", with: "Renamed on the server")

            let fetched = try await client.fetchOne(TwitterUser.self, id: live.id, context: context)
            #expect(fetched === live)
            expectEqual(live.name, "Renamed on the server")
            try expectEqual(#require(await server.log.entries.last).path, "/users/\(live.id)")

            await server.log.override("screen_name", with: "refreshed")
            try await client.refresh(live, context: context)
            expectEqual(live.screenName, "refreshed")
        }
    }

    @Test func aSavedFetchIsReadableFromANewContextOnTheSameFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("remote.sqlite")
        let expected: (statuses: Int, users: Int, text: String, id: String)
        expected = try await TestServer.with { server in
            let store = try SQLiteStore(path: path)
            let statuses = try await server.client(store: store).fetchAll(Status.self)
            expectEqual(statuses.count, 100)
            let all = statuses + statuses.compactMap(\.retweetedStatus)
            return (Set(all.map(\.id)).count, Set(all.map(\.user.id)).count, statuses[0].text, statuses[0].id)
        }
        // Another store on the same file, another context: everything the fetch saved is there.
        let store = try SQLiteStore(path: path)
        let context = ModelContext(store: store)
        try await expectEqual(store.fetchCount(Status.self), expected.statuses)
        try await expectEqual(store.fetchCount(TwitterUser.self), expected.users)
        let status = try #require(try context.model(Status.self, id: expected.id))
        expectEqual(status.text, expected.text)
        #expect(context.registeredModel(TwitterUser.self, id: status.user.id) === status.user)
    }

    @Test func anInstanceFetchThroughANewContextUpdatesTheStoredRow() async throws {
        let store = try SQLiteStore()
        try await TestServer.with { server in
            let user = try await server.client(store: store).fetchAll(TwitterUser.self, query: [URLQueryItem(name: "limit", value: "1")])[0]
            await server.log.override("location", with: "Tokyo")
            // A new client and context over the same store: the fetch updates the stored model.
            let fetched = try await server.client(store: store).fetchOne(TwitterUser.self, id: user.id)
            #expect(fetched !== user && fetched.location == "Tokyo")
            #expect(try await store.fetchOne(TwitterUser.self, id: user.id)?.location == "Tokyo")
        }
    }

    @Test func createPostsTheModelAndMapsTheAnswerOntoIt() async throws {
        try await TestServer.with { server in
            let store = try SQLiteStore()
            let client = server.client(store: store)
            let context = ModelContext(store: store)
            let user = try await newUser(server)
            let created = try await client.create(user, context: context)
            #expect(created === user)
            expectEqual(user.followersCount, 1000)   // set by the server
            #expect(context.registeredModel(TwitterUser.self, id: "1") === user)
            #expect(try await store.fetchOne(TwitterUser.self, id: "1")?.followersCount == 1000)

            let request = try #require(await server.log.entries.last)
            #expect(request.method == "POST" && request.path == "/users")
            let sent = try TwitterUser(jsonData: try #require(request.body))
            #expect(sent.screenName == "ada" && sent.followersCount == 3)
        }
    }

    @Test func updateSendsTheModelWithPutOrPatch() async throws {
        try await TestServer.with { server in
            let client = server.client()
            let user = try await newUser(server)
            user.name = "Ada Lovelace"
            // PUT answers 204: the live instance comes back as sent.
            #expect(try await client.update(user) === user)
            var request = try #require(await server.log.entries.last)
            #expect(request.method == "PUT" && request.path == "/users/1")
            try expectEqual(TwitterUser(jsonData: try #require(request.body)).name, "Ada Lovelace")
            expectEqual(user.followersCount, 3)
            // PATCH answers with the user: mapped onto the live instance.
            #expect(try await client.update(user, method: .patch) === user)
            request = try #require(await server.log.entries.last)
            #expect(request.method == "PATCH" && request.path == "/users/1")
            expectEqual(user.followersCount, 1000)
        }
    }

    @Test func deleteRemovesTheResourceAndTheStoredRow() async throws {
        try await TestServer.with { server in
            let store = try SQLiteStore()
            let client = server.client(store: store)
            let user = try await newUser(server)
            try await store.save(user)
            try await client.delete(user)
            let request = try #require(await server.log.entries.last)
            #expect(request.method == "DELETE" && request.path == "/users/1")
            #expect(try await store.fetchOne(TwitterUser.self, id: "1") == nil)
            try await client.deleteOne(TwitterUser.self, id: "a b/c")
            try expectEqual(#require(await server.log.entries.last).path, "/users/a%20b%2Fc")
        }
    }

    /// A user made from the first fixture user, with identifier "1".
    private func newUser(_ server: TestServer) async throws -> TwitterUser {
        var object = try Fixtures.shared().users[0]
        object["id_str"] = "1"
        object["screen_name"] = "ada"
        object["followers_count"] = 3
        return try TwitterUser(jsonData: JSONSerialization.data(withJSONObject: object))
    }
}
