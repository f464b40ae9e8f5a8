import Foundation
import ModelKit
import Testing
import ModelKitTestSupport

/// Interop: every archive Apple's `NSKeyedArchiver` wrote (the fixtures) reads into Swift values,
/// typed where the class is known and generic where it is not, with the contents the fixtures'
/// README describes.
struct ArchiveFixtureTests {
    static let goodFixtures = Fixtures.goodArchives

    func unarchiver(_ path: String, registry: ArchiveClassRegistry = ArchiveClassRegistry()) throws -> KeyedUnarchiver {
        try KeyedUnarchiver(data: Data(Fixtures.named(path).bytes), registry: registry)
    }

    @Test(arguments: goodFixtures)
    func everyGoodFixtureDecodesGenerically(_ file: Fixtures.File) throws {
        let unarchiver = try KeyedUnarchiver(data: Data(file.bytes))
        #expect(!unarchiver.allKeys.isEmpty)
        for key in unarchiver.allKeys {
            _ = try unarchiver.decodeObject(forKey: key)
        }
    }

    /// What `modelkit archive dump` and `convert` print and write for every fixture, in process:
    /// the tool's tests run the binary on a sample of the fixtures.
    @Test(arguments: goodFixtures)
    func everyGoodFixtureDumpsAndConvertsToBothFormats(_ file: Fixtures.File) throws {
        let document = try KeyedArchiveDocument(data: Data(file.bytes))
        try file.expectDumps(text: Data(ArchiveDump.text(document).utf8), json: Data(ArchiveDump.json(document).utf8))
        let binary = document.propertyList.binaryData()
        try file.expectConversions(binary: binary, xml: KeyedArchiveDocument(data: binary).propertyList.xmlData())
    }

    // MARK: corelibs

    @Test func arrayTestIsAnArrayOfStrings() throws {
        let unarchiver = try unarchiver("corelibs/NSKeyedUnarchiver-ArrayTest.plist")
        try expectEqual(unarchiver.decode([String].self, forKey: "root"), ["baa", "baa", "black", "sheep"])
        #expect(try unarchiver.decodeObject(forKey: "root") as? [String] == ["baa", "baa", "black", "sheep"])
    }

    @Test func complexTestIsADictionaryOfFoundationValues() throws {
        let root = try #require(try unarchiver("corelibs/NSKeyedUnarchiver-ComplexTest.plist").decodeObject(forKey: "root") as? [String: Any])
        expectEqual(root.keys.sorted(), ["array", "string", "url", "uuid"])
        #expect(root["uuid"] as? UUID == UUID(uuidString: "71DC068E-3420-45FF-919E-3A267D55EC22"))
        let url = try #require(root["url"] as? URL)
        expectEqual(url.relativeString, "index.xml")
        #expect(url.baseURL?.absoluteString == "https://www.swift.org")
        expectEqual(url.absoluteString, "https://www.swift.org/index.xml")
        #expect(root["string"] as? String == "hello")
        let array = try #require(root["array"] as? [Any])
        expectEqual(array.count, 4)
        #expect(array[0] is NSNull)
        #expect(array[1] as? String == "hello")
        #expect(array[2] as? Int == 34545)
        #expect(array[3] as? [String: String] == ["key": "val"])
    }

    @Test func urlTestIsARelativeURL() throws {
        let url = try unarchiver("corelibs/NSKeyedUnarchiver-URLTest.plist").decode(URL.self, forKey: "root")
        expectEqual(url.relativeString, "foo.xml")
        #expect(url.baseURL?.absoluteString == "https://www.example.com")
        expectEqual(url.absoluteString, "https://www.example.com/foo.xml")
    }

