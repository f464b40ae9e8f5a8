import Foundation
import ModelKit
import ModelKitArchive
import ModelKitTestSupport
import Testing

@Model struct ArchivedPage<Item: ModelValue> {
    var items: [Item]
    var cursor: String?
}

@Model struct ArchivedEntry: Equatable {
    var title: String
}

/// A generic model's specialisation archives under its own class name and reads back.
@Suite struct ArchiveGenericModelTests {
    @Test(arguments: [PropertyListFormat.binary, .xml])
    func aSpecialisationRoundTrips(format: PropertyListFormat) throws {
        let page = ArchivedPage(items: [ArchivedEntry(title: "a"), ArchivedEntry(title: "b")], cursor: "next")
        let data = try KeyedArchiver.archivedData(withRootObject: page, format: format)
        let back = try KeyedUnarchiver.unarchive(ArchivedPage<ArchivedEntry>.self, from: data)
        #expect(back.items == page.items && back.cursor == "next")
        let numbers = try KeyedUnarchiver.unarchive(
            ArchivedPage<Int>.self, from: KeyedArchiver.archivedData(withRootObject: ArchivedPage(items: [1, 2], cursor: nil)))
        #expect(numbers.items == [1, 2])
    }
}
