import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Suite struct ModelContextTests {
    @Test func theSameUserInSeveralStatusesIsOneInstance() throws {
        let context = ModelContext()
        let timeline = try Timeline(jsonData: fixtureData("twitter.json"), context: context)
        let statuses = timeline.statuses + timeline.statuses.compactMap(\.retweetedStatus)
        let users = statuses.map(\.user)
        let byID = Dictionary(grouping: users, by: \.id)
        #expect(byID.count < users.count)
        for (id, instances) in byID {
            #expect(instances.allSatisfy { $0 === instances[0] }, "user \(id)")
            #expect(context.registeredModel(TwitterUser.self, id: id) === instances[0])
        }
        // A retweeted status that also appears on its own is one instance too.
        let ids = Dictionary(grouping: statuses, by: \.id)
        #expect(ids.values.allSatisfy { group in group.allSatisfy { $0 === group[0] } })
        expectEqual(context.registeredCount, byID.count + ids.count)
    }

    @Test func aLiveInstanceIsUpdatedInPlace() throws {
        let context = ModelContext()
        let first = try Counter(json: ["id": "a", "count": 1], context: context)
        let second = try Counter(jsonData: Data(#"{"id": "a", "count": 5}"#.utf8), context: context)
        #expect(first === second && first.count == 5)
        // Keys the payload leaves out keep their values.
        let user = try TwitterUser(json: userPayload(id: "7", name: "Ada"), context: context)
        let update = try TwitterUser(json: ["id_str": "7", "name": "Ada L."], context: context)
        #expect(update === user && user.name == "Ada L." && user.screenName == "ada")
        // Without a context, mapping makes new instances.
        #expect(try Counter(json: ["id": "a"]) !== first)
    }

    @Test func instancesNobodyHoldsAreGone() throws {
        let context = ModelContext()
        weak var weakCounter: Counter?
        do {
            let counter = try Counter(json: ["id": "gone"], context: context)
            weakCounter = counter
            #expect(context.registeredModel(Counter.self, id: "gone") === counter)
        }
        #expect(weakCounter == nil)
        #expect(context.registeredModel(Counter.self, id: "gone") == nil)
        expectEqual(context.registeredCount, 0)
        // Many short-lived instances do not pile up.
        for index in 0..<1_000 { _ = try Counter(json: ["id": "c\(index)"], context: context) }
        expectEqual(context.registeredCount, 0)
    }

    @Test func registeredOnlyAndLookupOrLoadAreSeparate() throws {
        let loader = PayloadLoader(payloads: ["s1": ["id": "s1", "count": 9]])
        let context = ModelContext(store: loader)
        #expect(context.registeredModel(Counter.self, id: "s1") == nil)
        let loaded = try #require(try context.model(Counter.self, id: "s1"))
        expectEqual(loaded.count, 9)
        #expect(context.registeredModel(Counter.self, id: "s1") === loaded)
        #expect(try context.model(Counter.self, id: "nope") == nil)
        // Mapping a payload for a stored identifier loads it, then applies the payload.
        let fresh = ModelContext(store: loader)
        let mapped = try Counter(json: ["id": "s1", "count": 10], context: fresh)
        #expect(mapped.count == 10 && loader.loads.value >= 1)
        withExtendedLifetime(loaded) {}
    }

    @Test func identifiersOfAnyHashableType() throws {
        let context = ModelContext()
        let uuid = UUID()
        let byUUID = try Ticket(json: ["id": uuid.uuidString, "title": "a"], context: context)
        #expect(try Ticket(json: ["id": uuid.uuidString, "title": "b"], context: context) === byUUID)
        #expect(context.registeredModel(Ticket.self, id: uuid)?.title == "b")
        let byInt = try Seat(json: ["number": 12], context: context)
        #expect(context.registeredModel(Seat.self, id: 12) === byInt)
    }

    @Test func typedAndTypeErasedIdentifiersMeet() throws {
        let context = ModelContext()
        let seat = try Seat(json: ["number": 12], context: context)
        // Integers of any width find what an `Int` registered, typed or in `AnyHashable`.
        #expect(context.registeredModel(Seat.self, id: 12) === seat)
        #expect(context.registeredModel(Seat.self, id: Int64(12)) === seat)
        #expect(context.registeredModel(Seat.self, id: UInt8(12)) === seat)
        #expect(context.registeredModel(Seat.self, identifier: AnyHashable(Int32(12))) === seat)
        #expect(context.registeredModel(Seat.self, id: 13) == nil)
        // Lookup-or-insert: the live instance wins.
        #expect(context.register(Seat(number: 12), id: 12) === seat)
        let other = Seat(number: 14)
        #expect(context.register(other, id: 14) === other)
        #expect(context.registeredModel(Seat.self, identifier: AnyHashable(14)) === other)
        // Strings and UUIDs, typed and erased.
        let uuid = UUID()
        let ticket = context.register(Ticket(id: uuid, title: "t"), id: uuid)
        #expect(context.registeredModel(Ticket.self, identifier: AnyHashable(uuid)) === ticket)
        let counter = try Counter(json: ["id": "x"], context: context)
        #expect(context.registeredModel(Counter.self, id: "x") === counter)
        #expect(context.registeredModel(Counter.self, identifier: AnyHashable("x")) === counter)
        expectEqual(context.registeredCount, 4)
    }

    /// Tasks of one actor map overlapping payloads into the actor's context, suspending
    /// between payloads: one instance per identifier across all of them.
    @MainActor @Test func tasksOfOneActorEndWithOneInstancePerIdentifier() async throws {
        let context = ModelContext()
        let kept = MainActorCounters()
        let payloads = (0..<8).map { task in
            Data("[\((0..<200).map { #"{"id": "\#(($0 * (task + 1)) % 150)", "count": \#(task)}"# }.joined(separator: ","))]".utf8)
        }
        let tasks = payloads.map { payload in
            Task { @MainActor in
                await Task.yield()
                kept.counters += try [Counter](jsonData: payload, context: context)
            }
        }
        for task in tasks { try await task.value }
        let byID = Dictionary(grouping: kept.counters, by: \.id)
        expectEqual(byID.count, 150)
        #expect(byID.values.allSatisfy { group in group.allSatisfy { $0 === group[0] } })
        expectEqual(context.registeredCount, 150)
    }

    /// Tasks on other threads each map into a context of their own: identity holds within each
    /// context, and no instance is shared between them.
    @Test func aContextPerTaskKeepsIdentityWithinEach() async throws {
        let payload = Data("[\((0..<300).map { #"{"id": "\#($0 % 100)", "count": \#($0)}"# }.joined(separator: ","))]".utf8)
        let results = try await withThrowingTaskGroup(of: (distinct: Int, live: Int, count: Int).self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let context = ModelContext()
                    let counters = try [Counter](jsonData: payload, context: context)
                    let distinct = Set(counters.map(ObjectIdentifier.init)).count
                    return (distinct, context.registeredCount, counters.count)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        expectEqual(results.count, 4)
        #expect(results.allSatisfy { $0 == (distinct: 100, live: 100, count: 300) })
    }

    func userPayload(id: String, name: String) -> [String: Any] {
        [
            "id_str": id, "name": name, "screen_name": "ada", "location": "", "description": "", "followers_count": 1,
            "friends_count": 2, "verified": false, "protected": false, "created_at": "Sun Aug 31 00:29:15 +0000 2014",
            "profile_image_url_https": "https://example.com/a.png",
        ]
    }
}

/// A loader over JSON objects, standing in for a store.
final class PayloadLoader: ModelLoading {
    let payloads: [String: [String: Any]]
    let loads = LoadCount()

    init(payloads: [String: [String: Any]]) {
        self.payloads = payloads
    }

    func loadModel<M: Model>(_ type: M.Type, id identifier: AnyHashable, into context: ModelContext) throws -> M? {
        guard let key = identifier.base as? String, let payload = payloads[key] else { return nil }
        loads.increment()
        let model = try M(json: payload)
        return context.register(model, identifier: identifier)
    }
}

extension PayloadLoader: @unchecked Sendable {}

final class LoadCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

/// Counters that tasks of the main actor gather, kept on the main actor with them.
@MainActor final class MainActorCounters {
    var counters: [Counter] = []
}
