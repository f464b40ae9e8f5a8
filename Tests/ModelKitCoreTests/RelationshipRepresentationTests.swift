import Foundation
import ModelKit
import ModelKitCore
import ModelKitTestSupport
import Testing

// A shipment refers to its carrier and parcels by identifier in payloads; a parcel nests its
// shipment as usual.

// snippet: relationships-identifiers-start
@Model final class Shipment {
    @Identifier var id: Int
    @Relationship(representation: .identifiers) var carrier: Carrier?
    @Relationship(inverse: \Parcel.shipment, representation: .identifiers) var parcels: [Parcel] = []
}
// snippet: relationships-identifiers-end

@Model final class Carrier {
    @Identifier var code: String
    var name: String = ""
}

@Model final class Parcel {
    @Identifier var id: Int
    var weight: Int = 0
    var shipment: Shipment?
}

/// `@Relationship(representation: .identifiers)`: payload formats write the related models'
/// identifiers, readers with a context take identifiers back as the models it holds or loads,
/// and archives keep the graph whatever the representation says.
@Suite struct RelationshipRepresentationTests {
    static let sorted = {
        var options = MappingOptions()
        options.sortsKeys = true
        return options
    }()

    @Test func identifiersAreWrittenInPayloads() throws {
        let shipment = Shipment(id: 7, carrier: Carrier(code: "ups", name: "UPS"))
        for id in [2, 1] { _ = Parcel(id: id, weight: id * 10, shipment: shipment) }
        expectEqual(
            String(decoding: try shipment.jsonData(options: Self.sorted), as: UTF8.self), #"{"carrier":"ups","id":7,"parcels":[2,1]}"#)
        // A parcel nests its shipment, which names the parcels by identifier: no reference back to leave out.
        expectEqual(
            String(decoding: try shipment.parcels[0].jsonData(options: Self.sorted), as: UTF8.self),
            #"{"id":2,"shipment":{"carrier":"ups","id":7,"parcels":[2,1]},"weight":20}"#)
        // Codable goes through the same writer walk.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        expectEqual(String(decoding: try encoder.encode(shipment), as: UTF8.self), #"{"carrier":"ups","id":7,"parcels":[2,1]}"#)
        expectEqual(String(decoding: try Shipment(id: 8).jsonData(options: Self.sorted), as: UTF8.self), #"{"carrier":null,"id":8,"parcels":[]}"#)
        shipment.parcels = []
    }

    /// Read through a context, identifiers are the models it holds; nested objects still read.
    @Test func identifiersReadBackThroughAContext() throws {
        // snippet: relationships-identifiers-start
        let context = ModelContext()
        let carrier = try Carrier(jsonData: Data(#"{"code": "ups", "name": "UPS"}"#.utf8), context: context)
        let parcels = try [Parcel](jsonData: Data(#"[{"id": 1, "weight": 10}, {"id": 2, "weight": 20}]"#.utf8), context: context)
        // Identifiers read back as the models the context holds (or loads from its store).
        let shipment = try Shipment(jsonData: Data(#"{"id": 7, "carrier": "ups", "parcels": [2, 1]}"#.utf8), context: context)
        print(String(decoding: try shipment.jsonData(), as: UTF8.self))  // {"id":7,"carrier":"ups","parcels":[2,1]}
        // snippet: relationships-identifiers-end
        #expect(shipment.carrier === carrier)
        #expect(shipment.parcels.map(\.id) == [2, 1] && shipment.parcels[0] === parcels[1])
        #expect(parcels.allSatisfy { $0.shipment === shipment })  // the inverse is kept, as for nested models
        let nested = try Shipment(jsonData: Data(#"{"id": 8, "carrier": {"code": "dhl", "name": "DHL"}}"#.utf8), context: context)
        expectEqual(nested.carrier?.name, "DHL")
        shipment.parcels = []
    }

    /// An identifier the context does not hold, or an identifier without a context, is an error
    /// with the path; nothing is made up.
    @Test func anIdentifierWithNothingToFindIsAnError() throws {
        let context = ModelContext()
        let unknown = modelError { _ = try Shipment(jsonData: Data(#"{"id": 7, "carrier": "fedex"}"#.utf8), context: context) }
        expectEqual(
            unknown?.description,
            "cannot map 'Shipment.carrier' at 'carrier': expected a 'Carrier' as an object, or the identifier of one the context "
                + "holds or loads, found fedex")
        let inArray = modelError { _ = try Shipment(jsonData: Data(#"{"id": 7, "parcels": [3]}"#.utf8), context: context) }
        expectEqual(inArray?.path.description, "parcels[0]")
        #expect(modelError { _ = try Shipment(jsonData: Data(#"{"id": 7, "carrier": "ups"}"#.utf8)) } != nil)
        #expect(context.registeredModel(Shipment.self, id: 7) == nil)
    }

    /// An archive keeps the graph: the representation is for payloads.
    @Test func anArchiveKeepsTheModels() throws {
        let shipment = Shipment(id: 7, carrier: Carrier(code: "ups", name: "UPS"))
        _ = Parcel(id: 1, weight: 10, shipment: shipment)
        let read = try KeyedUnarchiver.unarchive(Shipment.self, from: try KeyedArchiver.archivedData(withRootObject: shipment))
        expectEqual(read.carrier?.name, "UPS")
        expectEqual(read.parcels.map(\.weight), [10])
        #expect(read.parcels.first?.shipment === read)
        shipment.parcels = []
        read.parcels = []
    }
}
