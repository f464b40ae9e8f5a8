import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@testable import ModelKitCore

/// The identity map's shards: lookups outside a mapping run take only their shard's lock, yet a
/// run stays all or nothing for everyone; the integer table underneath agrees with a dictionary.
@Suite struct IdentityShardsTests {
    /// Random sets, replacements and removals over a narrow range of keys (many collisions,
    /// removal marks, growth), compared step by step with a dictionary.
    @Test(arguments: [1, 2, 3, 42] as [UInt64])
    func integerSlotMapAgreesWithADictionary(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var map = IntegerSlotMap()
        defer { map.deallocate() }
        var expected: [Int64: Int] = [:]
        let edges: [Int64] = [.min, .max, 0, -1]
        for step in 0..<20_000 {
            let key = step % 97 == 0 ? edges[step % edges.count] : Int64(random.next() % 600) - 300
            switch random.next() % 3 {
            case 0:
                map.set(step, for: key)
                expected[key] = step
            case 1:
                map.remove(key)
                expected[key] = nil
            default:
                #expect(map.slot(for: key) == expected[key], "step \(step), key \(key)")
            }
        }
        var seen: [Int64: Int] = [:]
        map.forEach { key, slot in seen[key] = slot }
        expectEqual(seen, expected)
    }

    /// Every kind of identifier lands in a shard within range, the same one each time.
    @Test func identifiersFallInAStableShard() {
        let keys: [IdentityKey] = [
            .integer(0), .integer(-7), .integer(.max), .string(""), .string("user-42"), .string("ü"),
            .uuid(UUID()), .other(AnyHashable(3.5)),
        ]
        for key in keys {
            let index = IdentityShards.index(of: key)
            #expect((0..<IdentityShards.count).contains(index))
            expectEqual(IdentityShards.index(of: key), index)
        }
        expectEqual(IdentityShards.index(of: .integer(12)), IdentityShards.index(ofInteger: 12))
    }

    /// Integer identifiers spread over the shards (sequential ones too), so tasks seldom meet.
    @Test func sequentialIdentifiersSpreadOverTheShards() {
        var counts = [Int](repeating: 0, count: IdentityShards.count)
        for id in 0..<(IdentityShards.count * 100) { counts[IdentityShards.index(ofInteger: Int64(id))] += 1 }
        #expect(counts.min()! >= 50, "\(counts)")
    }

    /// Tasks registering instances beside failing mapping runs that register the same
    /// identifiers: no task ever gets an instance a run took back, so each identifier ends with
    /// the one instance every task got.
    @Test func lookupsBesideFailingRunsNeverSeeATakenBackInstance() async throws {
        let context = ModelContext()
        let keeper = SeatKeeper()
        struct Abandon: Error {}
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var got: [Seat] = []
                    for round in 0..<5 {
                        for number in stride(from: task + round, to: 400, by: 3) {
                            got.append(context.register(Seat(number: number), for: number))
                            got.append(context.register(Seat(number: number)))
                        }
                    }
                    keeper.keep(got)
                }
            }
            group.addTask {
                for round in 0..<100 {
                    _ = try? context.performMapping {
                        for number in stride(from: round % 7, to: 400, by: 5) {
                            _ = context.register(Seat(number: number), for: number)
                        }
                        throw Abandon()
                    }
                }
            }
        }
        let byNumber = Dictionary(grouping: keeper.seats, by: \.number)
        expectEqual(byNumber.count, 400)
        for (number, seats) in byNumber {
            let live = context.registeredModel(Seat.self, for: number)
            #expect(live != nil && seats.allSatisfy { $0 === live }, "seat \(number)")
        }
        expectEqual(context.registeredCount, 400)
    }

    /// A registration while another thread's mapping run holds an instance for the same
    /// identifier waits for the run to end; the run fails, so the waiting registration's own
    /// instance becomes the live one. Integer identifiers (their own path) and strings.
    @Test func aRegistrationDuringAFailingRunWaitsAndKeepsItsOwnInstance() {
        struct Abandon: Error {}
        let context = ModelContext()
        let inRun = DispatchSemaphore(value: 0)
        let runEnded = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? context.performMapping {
                let seat = context.register(Seat(number: 1), for: 1)
                let counter = context.register(Counter(id: "a"))
                inRun.signal()
                withExtendedLifetime((seat, counter)) { Thread.sleep(forTimeInterval: 0.3) }
                throw Abandon()
            }
            runEnded.signal()
        }
        inRun.wait()
        let seat = Seat(number: 1)
        let counter = Counter(id: "a")
        #expect(context.register(seat, for: 1) === seat)
        #expect(context.register(counter) === counter)
        runEnded.wait()
        #expect(context.registeredModel(Seat.self, for: 1) === seat)
        #expect(context.registeredModel(Counter.self, for: "a") === counter)
    }

    /// Removing everything empties every shard, and lookups start afresh.
    @Test func removeAllEmptiesEveryShard() {
        let context = ModelContext()
        let seats = (0..<300).map { context.register(Seat(number: $0), for: $0) }
        expectEqual(context.registeredCount, 300)
        context.removeAll()
        expectEqual(context.registeredCount, 0)
        #expect(context.registeredModel(Seat.self, for: 7) == nil)
        let again = context.register(Seat(number: 7), for: 7)
        #expect(again !== seats[7])
    }
}

/// Holds seats from several tasks, so they stay alive.
private final class SeatKeeper: @unchecked Sendable {
    // @unchecked: `kept` is only touched under `lock`.
    private let lock = NSLock()
    private var kept: [Seat] = []
    var seats: [Seat] { lock.withLock { kept } }
    func keep(_ seats: [Seat]) { lock.withLock { kept += seats } }
}
