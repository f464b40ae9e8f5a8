import Foundation
import ModelKit
import ModelKitArchive
import ModelKitTestSupport
import Testing

@Model(.external) enum ArchivedShape: Equatable {
    case circle(radius: Double)
    case label(String)
    case empty
}

@Model struct ArchivedDrawing: Equatable {
    var shapes: [ArchivedShape]
    var focus: ArchivedShape?
}

/// Internally tagged with integer tags.
@Model(tag: "code") enum ArchivedStatus: Equatable {
    @Key(200) case ok
    @Key(404) case missing(path: String)
    @Key("later") case later(seconds: Int)
}

/// Adjacently tagged.
@Model(tag: "kind", content: "data") enum ArchivedSignal: Equatable {
    case move(x: Int, y: Int)
    case say(String)
    case stop
}

/// Untagged: the first case whose payload maps.
@Model(.untagged) enum ArchivedID: Equatable {
    case number(Int)
    case text(String)
    case none
}

@Model struct ArchivedReply: Equatable {
    var statuses: [ArchivedStatus]
    var signals: [ArchivedSignal] = []
    var ids: [ArchivedID] = []
}

/// A keyed archive keeps a `@Model` enum as its tagged value, and reads it back.
@Suite struct ArchiveEnumTests {
    @Test(arguments: [PropertyListFormat.binary, .xml])
    func enumsRoundTrip(format: PropertyListFormat) throws {
        let drawing = ArchivedDrawing(shapes: [.circle(radius: 1.5), .label("a"), .empty], focus: .label("b"))
        let data = try KeyedArchiver.archivedData(withRootObject: drawing, format: format)
        expectEqual(try KeyedUnarchiver.unarchive(ArchivedDrawing.self, from: data), drawing)
    }

    /// The internal (with integer tags), adjacent and untagged representations; the external one
    /// is above.
    @Test(arguments: [PropertyListFormat.binary, .xml])
    func everyOtherRepresentationRoundTrips(format: PropertyListFormat) throws {
        let reply = ArchivedReply(
            statuses: [.ok, .missing(path: "/a"), .later(seconds: 3)], signals: [.move(x: 1, y: 2), .say("hi"), .stop],
            ids: [.number(7), .text("seven"), .none])
        let data = try KeyedArchiver.archivedData(withRootObject: reply, format: format)
        expectEqual(try KeyedUnarchiver.unarchive(ArchivedReply.self, from: data), reply)
    }
}
