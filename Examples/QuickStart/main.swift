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
}

@Model struct URLEntity {
    var url: URL
    @Key("expanded_url") var expanded: URL?
}

let json = """
    {"id_str": "42", "screen_name": "ada", "name": null, "created_at": "Sun Aug 31 00:29:15 +0000 2014",
     "entities": {"url": {"urls": [{"url": "https://t.co/x", "expanded_url": "https://example.com"}]}}}
    """
let user = try User(json: JSONSerialization.jsonObject(with: Data(json.utf8)))
print(user.screenName, user.urls.first?.expanded?.host ?? "-")  // ada example.com
print(User.propertyKeys)                                 // ["id", "screenName", "name", "urls", "createdAt"]
print(try user.jsonObject())                             // back to remote keys and the Twitter date format
do {
    _ = try User(json: ["id_str": "7", "screen_name": "bob", "created_at": "yesterday"])
} catch {
    print(error)  // cannot map 'User.createdAt' at 'created_at': expected a date like "EEE MMM dd HH:mm:ss Z yyyy", found "yesterday"
}
