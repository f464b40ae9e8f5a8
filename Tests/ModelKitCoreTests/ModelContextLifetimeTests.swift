import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// How a context holds its live instances without keeping them: an instance goes when its last
/// outside reference does, however else it is referenced, and one being deinitialized is never
/// handed out again, even while another thread is in the middle of a lookup.
@Suite struct ModelContextLifetimeTests {
    @Test func aGoneInstanceGivesWayToTheNextOneRegistered() {
        let context = ModelContext()
        weak var first: Counter?
        do {
            let counter = Counter(id: "a", count: 1)
            #expect(context.register(counter) === counter)
            first = counter
        }
        #expect(first == nil)
        #expect(context.registeredModel(Counter.self, id: "a") == nil)
        let second = Counter(id: "a", count: 2)
        #expect(context.register(second) === second)
        #expect(context.registeredModel(Counter.self, id: "a") === second)
        expectEqual(context.registeredCount, 1)
    }

    /// A weak reference elsewhere gives the instance a side table for its counts; the context
    /// still finds it while it lives and lets it go with its last strong reference.
    @Test func anInstanceAlsoReferencedWeaklyElsewhere() {
        let context = ModelContext()
        weak var elsewhere: Counter?
        do {
            let counter = Counter(id: "w", count: 3)
            elsewhere = counter
            #expect(context.register(counter) === counter)
            #expect(context.register(Counter(id: "w")) === counter)
            #expect(context.registeredModel(Counter.self, id: "w")?.count == 3)
        }
        #expect(elsewhere == nil)
        #expect(context.registeredModel(Counter.self, id: "w") == nil)
        expectEqual(context.registeredCount, 0)
    }

    /// Instances of the same few identifiers are registered and dropped over and over, so the
    /// live instance keeps dying between lookups: every instance handed out is alive and
    /// carries the identifier asked for, and a dead one is replaced, never returned.
    @Test func instancesThatDiedAreNeverHandedOut() {
        let context = ModelContext()
        let identifiers = (0..<8).map { "k\($0)" }
        let kept = identifiers.map { Counter(id: $0) }
        var mismatches = 0
        for round in 0..<20_000 {
            let index = (round &* 7) % identifiers.count
            // A fresh instance most of the time, so the live one keeps dying.
            let candidate = round % 3 == 0 ? kept[index] : Counter(id: identifiers[index])
            let live = context.register(candidate)
            if live.id != identifiers[index] { mismatches += 1 }
            if let registered = context.registeredModel(Counter.self, id: identifiers[index]),
                registered.id != identifiers[index]
            {
                mismatches += 1
            }
        }
        expectEqual(mismatches, 0)
        // Only the instances this test still holds are live.
        #expect(context.registeredCount <= identifiers.count)
        for counter in kept {
            let live = context.registeredModel(Counter.self, id: counter.id)
            expectEqual(live?.id, counter.id)
        }
    }

    /// The memory of gone instances is given back as the table sweeps: 100,000 short-lived
    /// instances leave nothing registered behind.
    @Test func shortLivedInstancesLeaveNothingBehind() {
        let context = ModelContext()
        for index in 0..<100_000 { _ = context.register(Counter(id: "t\(index % 5_000)")) }
        expectEqual(context.registeredCount, 0)
        let kept = Counter(id: "kept")
        #expect(context.register(kept) === kept && context.registeredCount == 1)
    }
}
