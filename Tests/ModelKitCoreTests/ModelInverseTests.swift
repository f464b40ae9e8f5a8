import Foundation
import ModelKit
import ModelKitCore
import ModelKitTestSupport
import Observation
import Testing

// A forum: threads have replies (the inverse declared on the thread), labels have threads and
// threads labels (many-to-many), and a reply may quote another (declared on the quoting side).

@Model final class ForumThread {
    @Identifier var id: Int
    var title: String = ""
    @Relationship(deleteRule: .cascade, inverse: \ForumReply.thread) var replies: [ForumReply] = []
    @Relationship(inverse: \ForumLabel.threads) var labels: [ForumLabel] = []
}

@Model final class ForumReply {
    @Identifier var id: Int
    var thread: ForumThread?
    var quotedBy: [ForumReply] = []
    @Relationship(inverse: \ForumReply.quotedBy) var quote: ForumReply?
}

@Model final class ForumLabel {
    @Identifier var name: String
    var threads: [ForumThread] = []
}

/// Inverses kept in memory, as SwiftData keeps them: one side set, the other follows.
@Suite struct ModelInverseTests {
    static let sorted = {
        var options = MappingOptions()
        options.sortsKeys = true
        return options
    }()

    @Test func settingAToOneMovesTheModelBetweenToManys() {
        let first = ForumThread(id: 1)
        let second = ForumThread(id: 2)
        let reply = ForumReply(id: 10)
        reply.thread = first
        expectEqual(first.replies.map(\.id), [10])
        reply.thread = second
        expectEqual(first.replies.map(\.id), [])
        expectEqual(second.replies.map(\.id), [10])
        reply.thread = nil
        expectEqual(second.replies.map(\.id), [])
    }

    @Test func changingAToManySetsAndClearsTheToOnes() {
        let thread = ForumThread(id: 1)
        let a = ForumReply(id: 10)
        let b = ForumReply(id: 11)
        thread.replies = [a, b]
        #expect(a.thread === thread && b.thread === thread)
        thread.replies.removeFirst()
        #expect(a.thread == nil && b.thread === thread)
        let c = ForumReply(id: 12)
        thread.replies.append(c)
        #expect(c.thread === thread)
        // Appended to another thread's replies: it leaves this one.
        let other = ForumThread(id: 2)
        other.replies.append(b)
        #expect(b.thread === other)
        expectEqual(thread.replies.map(\.id), [12])
    }

    @Test func manyToManyKeepsBothArrays() {
        let thread = ForumThread(id: 1)
        let swift = ForumLabel(name: "swift")
        let linux = ForumLabel(name: "linux")
        thread.labels.append(swift)
        linux.threads.append(thread)
        expectEqual(thread.labels.map(\.name), ["swift", "linux"])
        expectEqual(swift.threads.map(\.id), [1])
        thread.labels = [linux]
        expectEqual(swift.threads.map(\.id), [])
        expectEqual(linux.threads.map(\.id), [1])
    }

    /// Declared on one side only, the inverse is kept from either side, here within one type.
    @Test func anInverseDeclaredOnTheOtherSideIsKeptToo() {
        let original = ForumReply(id: 1)
        let quoting = ForumReply(id: 2)
        original.quotedBy.append(quoting)
        #expect(quoting.quote === original)
        quoting.quote = nil
        expectEqual(original.quotedBy.map(\.id), [])
    }

    /// The memberwise initializer and a payload's nested models keep inverses too.
    @Test func initializersAndPayloadsSetTheInverse() throws {
        let thread = ForumThread(id: 1)
        let reply = ForumReply(id: 10, thread: thread)
        expectEqual(thread.replies.map(\.id), [10])
        // Appended again by hand: a model is in a relationship once.
        thread.replies.append(reply)
        expectEqual(thread.replies.map(\.id), [10])
        let mapped = try ForumThread(jsonData: Data(#"{"id": 2, "replies": [{"id": 20}, {"id": 21}], "labels": [{"name": "swift"}]}"#.utf8))
        #expect(mapped.replies.allSatisfy { $0.thread === mapped })
        expectEqual(mapped.labels.first?.threads.map(\.id), [2])
        reply.thread = nil
    }

    /// Observers of the other side hear the change that kept it.
    @Test func observationSeesBothSides() {
        let thread = ForumThread(id: 1)
        let reply = ForumReply(id: 10)
        let heard = Locked(false)
        withObservationTracking { _ = thread.replies } onChange: { heard.withLock { $0 = true } }
        reply.thread = thread
        #expect(heard.withLock { $0 })
        reply.thread = nil
    }

    /// JSON nests a relationship and leaves the inverse implied: the reference back is null (a
    /// to-one) or left out (a to-many), and reading the payload sets it again.
    @Test func jsonNestsARelationshipAndReadsItsInverseBack() throws {
        let thread = ForumThread(id: 1, title: "t")
        let reply = ForumReply(id: 10, thread: thread)
        thread.labels.append(ForumLabel(name: "swift"))
        let data = try thread.jsonData(options: Self.sorted)
        expectEqual(
            String(decoding: data, as: UTF8.self),
            #"{"id":1,"labels":[{"name":"swift","threads":[]}],"replies":[{"id":10,"quote":null,"quotedBy":[],"thread":null}],"title":"t"}"#)
        let read = try ForumThread(jsonData: data)
        #expect(read.replies.first?.thread === read)
        #expect(read.labels.first?.threads.first === read)
        // From the other end: the reply, its thread nested, the thread's replies without it.
        expectEqual(
            String(decoding: try reply.jsonData(options: Self.sorted), as: UTF8.self),
            #"{"id":10,"quote":null,"quotedBy":[],"thread":{"id":1,"labels":[{"name":"swift","threads":[]}],"replies":[],"title":"t"}}"#)
        let readReply = try ForumReply(jsonData: try reply.jsonData())
        expectEqual(readReply.thread?.replies.map(\.id), [10])
        reply.thread = nil
        thread.labels = []
    }

    /// A keyed archive keeps the graph itself: both sides come back.
    @Test func anArchiveKeepsBothSides() throws {
        let thread = ForumThread(id: 1, title: "t")
        let reply = ForumReply(id: 10, thread: thread)
        let read = try KeyedUnarchiver.unarchive(ForumThread.self, from: try KeyedArchiver.archivedData(withRootObject: thread))
        #expect(read.replies.first?.thread === read)
        reply.thread = nil
    }

    /// Both sides hold their models, so a thread and its replies keep each other alive once
    /// nothing else does; emptying one side lets them go with their last outside references.
    @Test func aGraphLivesUntilOneSideIsEmptied() {
        weak var kept: ForumThread?
        weak var keptReply: ForumReply?
        do {
            let thread = ForumThread(id: 1)
            _ = ForumReply(id: 1, thread: thread)
            kept = thread
            keptReply = thread.replies.first
        }
        #expect(kept != nil && keptReply?.thread === kept, "a cycle: each side holds the other")
        weak var freed: ForumThread?
        weak var freedReply: ForumReply?
        do {
            let thread = ForumThread(id: 2)
            let reply = ForumReply(id: 2, thread: thread)
            freed = thread
            freedReply = reply
            thread.replies = []
            #expect(reply.thread == nil)
        }
        #expect(freed == nil && freedReply == nil)
        // The first graph, broken now, goes too.
        kept?.replies = []
        #expect(kept == nil && keptReply == nil)
    }
}
