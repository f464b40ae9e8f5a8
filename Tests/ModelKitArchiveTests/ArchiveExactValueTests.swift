import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Suite struct ArchiveExactValueTests {
    /// `NSDate` keeps a date's seconds as a `Double` and `NSDecimalNumber` a decimal's digits:
    /// both come back exactly, in binary and XML archives.
    @Test(arguments: [PropertyListFormat.binary, .xml])
    func aMomentRoundTripsThroughArchives(_ format: PropertyListFormat) throws {
        let moment = Moment.exacting()
        let data = try KeyedArchiver.archivedData(withRootObject: moment, format: format)
        try expectEqual(KeyedUnarchiver.unarchive(Moment.self, from: data), moment)
    }
}
