import Foundation
import ModelKit
import Testing
import ModelKitTestSupport

/// Writing the same object graph as an Apple-written XML fixture gives the same bytes: object
/// numbering (objects before their contents, classes after), uniquing (class instances by
/// identity, numbers by value), Apple's keys and class chains, and the XML layout.
struct ArchiveXMLReproductionTests {
    func xml(_ build: (KeyedArchiver) throws -> Void) throws -> String {
        let archiver = KeyedArchiver(outputFormat: .xml)
        try build(archiver)
        return String(decoding: try archiver.finishEncoding(), as: UTF8.self)
    }

    func fixture(_ path: String) -> String {
        String(decoding: Fixtures.named(path).bytes, as: UTF8.self)
    }

    /// Three distinct string objects with the same text, as Apple writes them (no uniquing by value).
    func hello() -> NSString { NSString(string: "Hello, World!") }

    @Test func primitives() throws {
        let output = try xml { archiver in
            let values: [Any] = [1, 1, 1.0, 1.5, Data("asdfasdfadsfadsf".utf8), true, hello(), hello(), hello(), false, false, 42]
            for value in values { try archiver.encodeObject(value) }
        }
        expectEqual(output, fixture("go-ios/primitives.xml"))
    }

    @Test func arrays() throws {
        let output = try xml { archiver in
            let first: [Any] = [1, 1, 1.0, 1.5, Data("asdfasdfadsfadsf".utf8), true, hello(), hello(), hello(), false, false, 42]
            try archiver.encodeObject(first)
            try archiver.encodeObject(NSMutableArray(array: [NSNumber(value: true), hello(), NSNumber(value: 42)]))
            try archiver.encodeObject(NSSet(object: NSNumber(value: true)))
            try archiver.encodeObject(OrderedSetArchive(elements: [42, true, hello()]))
        }
        expectEqual(output, fixture("go-ios/arrays.xml"))
    }

    @Test func nestedArrays() throws {
        let output = try xml { archiver in
            try archiver.encodeObject([SetArchive(elements: [true]), OrderedSetArchive(elements: [42, true, hello()])] as [Any])
        }
        expectEqual(output, fixture("go-ios/nestedarrays.xml"))
    }

    @Test func dict() throws {
        let output = try xml { archiver in
            let array = NSMutableArray(array: [NSNumber(value: true), hello(), NSNumber(value: 42)])
            try archiver.encodeObject(OrderedDictionaryArchive(keys: ["int", "string", "array"], values: [1, "string", array]))
        }
        expectEqual(output, fixture("go-ios/dict.xml"))
    }

    @Test func oneValue() throws {
        try expectEqual(xml { try $0.encodeObject(true) }, fixture("go-ios/onevalue.xml"))
    }

    @Test func arrayTest() throws {
        let output = try xml { try $0.encode(["baa", "baa", "black", "sheep"], forKey: "root") }
        expectEqual(output, fixture("corelibs/NSKeyedUnarchiver-ArrayTest.plist"))
    }

    @Test func urlTest() throws {
        let url = try #require(URL(string: "foo.xml", relativeTo: URL(string: "https://www.example.com")))
        try expectEqual(xml { try $0.encode(url, forKey: "root") }, fixture("corelibs/NSKeyedUnarchiver-URLTest.plist"))
    }

    @Test func uuidTest() throws {
        let uuid = try #require(UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34"))
        try expectEqual(xml { try $0.encode(uuid, forKey: "root") }, fixture("corelibs/NSKeyedUnarchiver-UUIDTest.plist"))
    }

    @Test func orderedSetTest() throws {
        let set = NSOrderedSet(array: [NSString(string: "valgeir"), NSString(string: "nico"), NSString(string: "puzzle")])
        try expectEqual(xml { try $0.encodeObject(set, forKey: "root") }, fixture("corelibs/NSKeyedUnarchiver-OrderedSetTest.plist"))
    }

