import Foundation
import ModelKit
import ModelKitGenerator
import ModelKitTestSupport
import Testing

/// The models `modelkit generate` wrote for a real ticket catalogue (`Generated/CitmCatalog.swift`),
/// whose objects keyed by identifiers are dictionaries, compiled with the tests: they map the
/// payload they came from, and back.
@Suite struct GeneratedCitmCatalogModelTests {
    @Test func theGeneratorStillWritesTheCheckedInFile() throws {
        let source = try ModelGenerator(rootName: "CitmCatalog").generate(fromJSON: fixtureData("citm_catalog.json"))
        try expectEqual(source, GenerateCommandTests.checkedInModels("CitmCatalog"))
    }

    /// 1.7 MB, 184 events keyed by id: the generator walks it once, and merges each dictionary's
    /// values once, so this takes a fraction of a second even in a debug build.
    @Test(.timeLimit(.minutes(1))) func generatingFromTheWholeCatalogueIsQuick() throws {
        let data = try fixtureData("citm_catalog.json")
        let clock = ContinuousClock()
        let elapsed = try clock.measure { _ = try ModelGenerator(rootName: "CitmCatalog").generate(fromJSON: data) }
        #expect(elapsed < .seconds(5), "took \(elapsed)")
    }

    @Test func theGeneratedModelsMapTheCatalogue() throws {
        let catalogue = try CitmCatalog(jsonData: fixtureData("citm_catalog.json"))
        expectEqual(catalogue.areaNames.count, 17)
        expectEqual(catalogue.areaNames["205705993"], "Arrière-scène central")
        expectEqual(catalogue.audienceSubCategoryNames, ["337100890": "Abonné"])
        expectEqual(catalogue.seatCategoryNames.count, 64)
        expectEqual(catalogue.subTopicNames.count, 19)
        expectEqual(catalogue.topicNames.count, 4)
        expectEqual(catalogue.topicSubTopics["107888604"], [337_184_283, 337_184_267])
        expectEqual(catalogue.blockNames, .object([]))
        expectEqual(catalogue.venueNames.pleyelPLEYEL, "Salle Pleyel")

        expectEqual(catalogue.events.count, 184)
        let event = try #require(catalogue.events["138586341"])
        #expect((event.id, event.name, event.logo) == (138_586_341, "30th Anniversary Tour", nil))
        expectEqual(event.subTopicIds, [337_184_269, 337_184_283])
        expectEqual(event.topicIds, [324_846_099, 107_888_604])
        expectEqual(catalogue.events.values.filter { $0.logo != nil }.count, 94)
        #expect(catalogue.events.allSatisfy { key, event in key == String(event.id) })

        expectEqual(catalogue.performances.count, 243)
        let performance = try #require(catalogue.performances.first)
        #expect((performance.id, performance.eventId, performance.venueCode) == (339_887_544, 138_586_341, "PLEYEL_PLEYEL"))
        expectEqual(performance.start, 1_372_701_600_000)
        expectEqual(performance.prices.first?.amount, 90250)
        expectEqual(performance.seatCategories.count, 2)
        // Every performance's event is in the events dictionary.
        #expect(catalogue.performances.allSatisfy { catalogue.events[String($0.eventId)] != nil })
    }

    /// Written back, the catalogue is the payload it came from, but for the order of the keys in
    /// its dictionaries: every key, value and null is kept.
    @Test func theGeneratedModelsWriteThePayloadBack() throws {
        let payload = try fixtureData("citm_catalog.json")
        let catalogue = try CitmCatalog(jsonData: payload)
        let written = try catalogue.jsonData()
        try expectEqual(Self.sortingKeys(JSONValue(parsing: written)), Self.sortingKeys(JSONValue(parsing: payload)))
        try expectEqual(CitmCatalog(jsonData: written), catalogue)
    }

    /// `value` with the members of every object in key order.
    static func sortingKeys(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(members.sorted { $0.key < $1.key }.map { JSONMember($0.key, sortingKeys($0.value)) })
        case .array(let elements): return .array(elements.map(sortingKeys))
        default: return value
        }
    }
}
