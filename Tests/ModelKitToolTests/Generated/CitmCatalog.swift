// `modelkit generate --root CitmCatalog` output for Tests/ModelKitTestSupport/Fixtures/citm_catalog.json,
// checked in so that it compiles with the tests (GeneratedCitmCatalogModelTests compares it with the
// output and maps the payload with it). Regenerate with:
// swift run modelkit generate --root CitmCatalog Tests/ModelKitTestSupport/Fixtures/citm_catalog.json
// and put this header back on top.

import Foundation
import ModelKit

/// The payload's top-level object.
@Model
struct CitmCatalog {
    var areaNames: [String: String]
    var audienceSubCategoryNames: [String: String]
    var blockNames: JSONValue
    var events: [String: Event]
    var performances: [Performance]
    var seatCategoryNames: [String: String]
    var subTopicNames: [String: String]
    var subjectNames: JSONValue
    var topicNames: [String: String]
    var topicSubTopics: [String: [Int]]
    var venueNames: VenueNames
}

/// The objects at 'events.*'.
@Model
struct Event {
    @Key("description") var descriptionValue: JSONValue?
    var id: Int
    var logo: String?
    var name: String
    var subTopicIds: [Int]
    var subjectCode: JSONValue?
    var subtitle: JSONValue?
    var topicIds: [Int]
}

/// The objects at 'performances[]'.
@Model
struct Performance {
    var eventId: Int
    var id: Int
    var logo: String?
    var name: JSONValue?
    var prices: [Price]
    var seatCategories: [SeatCategory]
    var seatMapImage: JSONValue?
    var start: Int64
    var venueCode: String
}

/// The objects at 'performances[].prices[]'.
@Model
struct Price {
    var amount: Int
    var audienceSubCategoryId: Int
    var seatCategoryId: Int
}

/// The objects at 'performances[].seatCategories[]'.
@Model
struct SeatCategory {
    var areas: [Area]
    var seatCategoryId: Int
}

/// The objects at 'performances[].seatCategories[].areas[]'.
@Model
struct Area {
    var areaId: Int
    var blockIds: [JSONValue]
}

/// The objects at 'venueNames'.
@Model
struct VenueNames {
    @Key("PLEYEL_PLEYEL") var pleyelPLEYEL: String
}
