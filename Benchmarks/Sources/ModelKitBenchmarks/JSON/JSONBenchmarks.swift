import Foundation
import ModelKit

/// The JSON comparisons: bytes to models and back against Foundation's coders, and the
/// JSON-object path against hand-written `as?` mapping.
func jsonComparisons() throws -> [Comparison] {
    let twitter = try resource("twitter.json")
    let users = syntheticUsersJSON()
    let twitterDecoder = JSONDecoder()
    twitterDecoder.dateDecodingStrategy = .formatted(twitterDateFormatter())
    let twitterEncoder = JSONEncoder()
    twitterEncoder.dateEncodingStrategy = .formatted(twitterDateFormatter())
    let usersDecoder = JSONDecoder()
    usersDecoder.dateDecodingStrategy = .iso8601
    let usersEncoder = JSONEncoder()
    usersEncoder.dateEncodingStrategy = .iso8601

    let timeline = try BenchTimeline(jsonData: twitter)
    let codableTimeline = try twitterDecoder.decode(CodableTimeline.self, from: twitter)
    let models = try [SyntheticUser](jsonData: users)
    let codableUsers = try usersDecoder.decode([CodableSyntheticUser].self, from: users)
    let usersObject = try JSONSerialization.jsonObject(with: users)
    guard models.count == 20_000, codableUsers.count == 20_000, timeline.statuses.count == 100,
        codableTimeline.statuses.count == 100, try [SyntheticUser](json: usersObject) == handMappedUsers(usersObject)
    else { throw BenchmarkError("the two sides of a comparison do not map the same data") }

    return [
        Comparison(
            name: "json.decode.twitter", baselineName: "JSONDecoder", unit: .bytes(twitter.count),
            modelKit: { _ = try BenchTimeline(jsonData: twitter) },
            baseline: { _ = try twitterDecoder.decode(CodableTimeline.self, from: twitter) }),
        Comparison(
            name: "json.decode.users", baselineName: "JSONDecoder", unit: .bytes(users.count),
            modelKit: { _ = try [SyntheticUser](jsonData: users) },
            baseline: { _ = try usersDecoder.decode([CodableSyntheticUser].self, from: users) },
            notes: { "\(models.count) users, \(users.count) bytes" }),
        Comparison(
            name: "json.encode.twitter", baselineName: "JSONEncoder", unit: .bytes(twitter.count),
            modelKit: { _ = try timeline.jsonData() },
            baseline: { _ = try twitterEncoder.encode(codableTimeline) },
            notes: { "output: modelkit \(try timeline.jsonData().count) bytes, JSONEncoder \(try twitterEncoder.encode(codableTimeline).count) bytes" }),
        Comparison(
            name: "json.encode.users", baselineName: "JSONEncoder", unit: .bytes(users.count),
            modelKit: { _ = try models.jsonData() },
            baseline: { _ = try usersEncoder.encode(codableUsers) },
            notes: { "output: modelkit \(try models.jsonData().count) bytes, JSONEncoder \(try usersEncoder.encode(codableUsers).count) bytes" }),
        Comparison(
            name: "dictionary.decode.users", baselineName: "hand-written as?", unit: .bytes(users.count),
            modelKit: { _ = try [SyntheticUser](json: usersObject) },
            baseline: { _ = try handMappedUsers(usersObject) },
            notes: { "both sides map the same JSONSerialization objects, parsed once; dates with the same ISO 8601 parser" }),
    ]
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