    @Test func uuidTestIsAUUID() throws {
        let uuid = try unarchiver("corelibs/NSKeyedUnarchiver-UUIDTest.plist").decode(UUID.self, forKey: "root")
        expectEqual(uuid, UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34"))
    }

    @Test func orderedSetTestReadsAsAnArray() throws {
        let unarchiver = try unarchiver("corelibs/NSKeyedUnarchiver-OrderedSetTest.plist")
        try expectEqual(unarchiver.decode([String].self, forKey: "root"), ["valgeir", "nico", "puzzle"])
        #expect(try unarchiver.decodeObject(forKey: "root") as? [String] == ["valgeir", "nico", "puzzle"])
    }

    @Test func rangeTestIsAGenericValueObject() throws {
        let value = try #require(try unarchiver("corelibs/NSKeyedUnarchiver-RangeTest.plist").decodeObject(forKey: "root") as? ArchivedObject)
        expectEqual(value.className, "NSValue")
        expectEqual(value.classChain, ["NSValue", "NSObject"])
        #expect(value["NS.rangeval.location"] as? Int == 97345)
        #expect(value["NS.rangeval.length"] as? Int == 98345)
        #expect(value["NS.special"] as? Int == 4)
    }

    @Test func rectTestHoldsTheRectString() throws {
        let value = try #require(try unarchiver("corelibs/NSKeyedUnarchiver-RectTest.plist").decodeObject(forKey: "root") as? ArchivedObject)
        #expect(value["NS.rectval"] as? String == "{{400, 300}, {200, 300}}")
        #expect(value["NS.special"] as? Int == 3)
    }

    @Test func edgeInsetsTestHoldsFourReals() throws {
        let value = try #require(try unarchiver("corelibs/NSKeyedUnarchiver-EdgeInsetsTest.plist").decodeObject(forKey: "root") as? ArchivedObject)
        let insets = ["top", "left", "bottom", "right"].map { value["NS.edgeval.\($0)"] as? Double }
        expectEqual(insets, [1, 2, 3, 4])
        #expect(value["NS.special"] as? Int == 12)
    }

    @Test func concreteValueTestIsAnOldStyleArrayOfThreeInts() throws {
        let value = try #require(try unarchiver("corelibs/NSKeyedUnarchiver-ConcreteValueTest.plist").decodeObject(forKey: "root") as? ArchivedObject)
        expectEqual(value.keys, ["$0", "$1"])
        #expect(value["$0"] as? String == "[3i]")
        let array = try #require(value["$1"] as? ArchivedObject)
        expectEqual(array.className, "_NSKeyedCoderOldStyleArray")
        expectEqual([array["$0"], array["$1"], array["$2"]].map { $0 as? Int }, [1, 2, 3])
        #expect(array["NS.count"] as? Int == 3)
        #expect(array["NS.size"] as? Int == 4)
        #expect(array["NS.type"] as? Int == 105)
    }

    @Test func notificationTestHasNameObjectAndUserInfo() throws {
        let value = try #require(try unarchiver("corelibs/NSKeyedUnarchiver-NotificationTest.plist").decodeObject(forKey: "root") as? ArchivedObject)
        expectEqual(value.className, "NSNotification")
        #expect(value["NS.name"] as? String == "notification-name")
        #expect(value["NS.object"] as? String == "notification-object")
        #expect(value["NS.userinfo"] as? [String: String] == ["notification-key": "notification-val"])
    }

    // MARK: go-ios

    static var primitives: [Any] { [1, 1, 1.0, 1.5, Data("asdfasdfadsfadsf".utf8), true, "Hello, World!", "Hello, World!", "Hello, World!", false, false, 42] }

    @Test(arguments: ["go-ios/primitives.xml", "go-ios/primitives.bin"])
    func primitivesAreTwelveUnkeyedRootValues(_ path: String) throws {
        let generic = try unarchiver(path)
        expectEqual(generic.allKeys.count, 12)
        var values: [Any] = []
        for _ in 0..<12 { values.append(try #require(try generic.decodeObject())) }
        expectEqual(describe(values), describe(Self.primitives))
        let typed = try unarchiver(path)
        try expectEqual(typed.decode(Int.self), 1)
        try expectEqual(typed.decode(Int8.self), 1)
        try expectEqual(typed.decode(Double.self), 1)
        try expectEqual(typed.decode(Float.self), 1.5)
        try expectEqual(typed.decode(Data.self), Data("asdfasdfadsfadsf".utf8))
        try expectEqual(typed.decode(Bool.self), true)
        try expectEqual(typed.decode(String.self), "Hello, World!")
    }

    @Test(arguments: ["go-ios/arrays.xml", "go-ios/arrays.bin"])
    func arraysHoldArraysAndSets(_ path: String) throws {
        let unarchiver = try unarchiver(path)
        let first = try #require(try unarchiver.decodeObject() as? [Any])
        expectEqual(describe(first), describe(Self.primitives))
        let second = try #require(try unarchiver.decodeObject() as? [Any])
        expectEqual(describe(second), describe([true, "Hello, World!", 42]))
        #expect(try unarchiver.decodeObject() as? Set<AnyHashable> == [true])
        #expect(try unarchiver.decodeObject() as? Set<AnyHashable> == [42, true, "Hello, World!"])
    }

    @Test(arguments: ["go-ios/nestedarrays.xml", "go-ios/nestedarrays.bin"])
    func nestedArraysHoldTwoSets(_ path: String) throws {
        let root = try #require(try unarchiver(path).decodeObject() as? [Any])
        expectEqual(root.count, 2)
        #expect(root[0] as? Set<AnyHashable> == [true])
        #expect(root[1] as? Set<AnyHashable> == [42, true, "Hello, World!"])
        let typed = try unarchiver(path).decode([Set<JSONValue>].self)
        expectEqual(typed, [[.bool(true)], [.int(42), .bool(true), .string("Hello, World!")]])
    }

    @Test(arguments: ["go-ios/dict.xml", "go-ios/dict.bin"])
    func dictHoldsThreeKeys(_ path: String) throws {
        let root = try #require(try unarchiver(path).decodeObject() as? [String: Any])
        expectEqual(root.keys.sorted(), ["array", "int", "string"])
        #expect(root["int"] as? Int == 1)
        #expect(root["string"] as? String == "string")
        expectEqual(describe(root["array"] as? [Any] ?? []), describe([true, "Hello, World!", 42]))
        let typed = try unarchiver(path).decode([String: JSONValue].self)
        expectEqual(typed["array"], .array([.bool(true), .string("Hello, World!"), .int(42)]))
    }

    @Test(arguments: ["go-ios/onevalue.xml", "go-ios/onevalue.bin"])
    func oneValueIsTrue(_ path: String) throws {
        try expectEqual(unarchiver(path).decode(Bool.self), true)
    }

    @Test(arguments: ["primitives", "arrays", "nestedarrays", "dict", "onevalue"])
    func binaryAndXMLHoldTheSameGraph(_ name: String) throws {
        let xml = try KeyedArchiveDocument(data: Data(Fixtures.named("go-ios/\(name).xml").bytes))
        let binary = try KeyedArchiveDocument(data: Data(Fixtures.named("go-ios/\(name).bin").bytes))
        expectEqual(xml.propertyList, binary.propertyList)
    }

    // MARK: bpylist2

    func fooUnarchiver(_ name: String) throws -> KeyedUnarchiver {
        var registry = ArchiveClassRegistry()
        registry.register(Foo.self, as: "crap.Foo")
        return try unarchiver("bpylist2/\(name)", registry: registry)
    }

    @Test func simpleArchiveIsATypedFoo() throws {
        let foo = try fooUnarchiver("simple_archive.plist").decode(Foo.self, forKey: "root")
        expectEqual(foo.title, "yo")
        expectEqual(foo.count, 42)
        #expect(foo.active)
        let generic = try #require(try unarchiver("bpylist2/simple_archive.plist").decodeObject(forKey: "root") as? ArchivedObject)
        expectEqual(generic.className, "crap.Foo")
        expectEqual(generic.classChain, ["crap.Foo", "NSCoder", "NSObject"])
        #expect(generic["title"] as? String == "yo")
        #expect(generic["count"] as? Int == 42)
        #expect(generic["active"] as? Bool == true)
    }

    @Test func dateArchiveHoldsAnNSDate() throws {
        let foo = try fooUnarchiver("date_archive.plist").decode(Foo.self, forKey: "root")
        expectEqual(foo.title, "hello")
        expectEqual(foo.stamp, Date(timeIntervalSinceReferenceDate: 509_523_358.684097))
    }

    @Test func dataArchiveHoldsEmptyData() throws {
        let unarchiver = try unarchiver("bpylist2/data_archive.plist")
        unarchiver.setClass(FooWithData.self, forClassName: "crap.Foo")
        let foo = try unarchiver.decode(FooWithData.self, forKey: "root")
        expectEqual(foo.title, "yo")
        expectEqual(foo.stamp, Data())
    }

    @Test func nullArchiveHoldsANullReference() throws {
        let foo = try fooUnarchiver("null_archive.plist").decode(Foo.self, forKey: "root")
        expectEqual(foo.title, "yo")
        #expect(foo.empty == nil)
        let generic = try #require(try unarchiver("bpylist2/null_archive.plist").decodeObject(forKey: "root") as? ArchivedObject)
        #expect(generic.keys.contains("empty"))
        #expect(generic["empty"] == nil)
    }

    @Test func emptyArchiveTakesDefaults() throws {
        let foo = try fooUnarchiver("empty_archive.plist").decode(Foo.self, forKey: "root")
        #expect(foo.title == nil)
        expectEqual(foo.count, 0)
        #expect(!foo.active)
    }

    @Test func recursiveArchiveHoldsAFooInAFoo() throws {
        let foo = try fooUnarchiver("recursive_archive.plist").decode(Foo.self, forKey: "root")
        expectEqual(foo.title, "hello")
        #expect(foo.recursive?.title == "yo")
        #expect(foo.recursive?.recursive == nil)
        let generic = try #require(try unarchiver("bpylist2/recursive_archive.plist").decodeObject(forKey: "root") as? ArchivedObject)
        #expect((generic["recursive"] as? ArchivedObject)?["title"] as? String == "yo")
    }
}

/// bpylist2's `crap.Foo`.
@Model
final class Foo {
    var title: String?
    var count: Int = 0
    var active: Bool = false
    var stamp: Date?
    var empty: String?
    var recursive: Foo?
}

/// bpylist2's `crap.Foo` in `data_archive`, whose `stamp` is data.
@Model
final class FooWithData {
    var title: String?
    var stamp: Data?
}

/// A stable picture of generic values, to compare them: types and values.
func describe(_ values: [Any]) -> String {
    values.map { value -> String in
        switch value {
        case let flag as Bool where type(of: value) == Bool.self: return "bool(\(flag))"
        case let integer as Int where type(of: value) == Int.self: return "int(\(integer))"
        case let real as Double where type(of: value) == Double.self: return "real(\(real))"
        case let string as String: return "string(\(string))"
        case let data as Data: return "data(\(data.base64EncodedString()))"
        default: return "\(type(of: value))(\(value))"
        }
    }.joined(separator: ", ")
}
