import Foundation
import ModelKit

@Model(keys: .snakeCase)
final class User {
    @Identifier @Key("id_str") var id: String
    var screenName: String
    var name: String?
    @Key("entities.url.urls") var urls: [URLEntity] = []
    @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) var createdAt: Date
    @Transient var avatarCache: Data? = nil
    weak var invitedBy: User?
}

@Model struct URLEntity {
    var url: URL
    @Key("expanded_url") var expanded: URL?
}

let payload: [String: Any] = [
    "id_str": "42",
    "screen_name": "ada",
    "name": NSNull(),
    "entities": ["url": ["urls": [["url": "https://t.co/x", "expanded_url": "https://example.com"]]]],
    "created_at": "Sun Aug 31 00:29:15 +0000 2014",
]

let user = try User(json: payload)
print(User.propertyKeys)
print(user.screenName, user.urls.first?.expanded?.absoluteString ?? "-", user.createdAt)
print(try user.jsonObject)
print(user.dictionaryValue.keys.sorted())
print(user)
