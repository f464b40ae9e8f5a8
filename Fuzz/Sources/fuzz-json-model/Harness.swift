import FuzzSupport
import Foundation
import ModelKit

// JSON bytes → a twitter-like @Model graph through the fast bytes path (`init(jsonData:)`).
// Any thrown error is fine. Whatever decodes must encode and decode again: a round trip that
// throws is a bug, reported to libFuzzer as a crash.

@Model(keys: .snakeCase)
final class Timeline {
    var statuses: [Status]
    @Key("search_metadata.count") var count: Int?
    @Key("search_metadata.next_results") var nextResults: String?
}

@Model(keys: .snakeCase)
final class Status {
    @Identifier @Key("id_str") var id: String
    @Key("id") var numericID: Int64
    var text: String
    @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) var createdAt: Date
    var user: User
    var retweetedStatus: Status?
    @Key("entities.hashtags") var hashtags: [Hashtag]
    @Key("entities.urls") var urls: [URLEntity]
    @Key("entities.user_mentions") var mentions: [Mention]
    @Key("entities.media.0.media_url_https") var firstMediaURL: URL?
    var inReplyToStatusIdStr: String?
    var retweetCount: Int
    var favoriteCount: Int = 0
    var favorited: Bool
    var source: String?
    @Key("metadata.iso_language_code") var languageCode: String?
    var coordinates: JSONValue?
}

@Model(keys: .snakeCase)
final class User {
    @Identifier @Key("id_str") var id: String
    var name: String
    var screenName: String
    @Key("description") var bio: String?
    @Key("entities.url.urls") var urls: [URLEntity] = []
    var followersCount: Int
    var verified: Bool
    @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) var createdAt: Date?
    @Transform(.url) var profileImageUrlHttps: URL?
    var utcOffset: Int?
}

@Model struct Hashtag: Sendable {
    var text: String
    var indices: [Int]
}

@Model(keys: .snakeCase)
struct URLEntity: Sendable {
    var url: String
    @Key("expanded_url") var expanded: URL?
    var displayUrl: String?
    var indices: [Int]
}

@Model(keys: .snakeCase)
struct Mention: Sendable {
    @Key("id_str") var id: String
    var screenName: String
    var indices: [Int]
}

func roundTrip<M: Model>(_ type: M.Type, _ data: Data, encode: (M) throws -> Data, decode: (Data) throws -> M) {
    guard let first = try? decode(data) else { return }
    let encoded: Data
    do {
        encoded = try encode(first)
    } catch {
        fatalError("\(M.self) decoded but did not encode: \(error)")
    }
    do {
        _ = try decode(encoded)
    } catch {
        fatalError("\(M.self) did not decode its own encoding: \(error)\n\(String(decoding: encoded, as: UTF8.self))")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    roundTrip(Timeline.self, data, encode: { try $0.jsonData() }, decode: { try Timeline(jsonData: $0) })
    roundTrip(Status.self, data, encode: { try $0.jsonData() }, decode: { try Status(jsonData: $0) })
    roundTrip(User.self, data, encode: { try $0.jsonData() }, decode: { try User(jsonData: $0) })
    return 0
}

// A debug build renames an executable's `main` to `fuzz_json_model_main` (SwiftPM's testable
// executables), which hides libFuzzer's own `main`: start libFuzzer's driver from here instead.
@_cdecl("fuzz_json_model_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzz)
}
