import Foundation
import ModelKit

/// The tweets: `json.decode.twitter`, `json.encode.twitter`, `memory.decode.twitter`.
func twitterComparisons() throws -> [Comparison] {
    let twitter = try resource("twitter.json")
    let decoder = corpusJSONDecoder("twitter")
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .formatted(twitterDateFormatter())
    let timeline = try BenchTimeline(jsonData: twitter)
    guard timeline.statuses.count == 100, try decoder.decode(CodableTimeline.self, from: twitter).statuses.count == 100
    else { throw BenchmarkError("the two sides of the twitter comparisons do not map the same data") }
    return try corpusComparisons(
        "twitter", json: twitter, models: timeline, decode: { try BenchTimeline(jsonData: $0) },
        codable: CodableTimeline.self, decoder: decoder, encoder: encoder, note: "100 statuses, \(twitter.count) bytes")
}

/// The synthetic users: `json.*.users`, `memory.decode.users`.
func usersComparisons() throws -> [Comparison] {
    let users = syntheticUsersJSON()
    let decoder = corpusJSONDecoder("users")
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    let models = try [SyntheticUser](jsonData: users)
    guard models.count == 20_000, try decoder.decode([CodableSyntheticUser].self, from: users).count == 20_000
    else { throw BenchmarkError("the two sides of the users comparisons do not map the same data") }
    return try corpusComparisons(
        "users", json: users, models: models, decode: { try [SyntheticUser](jsonData: $0) },
        codable: [CodableSyntheticUser].self, decoder: decoder, encoder: encoder,
        note: "\(models.count) users, \(users.count) bytes")
}

/// The JSON-object path against hand-written `as?` mapping on the synthetic users
/// (`dictionary.decode.users`): a group of its own, as its JSONSerialization objects fill the
/// heap with a million small allocations that slowed the other users lines' mallocs.
func usersDictionaryComparisons() throws -> [Comparison] {
    let users = syntheticUsersJSON()
    let usersObject = try JSONSerialization.jsonObject(with: users)
    guard try [SyntheticUser](json: usersObject) == handMappedUsers(usersObject) else {
        throw BenchmarkError("the two sides of the dictionary comparison do not map the same users")
    }
    return [
        Comparison(
            name: "dictionary.decode.users", baselineName: "hand-written as?", unit: .bytes(users.count),
            modelKit: { _ = try [SyntheticUser](json: usersObject) },
            baseline: { _ = try handMappedUsers(usersObject) },
            notes: { "both sides map the same JSONSerialization objects, parsed once; dates with the same ISO 8601 parser" })
    ]
}

/// The generated catalogue: `json.*.catalogue`, `memory.decode.catalogue`.
func catalogueComparisons() throws -> [Comparison] {
    let catalogue = catalogueJSON()
    let model = try Catalogue(jsonData: catalogue)
    guard model.items.count == 10_000,
        try JSONDecoder().decode(CodableCatalogue.self, from: catalogue).itemsById.count == model.itemsById.count
    else { throw BenchmarkError("the two sides of the catalogue comparisons do not map the same data") }
    return try corpusComparisons(
        "catalogue", json: catalogue, models: model, decode: { try Catalogue(jsonData: $0) },
        codable: CodableCatalogue.self, decoder: JSONDecoder(), encoder: JSONEncoder(),
        note: "\(model.items.count) items, \(catalogue.count) bytes")
}

/// The generated nested document: `json.*.nested`, `memory.decode.nested`.
func nestedComparisons() throws -> [Comparison] {
    let nested = nestedJSON()
    let tree = try NestedNode(jsonData: nested)
    guard tree.shape.depth == 24, try JSONDecoder().decode(CodableNestedNode.self, from: nested).children.count == 2
    else { throw BenchmarkError("the two sides of the nested comparisons do not map the same data") }
    return try corpusComparisons(
        "nested", json: nested, models: tree, decode: { try NestedNode(jsonData: $0) },
        codable: CodableNestedNode.self, decoder: JSONDecoder(), encoder: JSONEncoder(),
        note: "\(tree.shape.nodes) nodes, \(tree.shape.depth) levels, \(nested.count) bytes")
}

/// `json.decode.NAME`, `json.encode.NAME` and `memory.decode.NAME`: one corpus into models and
/// back, against Foundation's coders on Codable structs of the same fields (encoding what they
/// decoded).
func corpusComparisons<M: ModelValue, C: Codable>(
    _ name: String, json: Data, models: M, decode: @escaping (Data) throws -> M, codable: C.Type,
    decoder: JSONDecoder, encoder: JSONEncoder, note: String
) throws -> [Comparison] {
    let values = try decoder.decode(C.self, from: json)
    let decoding = Comparison(
        name: "json.decode.\(name)", baselineName: "JSONDecoder", unit: .bytes(json.count),
        modelKit: { _ = try decode(json) },
        baseline: { _ = try decoder.decode(C.self, from: json) },
        notes: { note })
    let encoding = Comparison(
        name: "json.encode.\(name)", baselineName: "JSONEncoder", unit: .bytes(json.count),
        modelKit: { _ = try ModelJSON.encode(models) },
        baseline: { _ = try encoder.encode(values) },
        notes: { "output: modelkit \(try ModelJSON.encode(models).count) bytes, JSONEncoder \(try encoder.encode(values).count) bytes" })
    return [decoding, encoding, memoryComparison(name, json: json)]
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func twitterDateFormatter() -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "EEE MMM dd HH:mm:ss Z yyyy"
    return formatter
}

/// What people write by hand over `[String: Any]`: `as?` casts, key by key.
func handMappedUsers(_ object: Any) throws -> [SyntheticUser] {
    guard let array = object as? [Any] else { throw BenchmarkError("not an array") }
    let iso = ISO8601DateFormat.internetDateTime
    return try array.map { element in
        guard let user = element as? [String: Any], let id = user["id"] as? Int, let guid = user["guid"] as? String,
            let isActive = user["is_active"] as? Bool, let balance = user["balance"] as? Double,
            let age = user["age"] as? Int, let name = user["name"] as? String, let email = user["email"] as? String,
            let about = user["about"] as? String, let registeredText = user["registered"] as? String,
            let registered = iso.date(from: registeredText), let address = user["address"] as? [String: Any],
            let street = address["street"] as? String, let city = address["city"] as? String,
            let zipCode = address["zip_code"] as? String, let country = address["country"] as? String,
            let geo = address["geo"] as? [String: Any], let latitude = geo["lat"] as? Double,
            let longitude = geo["lng"] as? Double, let tags = user["tags"] as? [String],
            let friendObjects = user["friends"] as? [[String: Any]]
        else { throw BenchmarkError("a user does not map") }
        let friends = try friendObjects.map { friend -> SyntheticFriend in
            guard let id = friend["id"] as? Int, let name = friend["name"] as? String else {
                throw BenchmarkError("a friend does not map")
            }
            return SyntheticFriend(id: id, name: name)
        }
        return SyntheticUser(
            id: id, guid: guid, isActive: isActive, balance: balance, age: age, name: name,
            nickname: user["nickname"] as? String, email: email, about: about, registered: registered,
            lastSeen: (user["last_seen"] as? String).flatMap(iso.date(from:)),
            address: SyntheticAddress(
                street: street, city: city, zipCode: zipCode, country: country, latitude: latitude, longitude: longitude),
            tags: tags, friends: friends, score: user["score"] as? Double)
    }
}
