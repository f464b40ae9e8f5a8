// `modelkit generate --root OddKeys` output for GeneratedOddKeysModelTests.payload (awkward keys and
// values), checked in so that it compiles with the tests. Regenerate with the payload in a file:
// swift run modelkit generate --root OddKeys payload.json
// and put this header back on top.

import Foundation
import ModelKit

/// The payload's top-level object.
@Model(keys: .snakeCase)
struct OddKeys {
    @Key("Self") var selfValue: SelfObject
    var type: TypeObject
    @Key("class") var classText: String
    @Key("description") var descriptionText: String
    @Key("hash") var hashField: Int
    @Key("copy") var copyText: String
    @Key("index") var indexValue: Int
    @Key("mapping") var mappingText: String
    var value: Int
    @Key("dash-key") var dashKey: Bool
    @Key("a\\.b") var aB: String
    @Key("3d") var _3d: [Double]
    @Key("say \"hi\"") var sayHi: String
    @Key("URL") var url: String
    @Key("userName") var userName: String
    @Transform(.iso8601) var createdAt: Date
    @Transform(.secondsSince1970) var updatedAt: Date
    @Transform(.millisecondsSince1970) var seenTime: Date
    var mixed: [JSONValue?]
    var rows: [Row]
    var node: Node
    var byDay: [String: Int?]
    var blocks: [Block]
    // The key "" is left out: '@Key' cannot name an empty key.
}

/// The objects at 'Self'.
@Model
struct SelfObject {
    var a: Int
}

/// The objects at 'type'.
@Model
struct TypeObject {
    var b: Int
}

/// The objects at 'rows[]'.
@Model
struct Row {
    var id: Int
    var tag: String?
    var extra: Extra?
}

/// The objects at 'rows[].extra'.
@Model
struct Extra {
    var x: Int
}

/// The objects at 'node' and 'node.node'.
@Model
final class Node {
    var v: Int
    var node: Node?
}

/// The objects at 'blocks[]', told apart by their 'type'.
@Model(tag: "type")
enum Block: Hashable {
    @Key("class") case classValue(Class)
    @Key("issue.opened") case issueOpened(IssueOpened)
    @UnknownCase case other(JSONValue)
}

/// The objects at 'blocks[]' whose 'type' is 'class'.
@Model
struct Class {
    var body: String
    var style: Style?
}

/// The objects at 'blocks[].style'.
@Model
struct Style {
    var bold: Bool
}

/// The objects at 'blocks[]' whose 'type' is 'issue.opened'.
@Model
struct IssueOpened {
    var url: String
    var size: Int
}