    @Test func notificationTest() throws {
        let notification = NotificationArchive(
            name: "notification-name", object: "notification-object", userInfo: ["notification-key": "notification-val"])
        #expect(
            try xml { try $0.encode(notification, forKey: "root") }
                == fixture("corelibs/NSKeyedUnarchiver-NotificationTest.plist"))
    }

    @Test func rangeTest() throws {
        let range = ValueArchive.range(location: 97345, length: 98345)
        try expectEqual(xml { try $0.encode(range, forKey: "root") }, fixture("corelibs/NSKeyedUnarchiver-RangeTest.plist"))
    }

    @Test func rectTest() throws {
        let rect = ValueArchive.rect("{{400, 300}, {200, 300}}")
        try expectEqual(xml { try $0.encode(rect, forKey: "root") }, fixture("corelibs/NSKeyedUnarchiver-RectTest.plist"))
    }

    @Test func edgeInsetsTest() throws {
        let insets = ValueArchive.edgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        try expectEqual(xml { try $0.encode(insets, forKey: "root") }, fixture("corelibs/NSKeyedUnarchiver-EdgeInsetsTest.plist"))
    }

    @Test func concreteValueTest() throws {
        let value = ValueArchive.int32Array([1, 2, 3])
        #expect(
            try xml { try $0.encode(value, forKey: "root") } == fixture("corelibs/NSKeyedUnarchiver-ConcreteValueTest.plist"))
    }

    /// The hand-written types read back what they write.
    @Test func handWrittenTypesRoundTrip() throws {
        let archiver = KeyedArchiver()
        try archiver.encode(ValueArchive.range(location: 1, length: 2), forKey: "range")
        try archiver.encode(ValueArchive.int32Array([7, 8]), forKey: "array")
        try archiver.encode(NotificationArchive(name: "n", object: "o", userInfo: ["k": "v"]), forKey: "note")
        let unarchiver = try KeyedUnarchiver(data: try archiver.finishEncoding())
        try expectEqual(unarchiver.decode(ValueArchive.self, forKey: "range"), .range(location: 1, length: 2))
        try expectEqual(unarchiver.decode(ValueArchive.self, forKey: "array"), .int32Array([7, 8]))
        let note = try #require(try unarchiver.decode(NotificationArchive.self, forKey: "note"))
        #expect(note.name == "n" && note.object == "o" && note.userInfo == ["k": "v"])
    }

    /// XML fixtures read and written again through the property-list layer give the same bytes.
    @Test(arguments: Fixtures.xml.filter { Fixtures.malformedArchives[$0.description] == nil })
    func rereadXMLFixtureGivesTheSameBytes(_ file: Fixtures.File) throws {
        let document = try KeyedArchiveDocument(data: Data(file.bytes))
        try expectEqual([UInt8](document.propertyList.xmlData()), file.bytes)
    }
}

// MARK: - Hand-written Foundation classes with an explicit element order

/// `NSMutableSet` with its elements in a given order (Swift sets have none).
struct OrderedSetArchive: KeyedArchivable {
    static let archiveClassName = "NSMutableSet"
    static let archiveSuperclassNames = ["NSSet", "NSObject"]
    var elements: [Any]

    init(elements: [Any]) {
        self.elements = elements
    }

    func encode(with encoder: inout KeyedArchiveObjectEncoder) throws {
        try encoder.encodeArrayOfObjects(elements, forKey: "NS.objects")
    }

    init(from decoder: inout KeyedArchiveObjectDecoder) throws {
        elements = try decoder.decodeArrayOfObjects(forKey: "NS.objects") ?? []
    }
}

/// `NSSet` with its elements in a given order.
struct SetArchive: KeyedArchivable {
    static let archiveClassName = "NSSet"
    var elements: [Any]

    init(elements: [Any]) {
        self.elements = elements
    }

    func encode(with encoder: inout KeyedArchiveObjectEncoder) throws {
        try encoder.encodeArrayOfObjects(elements, forKey: "NS.objects")
    }

    init(from decoder: inout KeyedArchiveObjectDecoder) throws {
        elements = try decoder.decodeArrayOfObjects(forKey: "NS.objects") ?? []
    }
}

/// `NSDictionary` with its keys in a given order.
struct OrderedDictionaryArchive: KeyedArchivable {
    static let archiveClassName = "NSDictionary"
    var keys: [Any]
    var values: [Any]

    init(keys: [Any], values: [Any]) {
        self.keys = keys
        self.values = values
    }

    func encode(with encoder: inout KeyedArchiveObjectEncoder) throws {
        try encoder.encodeArrayOfObjects(keys, forKey: "NS.keys")
        try encoder.encodeArrayOfObjects(values, forKey: "NS.objects")
    }

