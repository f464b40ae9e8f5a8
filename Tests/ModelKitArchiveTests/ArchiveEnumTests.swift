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

/// A keyed archive keeps a `@Model` enum as its tagged value, and reads it back.
@Suite struct ArchiveEnumTests {
    @Test(arguments: [PropertyListFormat.binary, .xml])
    func enumsRoundTrip(format: PropertyListFormat) throws {
        let drawing = ArchivedDrawing(shapes: [.circle(radius: 1.5), .label("a"), .empty], focus: .label("b"))
        let data = try KeyedArchiver.archivedData(withRootObject: drawing, format: format)
        expectEqual(try KeyedUnarchiver.unarchive(ArchivedDrawing.self, from: data), drawing)
    }
}
