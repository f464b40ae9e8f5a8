import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// A venue of a ticket catalogue, keyed by its identifier in the payload.
@Model struct CatalogueVenue: Equatable {
    var name: String
    var seats: Int = 0
}

/// A catalogue whose id-keyed objects keep the entries that map.
@Model struct LossyCatalogue: Equatable {
    @Transform(.lossyDictionary(of: CatalogueVenue.self)) var venues: [String: CatalogueVenue] = [:]
    @Transform(.lossyDictionary(of: Int.self)) var counts: [String: Int] = [:]
}

/// `.lossyDictionary(of:)`: entries whose values do not map are left out and reported (their
/// path ends in the entry's key), on every path that maps payloads; the rest maps.
@Suite struct LossyDictionaryTests {
    static let readers = payloadReaders

    @Test(arguments: 0..<readers.count)
    func badEntriesAreDroppedAndReported(reader: Int) throws {
        let report = MappingReport()
        var options = MappingOptions()
        options.report = report
        let payload = #"""
            {"venues": {"205705993": {"name": "Arrière-scène central", "seats": 120}, "138586341": {"seats": 3},
                        "7": "closed", "8": {"name": "Salle 8"}},
             "counts": {"a": 1, "b": "two", "c": 3}}
            """#
        let catalogue = try Self.readers[reader].map(LossyCatalogue.self, from: payload, options: options)
        expectEqual(catalogue, LossyCatalogue(
            venues: ["205705993": CatalogueVenue(name: "Arrière-scène central", seats: 120), "8": CatalogueVenue(name: "Salle 8")],
            counts: ["a": 1, "c": 3]))
        // Payload order within an object is not kept by every path (JSONSerialization's
        // dictionaries): compare as a set.
        expectEqual(Set(report.droppedElements.map(\.description)), [
            "cannot map 'CatalogueVenue.name' at 'venues.138586341.name': missing key",
            "cannot map 'LossyCatalogue.venues' at 'venues.7': expected an object, found \"closed\"",
            "cannot map 'LossyCatalogue.counts' at 'counts.b': expected an integer, found \"two\"",
        ])
    }

    @Test(arguments: 0..<readers.count)
    func aValueThatIsNoObjectIsStillAnError(reader: Int) {
        let error = modelError { _ = try Self.readers[reader].map(LossyCatalogue.self, from: #"{"venues": [1]}"#, options: .default) }
        #expect(error?.kind == .typeMismatch, "\(String(describing: error))")
        #expect(error?.propertyName == "venues")
    }

    @Test func itWritesBackAsAnObject() throws {
        let catalogue = LossyCatalogue(venues: ["1": CatalogueVenue(name: "A", seats: 2)], counts: ["x": 5])
        let written = try #require(try JSONSerialization.jsonObject(with: catalogue.jsonData()) as? NSDictionary)
        let expected: NSDictionary = ["venues": ["1": ["name": "A", "seats": 2]], "counts": ["x": 5]]
        #expect(written.isEqual(to: expected as! [AnyHashable: Any]), "\(written)")
        try expectEqual(LossyCatalogue(jsonData: catalogue.jsonData()), catalogue)
    }
}