    init(from decoder: inout KeyedArchiveObjectDecoder) throws {
        keys = try decoder.decodeArrayOfObjects(forKey: "NS.keys") ?? []
        values = try decoder.decodeArrayOfObjects(forKey: "NS.objects") ?? []
    }
}

/// `NSNotification`: a name, an object and a user-info dictionary.
struct NotificationArchive: KeyedArchivable {
    static let archiveClassName = "NSNotification"
    var name: String
    var object: String?
    var userInfo: [String: String]

    init(name: String, object: String?, userInfo: [String: String]) {
        self.name = name
        self.object = object
        self.userInfo = userInfo
    }

    func encode(with encoder: inout KeyedArchiveObjectEncoder) throws {
        try encoder.encode(name, forKey: "NS.name")
        try encoder.encode(object, forKey: "NS.object")
        try encoder.encode(userInfo, forKey: "NS.userinfo")
    }

    init(from decoder: inout KeyedArchiveObjectDecoder) throws {
        name = try decoder.decode(String.self, forKey: "NS.name")
        object = try decoder.decode(String?.self, forKey: "NS.object")
        userInfo = try decoder.decode([String: String].self, forKey: "NS.userinfo")
    }
}

/// The `NSValue` kinds of the corelibs fixtures (`NS.special` says which).
enum ValueArchive: KeyedArchivable, Equatable {
    static let archiveClassName = "NSValue"

    case rect(String)
    case range(location: Int, length: Int)
    case edgeInsets(top: Double, left: Double, bottom: Double, right: Double)
    case int32Array([Int32])

    func encode(with encoder: inout KeyedArchiveObjectEncoder) throws {
        switch self {
        case .rect(let text):
            try encoder.encodeObject(text, forKey: "NS.rectval")
            try encoder.encode(3, forKey: "NS.special")
        case let .range(location, length):
            try encoder.encodeObject(length, forKey: "NS.rangeval.length")
            try encoder.encodeObject(location, forKey: "NS.rangeval.location")
            try encoder.encode(4, forKey: "NS.special")
        case let .edgeInsets(top, left, bottom, right):
            try encoder.encode(top, forKey: "NS.edgeval.top")
            try encoder.encode(left, forKey: "NS.edgeval.left")
            try encoder.encode(bottom, forKey: "NS.edgeval.bottom")
            try encoder.encode(right, forKey: "NS.edgeval.right")
            try encoder.encode(12, forKey: "NS.special")
        case .int32Array(let elements):
            try encoder.encodeObject("[\(elements.count)i]")
            try encoder.encodeObject(OldStyleArray(elements: elements))
        }
    }

    init(from decoder: inout KeyedArchiveObjectDecoder) throws {
        switch try decoder.decode(Int.self, forKey: "NS.special") {
        case 3: self = .rect(try decoder.decode(String.self, forKey: "NS.rectval"))
        case 4:
            self = .range(
                location: try decoder.decode(Int.self, forKey: "NS.rangeval.location"),
                length: try decoder.decode(Int.self, forKey: "NS.rangeval.length"))
        case 12:
            self = .edgeInsets(
                top: try decoder.decode(Double.self, forKey: "NS.edgeval.top"),
                left: try decoder.decode(Double.self, forKey: "NS.edgeval.left"),
                bottom: try decoder.decode(Double.self, forKey: "NS.edgeval.bottom"),
                right: try decoder.decode(Double.self, forKey: "NS.edgeval.right"))
        default:
            _ = try decoder.decode(String.self)
            let array = try decoder.decode(OldStyleArray.self)
            self = .int32Array(array?.elements ?? [])
        }
    }
}

/// `_NSKeyedCoderOldStyleArray`: a C array, its elements unkeyed.
struct OldStyleArray: KeyedArchivable {
    static let archiveClassName = "_NSKeyedCoderOldStyleArray"
    var elements: [Int32]

    init(elements: [Int32]) {
        self.elements = elements
    }

    func encode(with encoder: inout KeyedArchiveObjectEncoder) throws {
        for element in elements { try encoder.encode(element) }
        try encoder.encode(elements.count, forKey: "NS.count")
        try encoder.encode(4, forKey: "NS.size")
        try encoder.encode(105, forKey: "NS.type")
    }

    init(from decoder: inout KeyedArchiveObjectDecoder) throws {
        let count = try decoder.decode(Int.self, forKey: "NS.count")
        elements = try (0..<min(count, 1_000)).map { _ in try decoder.decode(Int32.self) }
    }
}
