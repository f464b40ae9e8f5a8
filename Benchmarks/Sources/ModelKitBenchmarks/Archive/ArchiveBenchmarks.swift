import Foundation
import ModelKit

/// The keyed-archive comparisons:
/// - `archive.roundtrip.graph`: archive and unarchive 20,000 `@Model` users that share teams and
///   refer back to each other, against swift-corelibs-foundation's NSKeyedArchiver and
///   NSKeyedUnarchiver on equivalent NSObject classes with NSSecureCoding;
/// - `archive.roundtrip.plain`: the same users as a flat list of `@Model` structs, against
///   PropertyListEncoder and PropertyListDecoder (binary) on synthesized-Codable structs.
/// - `archive.read.apple`: read every top-level object of the largest archive Apple's
///   NSKeyedArchiver wrote in the fixtures, generically, against NSKeyedUnarchiver.
///
/// The round trips print the output sizes after their line.
func archiveComparisons() throws -> [Comparison] {
    [try graphComparison(), try plainComparison(), try appleReadComparison()]
}

private func appleReadComparison() throws -> Comparison {
    let data = try resource("apple-arrays.xml")
    let reads = 100

    func modelKitRead() throws -> Int {
        let unarchiver = try KeyedUnarchiver(data: data)
        var count = 0
        // The archive's top-level objects were encoded without keys ($0, $1, ...): read in order.
        for _ in 0..<4 {
            let object = try unarchiver.decodeObject()
            if let array = object as? [Any] { count += array.count } else if object != nil { count += 1 }
        }
        return count
    }

    func foundationRead() throws -> Int {
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        var count = 0
        // The archive's top-level objects were encoded without keys ($0, $1, ...): read in order.
        for _ in 0..<4 {
            let object = unarchiver.decodeObject()
            if let array = object as? [Any] { count += array.count } else if object != nil { count += 1 }
        }
        if let error = unarchiver.error { throw error }
        return count
    }
    let (ours, theirs) = (try modelKitRead(), try foundationRead())
    guard ours == theirs, ours > 4 else {
        throw BenchmarkFailure("the two sides read different objects from the Apple-written archive: \(ours), \(theirs)")
    }

    return Comparison(
        name: "archive.read.apple", baselineName: "NSKeyedUnarchiver",
        unit: .operations(reads, label: "read"),
        modelKit: { for _ in 0..<reads { _ = try modelKitRead() } },
        baseline: { for _ in 0..<reads { _ = try foundationRead() } },
        notes: { "\(data.count) bytes (XML, written by macOS's NSKeyedArchiver): every top-level object, generically" })
}

let archiveUserCount = 20_000

private func graphComparison() throws -> Comparison {
    let seeds = UserSeed.make(count: archiveUserCount)
    let teams = (0..<100).map { GraphTeam(name: "Team \($0)", size: archiveUserCount / 100) }
    let users = seeds.enumerated().map { index, seed in GraphUser(seed, team: teams[index % teams.count]) }
    for (index, user) in users.enumerated() where index > 0 { user.referrer = users[index / 2] }
    let teamObjects = (0..<100).map { TeamObject(name: "Team \($0)", size: archiveUserCount / 100) }
    let userObjects = seeds.enumerated().map { index, seed in UserObject(seed, team: teamObjects[index % teamObjects.count]) }
    for (index, user) in userObjects.enumerated() where index > 0 { user.referrer = userObjects[index / 2] }

    func modelKitRoundTrip() throws -> Int {
        let data = try KeyedArchiver.archivedData(withRootObject: users)
        let decoded = try KeyedUnarchiver.unarchive([GraphUser].self, from: data)
        guard decoded.count == users.count, decoded[5].referrer === decoded[2], decoded[0].team === decoded[100].team else {
            throw BenchmarkFailure("modelkit decoded a different graph")
        }
        return data.count
    }

    func foundationRoundTrip() throws -> Int {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.setClassName("GraphUser", for: UserObject.self)
        archiver.setClassName("GraphTeam", for: TeamObject.self)
        archiver.encode(userObjects as NSArray, forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        let data = archiver.encodedData
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.setClass(UserObject.self, forClassName: "GraphUser")
        unarchiver.setClass(TeamObject.self, forClassName: "GraphTeam")
        let decoded = unarchiver.decodeObject(
            of: [NSArray.self, UserObject.self, TeamObject.self], forKey: NSKeyedArchiveRootObjectKey) as? [UserObject]
        guard let decoded, decoded.count == userObjects.count, decoded[5].referrer === decoded[2] else {
            throw BenchmarkFailure("NSKeyedUnarchiver decoded a different graph")
        }
        return data.count
    }

    return Comparison(
        name: "archive.roundtrip.graph", baselineName: "NSKeyedArchiver+NSKeyedUnarchiver",
        unit: .operations(archiveUserCount, label: "object"),
        modelKit: { _ = try modelKitRoundTrip() },
        baseline: { _ = try foundationRoundTrip() },
        notes: {
            "sizes: modelkit \(try modelKitRoundTrip()) bytes, NSKeyedArchiver \(try foundationRoundTrip()) bytes "
                + "(\(archiveUserCount) users, 100 shared teams, weak back references)"
        })
}

private func plainComparison() throws -> Comparison {
    let seeds = UserSeed.make(count: archiveUserCount)
    let users = seeds.map {
        PlainUser(
            id: $0.id, name: $0.name, screenName: $0.screenName, email: $0.email, bio: $0.bio, location: $0.location,
            followers: $0.followers, following: $0.following, verified: $0.verified, score: $0.score,
            createdAt: $0.createdAt, tags: $0.tags)
    }
    let codableUsers = seeds.map {
        PlainCodableUser(
            id: $0.id, name: $0.name, screenName: $0.screenName, email: $0.email, bio: $0.bio, location: $0.location,
            followers: $0.followers, following: $0.following, verified: $0.verified, score: $0.score,
            createdAt: $0.createdAt, tags: $0.tags)
    }

    func modelKitRoundTrip() throws -> Int {
        let data = try KeyedArchiver.archivedData(withRootObject: users)
        let decoded = try KeyedUnarchiver.unarchive([PlainUser].self, from: data)
        guard decoded.count == users.count, decoded[7] == users[7] else {
            throw BenchmarkFailure("modelkit decoded different users")
        }
        return data.count
    }

    func foundationRoundTrip() throws -> Int {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let data = try encoder.encode(codableUsers)
        let decoded = try PropertyListDecoder().decode([PlainCodableUser].self, from: data)
        guard decoded.count == codableUsers.count, decoded[7].email == codableUsers[7].email else {
            throw BenchmarkFailure("PropertyListDecoder decoded different users")
        }
        return data.count
    }

    return Comparison(
        name: "archive.roundtrip.plain", baselineName: "PropertyListEncoder+PropertyListDecoder",
        unit: .operations(archiveUserCount, label: "object"),
        modelKit: { _ = try modelKitRoundTrip() },
        baseline: { _ = try foundationRoundTrip() },
        notes: {
            "sizes: modelkit \(try modelKitRoundTrip()) bytes (keyed archive), "
                + "PropertyListEncoder \(try foundationRoundTrip()) bytes (binary, \(archiveUserCount) users)"
        })
}

/// A benchmark whose two sides did not do the same work.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
