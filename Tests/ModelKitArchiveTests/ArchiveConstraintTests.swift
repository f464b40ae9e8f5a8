import Foundation
import ModelKit
import ModelKitArchive
import ModelKitTestSupport
import Testing

@Model struct ArchivedRating: Equatable {
    @Validate(.range(1...5)) var stars: Int
    @Validate(.pattern(#"^[A-Z]{3}$"#)) var code: String
}

/// A keyed archive is read like a payload: `@Validate` constraints are checked on the way in,
/// and an archive whose value fails one (an archive written by another program, or of a model
/// changed in code) is a typed error naming the model, the property and the value.
@Suite struct ArchiveConstraintTests {
    @Test(arguments: [PropertyListFormat.binary, .xml])
    func valuesThatSatisfyTheirConstraintsRoundTrip(format: PropertyListFormat) throws {
        let rating = ArchivedRating(stars: 4, code: "LHR")
        let data = try KeyedArchiver.archivedData(withRootObject: rating, format: format)
        expectEqual(try KeyedUnarchiver.unarchive(ArchivedRating.self, from: data), rating)
    }

    @Test func aValueThatFailsOneIsATypedError() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: ArchivedRating(stars: 9, code: "lhr"))
        let error = modelError { _ = try KeyedUnarchiver.unarchive(ArchivedRating.self, from: data) }
        #expect(error?.kind == .violatedConstraint, "\(String(describing: error))")
        #expect(error?.description.contains("invalid 'ArchivedRating.stars'") == true, "\(String(describing: error))")
        #expect(error?.description.contains("expected a value in 1...5, found 9") == true, "\(String(describing: error))")
    }
}
