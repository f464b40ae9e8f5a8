import Foundation
import ModelKit

// The corpora of the serde_json lines (`json.serde.*`, SerdeComparisons.swift), one per shape a
// JSON library finds hard: doubles written with all their digits, 64-bit integers, objects keyed
// by numeric strings, and non-ASCII text with escapes. Each comes from the seeded generator, so
// every run maps the same bytes, and is written compact; its pretty-printed form is the same
// tokens with whitespace between them. The Rust anchor (Benchmarks/SerdeAnchor/src/main.rs)
// declares the same structs with the same fields and types: keep the two in step.

// MARK: floats: GeoJSON-like features

@Model struct GeoCollection {
    @Key("type") var kind: String
    var features: [GeoFeature]
}

@Model struct GeoFeature {
    @Key("type") var kind: String
    var id: Int64
    var properties: GeoProperties
    var bbox: [Double]
    var geometry: GeoPolygon
}

@Model struct GeoProperties {
    var name: String
    var area: Double
    var perimeter: Double
    var density: Double
    var scale: Double
}

/// A polygon: rings of [longitude, latitude] pairs, the first ring the outline, the others holes.
@Model struct GeoPolygon {
    @Key("type") var kind: String
    var coordinates: [[[Double]]]
}

/// `count` features (1.3 MB compact, 3.1 MB pretty for 400), every coordinate a double of 15-17 significant
/// digits, and properties with exponents (`1.2345678901234567e-07`, `6.02214076e+23`).
func geoFeaturesJSON(count: Int = 400) -> Data {
    var random = SeededGenerator(state: 31)
    // A double in [0, 1) with all 53 bits of mantissa random, so that it prints with ~17 digits.
    func unit() -> Double { Double(random.next() >> 11) / 9_007_199_254_740_992 }
    // A short mantissa with a large or small exponent, as constants are written (6.02214076e23).
    func constant() -> Double {
        let exponent = random.next() % 2 == 0 ? 16 + Int(random.next() % 10) : -5 - Int(random.next() % 20)
        return Double("\(1 + random.next() % 9).\(random.next() % 100_000_000)e\(exponent)")!
    }
    var features: [String] = []
    for id in 0..<count {
        let (longitude, latitude) = (unit() * 340 - 170, unit() * 160 - 80)
        var bounds = (longitude, latitude, longitude, latitude)
        // Points near the centre, without trigonometry (libm's last digits vary by platform).
        let rings = (0..<Int(1 + random.next() % 2)).map { ring in
            var points = (0..<Int(20 + random.next() % 60)).map { _ in
                let scale = ring == 0 ? 0.05 : 0.01
                let point = (longitude + (unit() - 0.5) * scale, latitude + (unit() - 0.5) * scale)
                bounds = (min(bounds.0, point.0), min(bounds.1, point.1), max(bounds.2, point.0), max(bounds.3, point.1))
                return "[\(point.0),\(point.1)]"
            }
            points.append(points[0])  // GeoJSON closes each ring on its first point
            return "[" + points.joined(separator: ",") + "]"
        }
        features.append(
            """
            {"type":"Feature","id":\(id),"properties":{"name":"parcel \(id)","area":\(unit() * 1e-7),\
            "perimeter":\(unit() * 10_000),"density":\(constant()),"scale":\(constant())},\
            "bbox":[\(bounds.0),\(bounds.1),\(bounds.2),\(bounds.3)],\
            "geometry":{"type":"Polygon","coordinates":[\(rings.joined(separator: ","))]}}
            """)
    }
    return Data((#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}").utf8)
}

// MARK: integers: a ledger of 64-bit ids

@Model(keys: .snakeCase)
struct Ledger {
    var accounts: [LedgerAccount]
}

@Model(keys: .snakeCase)
struct LedgerAccount {
    var id: Int64
    /// Up to `UInt64.max`, a third of them above `Int64.max`.
    var externalId: UInt64
    var ownerId: Int64
    var balance: Int64
    var counters: LedgerCounters
    var history: [Int64]
    var linkedIds: [UInt64]
}

/// Small integers, as counters and flags are.
@Model struct LedgerCounters {
    var opened: Int
    var closed: Int
    var failed: Int
    var retries: Int
    var depth: Int
    var weight: Int
}

/// `count` accounts (1.9 MB compact, 3.2 MB pretty for 4,000): ids of 9-19 digits, signed and unsigned.
func ledgerJSON(count: Int = 4_000) -> Data {
    var random = SeededGenerator(state: 37)
    // A positive Int64 of 9 to 19 digits, each length as likely.
    func id() -> Int64 {
        let digits = 9 + Int(random.next() % 11)
        let low = (0..<digits - 1).reduce(Int64(1)) { value, _ in value * 10 }
        return low + Int64(random.next() % UInt64(digits == 19 ? Int64.max - low : low * 9))
    }
    func signed() -> Int64 { random.next() % 3 == 0 ? -id() : id() }
    func unsigned() -> UInt64 { random.next() % 3 == 0 ? UInt64(Int64.max) + random.next() % (UInt64(Int64.max) + 1) : UInt64(id()) }
    var accounts: [String] = []
    for _ in 0..<count {
        let counters = ["opened", "closed", "failed", "retries", "depth", "weight"].map { "\"\($0)\":\(random.next() % 1000)" }
        let history = (0..<Int(10 + random.next() % 20)).map { _ in
            String(random.next() % 2 == 0 ? Int64(random.next() % 10_000) - 5_000 : signed())
        }
        let linked = (0..<Int(random.next() % 6)).map { _ in String(unsigned()) }
        accounts.append(
            """
            {"id":\(id()),"external_id":\(unsigned()),"owner_id":\(signed()),"balance":\(signed()),\
            "counters":{\(counters.joined(separator: ","))},"history":[\(history.joined(separator: ","))],\
            "linked_ids":[\(linked.joined(separator: ","))]}
            """)
    }
    return Data((#"{"accounts":["# + accounts.joined(separator: ",") + "]}").utf8)
}

// MARK: dictionaries: a ticket catalogue keyed by numeric ids

@Model(keys: .snakeCase)
struct TicketCatalogue {
    /// Area names by area id ("205705993": "Arrière-scène central").
    var areaNames: [String: String]
    var seatCategoryNames: [String: String]
    /// Events by event id.
    var events: [String: TicketEvent]
}

@Model(keys: .snakeCase)
struct TicketEvent {
    var id: Int64
    var name: String
    var venueCode: String
    var start: Int64
    var topicIds: [Int64]
    /// Price in cents by seat category id.
    var prices: [String: Int]
}

/// The catalogue (1.3 MB compact, 2.0 MB pretty for 5,000 events): three dictionaries keyed by 9-digit ids.
func ticketCatalogueJSON(events count: Int = 5_000) -> Data {
    var random = SeededGenerator(state: 41)
    let words = ["Arrière-scène", "balcon", "central", "cour", "jardin", "1er", "2ème", "Fauteuil", "d'orchestre",
                 "Loge", "Parterre", "Corbeille", "Amphithéâtre", "Strapontin", "côté", "élevé", "Pleyel", "Orchestre"]
    func name(_ length: Int) -> String { (0..<length).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ") }
    // Distinct ids: ascending from `base`, a random step apart.
    func ids(_ count: Int, from base: Int) -> [Int] {
        var id = base
        return (0..<count).map { _ in
            id += 1 + Int(random.next() % 40)
            return id
        }
    }
    let areas = ids(3_000, from: 205_705_993)
    let seatCategories = ids(1_500, from: 338_937_235)
    let areaNames = areas.map { "\"\($0)\":\"\(name(1 + Int(random.next() % 4)))\"" }
    let seatNames = seatCategories.map { "\"\($0)\":\"\(name(1 + Int(random.next() % 3)))\"" }
    let events = ids(count, from: 138_586_341).map { id in
        let topics = (0..<Int(1 + random.next() % 4)).map { _ in String(107_888_604 + random.next() % 1_000) }
        // Distinct keys: a repeated one would leave the two sides nothing to disagree on.
        var cents: [Int: UInt64] = [:]
        for _ in 0..<Int(1 + random.next() % 6) {
            cents[seatCategories[Int(random.next() % UInt64(seatCategories.count))]] = random.next() % 30_000
        }
        let prices = cents.keys.sorted().map { "\"\($0)\":\(cents[$0]!)" }
        return """
            "\(id)":{"id":\(id),"name":"\(name(2 + Int(random.next() % 5)))","venue_code":"PLEYEL_PLEYEL",\
            "start":\(1_372_701_600_000 + random.next() % 100_000_000_000),"topic_ids":[\(topics.joined(separator: ","))],\
            "prices":{\(prices.joined(separator: ","))}}
            """
    }
    return Data(
        """
        {"area_names":{\(areaNames.joined(separator: ","))},"seat_category_names":{\(seatNames.joined(separator: ","))},\
        "events":{\(events.joined(separator: ","))}}
        """.utf8)
}

// MARK: strings: non-ASCII text of every length

@Model struct TextCorpus {
    var messages: [TextMessage]
}

@Model struct TextMessage {
    var id: Int
    var author: String
    var title: String
    /// Empty in one message out of five.
    var summary: String
    /// Up to ~4 KB, with line breaks.
    var body: String
    var tags: [String]
}

/// `count` messages (2.4 MB compact, 2.5 MB pretty for 700): accented Latin, Greek, Cyrillic, CJK and emoji
/// (flags and joined sequences too), written raw or as escapes (`\u00e9`, `\ud83d\ude80`, `\n`, `\"`).
func textCorpusJSON(count: Int = 700) -> Data {
    var random = SeededGenerator(state: 43)
    // JSON source text of each word, escapes as written in the document.
    let words = [
        "the", "model", "schema", "decoder", "quick", "brown", "fox", "café", "naïve", "crème", "brûlée", "Ærøskøbing",
        "Łódź", "São", "Straße", "Ångström", "façade", "jalapeño", "Ελληνικά", "αβγ", "Москва", "привет", "東京", "日本語",
        "中文字符", "한국어", "漢字かな交じり文", "😀", "👩‍💻", "🇫🇷", "🎉", "❤️", #"caf\u00e9"#, #"\"quoted\""#,
        #"back\\slash"#, #"\ud83d\ude80"#, #"\u4e2d\u6587"#, #"a\/b"#, #"\u00c5ngstr\u00f6m"#, #"ctrl\u001f"#,
    ]
    let separators = [" ", " ", " ", " ", " ", ", ", #"\n"#, #"\t"#, ". "]
    func text(_ length: Int) -> String {
        (0..<length).map { index in
            (index == 0 ? "" : separators[Int(random.next() % UInt64(separators.count))])
                + words[Int(random.next() % UInt64(words.count))]
        }.joined()
    }
    let messages = (0..<count).map { id in
        let tags = (0..<Int(random.next() % 6)).map { _ in "\"\(text(1))\"" }
        return """
            {"id":\(id),"author":"\(text(1 + Int(random.next() % 3)))","title":"\(text(3 + Int(random.next() % 10)))",\
            "summary":"\(random.next() % 5 == 0 ? "" : text(1 + Int(random.next() % 40)))",\
            "body":"\(text(Int(random.next() % 600)))","tags":[\(tags.joined(separator: ","))]}
            """
    }
    return Data((#"{"messages":["# + messages.joined(separator: ",") + "]}").utf8)
}

// MARK: citm: the public citm_catalog.json

// The models `modelkit generate --root CitmCatalog` wrote for Tests/ModelKitTestSupport/Fixtures/
// citm_catalog.json (Tests/ModelKitToolTests/Generated/CitmCatalog.swift, where the tests' copy
// stays), renamed with a Citm prefix beside the benchmarks' own types.

@Model
struct CitmCatalog {
    var areaNames: [String: String]
    var audienceSubCategoryNames: [String: String]
    var blockNames: JSONValue
    var events: [String: CitmEvent]
    var performances: [CitmPerformance]
    var seatCategoryNames: [String: String]
    var subTopicNames: [String: String]
    var subjectNames: JSONValue
    var topicNames: [String: String]
    var topicSubTopics: [String: [Int]]
    var venueNames: CitmVenueNames
}

@Model
struct CitmEvent {
    @Key("description") var descriptionValue: JSONValue?
    var id: Int
    var logo: String?
    var name: String
    var subTopicIds: [Int]
    var subjectCode: JSONValue?
    var subtitle: JSONValue?
    var topicIds: [Int]
}

@Model
struct CitmPerformance {
    var eventId: Int
    var id: Int
    var logo: String?
    var name: JSONValue?
    var prices: [CitmPrice]
    var seatCategories: [CitmSeatCategory]
    var seatMapImage: JSONValue?
    var start: Int64
    var venueCode: String
}

@Model
struct CitmPrice {
    var amount: Int
    var audienceSubCategoryId: Int
    var seatCategoryId: Int
}

@Model
struct CitmSeatCategory {
    var areas: [CitmArea]
    var seatCategoryId: Int
}

@Model
struct CitmArea {
    var areaId: Int
    var blockIds: [JSONValue]
}

@Model
struct CitmVenueNames {
    @Key("PLEYEL_PLEYEL") var pleyelPLEYEL: String
}

// MARK: Layout

/// The same JSON tokens as `json`, laid out one value per line with two spaces per level (as
/// JSONSerialization and most tools write pretty JSON); strings and numbers are left as written.
func prettyPrintedJSON(_ json: Data) -> Data {
    let bytes = [UInt8](compactJSON(json))
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count * 3)
    var depth = 0
    var inString = false
    var escaped = false
    func newline() {
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
    }
    for (index, byte) in bytes.enumerated() {
        if inString {
            output.append(byte)
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            continue
        }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            output.append(byte)
            // An empty container stays on its line: `[]`, `{}`.
            if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "}") || bytes[index + 1] == UInt8(ascii: "]") { continue }
            depth += 1
            newline()
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            if bytes[index - 1] != UInt8(ascii: "{") && bytes[index - 1] != UInt8(ascii: "[") {
                depth -= 1
                newline()
            }
            output.append(byte)
        case UInt8(ascii: ","):
            output.append(byte)
            newline()
        case UInt8(ascii: ":"):
            output.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
        default:
            inString = byte == UInt8(ascii: "\"")
            output.append(byte)
        }
    }
    return Data(output)
}

/// `json` without the whitespace between its tokens.
func compactJSON(_ json: Data) -> Data {
    var output: [UInt8] = []
    output.reserveCapacity(json.count)
    var inString = false
    var escaped = false
    for byte in json {
        if inString {
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
        } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
            continue
        } else {
            inString = byte == UInt8(ascii: "\"")
        }
        output.append(byte)
    }
    return Data(output)
}
