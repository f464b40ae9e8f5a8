import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// Values: Swift values map to the Foundation classes Apple uses, user keys starting with `$`
/// are escaped, missing keys take defaults, and numbers follow Apple's coercion rules.
struct ArchiveValueTests {
    static let sample = Values(
        text: "héllo $ <&>", flag: true, int: -42, int8: -8, int16: 1_600, int32: -32_000, uint8: 200,
        uint64: UInt64.max, double: 0.1, float: 2.25, decimal: Decimal(string: "12345.678")!,
        date: Date(timeIntervalSinceReferenceDate: 509_523_358.684097), data: Data([0, 1, 2, 255]),
        uuid: UUID(uuidString: "71DC068E-3420-45FF-919E-3A267D55EC22"), url: URL(string: "https://example.com/a?b=c"),
        list: ["a", "b", "a"], numbers: [1, 2, 3], set: [3, 5, 8], map: ["one": 1, "two": 2], nested: [["x"], [], ["y", "z"]],
        optional: nil, address: Address(street: "Main", city: "Zurich", zip: 8000),
        json: .object([JSONMember("k", .array([.int(1), .null, .string("s"), .bool(false), .double(1.5)]))]))

    func archive(_ build: (KeyedArchiver) throws -> Void) throws -> KeyedUnarchiver {
        let archiver = KeyedArchiver()
        try build(archiver)
        return try KeyedUnarchiver(data: try archiver.finishEncoding())
    }

    @Test(arguments: [PropertyListFormat.binary, .xml])
    func everySwiftValueRoundTrips(_ format: PropertyListFormat) throws {
        let data = try KeyedArchiver.archivedData(withRootObject: Self.sample, format: format)
        let decoded = try KeyedUnarchiver.unarchive(Values.self, from: data)
        expectEqual(decoded, Self.sample)
    }

    @Test func swiftValuesBecomeAppleFoundationObjects() throws {
        let unarchiver = try archive { try $0.encode(Self.sample, forKey: "root") }
        let document = unarchiver.document
        guard case .object(let archivedClass, let keys) = document.entry(1) else {
            Issue.record("the root is not an object")
            return
        }
        expectEqual(archivedClass, ArchivedClass(name: "Values", chain: ["Values", "NSObject"]))
        // Numbers and booleans are inline, as NSCoder's encodeInt:forKey: writes them.
        expectEqual(keys["int"], .integer(-42))
        expectEqual(keys["flag"], .bool(true))
        expectEqual(keys["double"], .real(0.1))
        expectEqual(keys["MK.modelVersion"], .integer(0))
        func entry(_ key: String) -> (ArchivedClass?, PropertyListDictionary?, PropertyListValue?) {
            guard case .uid(let uid)? = keys[key] else { return (nil, nil, nil) }
            switch document.entry(Int(uid)) {
            case .object(let archivedClass, let keys): return (archivedClass, keys, nil)
            case .value(let value): return (nil, nil, value)
            default: return (nil, nil, nil)
            }
        }
        expectEqual(entry("text").2, .string("héllo $ <&>"))
        expectEqual(entry("data").2, .data(Data([0, 1, 2, 255])))
        expectEqual(entry("date").0, .nsDate)
        #expect(entry("date").1?["NS.time"] == .real(509_523_358.684097))
        expectEqual(entry("uuid").0, .nsUUID)
        #expect(entry("uuid").1?["NS.uuidbytes"]?.dataValue?.count == 16)
        expectEqual(entry("url").0, .nsURL)
        #expect(entry("url").1?["NS.base"] == .uid(0))
        expectEqual(entry("list").0, .nsArray)
        #expect(entry("list").1?["NS.objects"]?.arrayValue?.count == 3)
        expectEqual(entry("set").0, .nsSet)
        expectEqual(entry("map").0, .nsDictionary)
        #expect(entry("map").1?["NS.keys"]?.arrayValue?.count == 2)
        expectEqual(entry("decimal").0, .nsDecimalNumber)
        #expect(entry("address").0?.name == "Address")
        expectEqual(keys["optional"], .uid(0))
        // Equal strings are written once: "a" appears twice in `list`.
        let list = try #require(entry("list").1?["NS.objects"]?.arrayValue)
        expectEqual(list[0], list[2])
    }

    @Test func numbersInsideCollectionsAreNSNumberObjects() throws {
        let unarchiver = try archive { try $0.encode([1, 1, 2], forKey: "root") }
        guard case .object(_, let keys) = unarchiver.document.entry(1), case .array(let elements)? = keys["NS.objects"] else {
            Issue.record("the root is not an array")
            return
        }
        expectEqual(elements.count, 3)
        expectEqual(elements[0], elements[1])
        if case .uid(let uid) = elements[2] { expectEqual(unarchiver.document.objects[Int(uid)], .integer(2)) }
    }

    @Test func keysStartingWithADollarAreEscaped() throws {
        let unarchiver = try archive { archiver in
            try archiver.encode(1, forKey: "$price")
            try archiver.encode(2, forKey: "$$double")
            try archiver.encode(3, forKey: "plain$")
        }
        expectEqual(unarchiver.document.topKeys, ["$$price", "$$$double", "plain$"])
        expectEqual(unarchiver.allKeys, ["$price", "$$double", "plain$"])
        #expect(unarchiver.contains("$price"))
        try expectEqual(unarchiver.decode(Int.self, forKey: "$price"), 1)
        try expectEqual(unarchiver.decode(Int.self, forKey: "$$double"), 2)
        try expectEqual(unarchiver.decode(Int.self, forKey: "plain$"), 3)
        #expect(KeyedArchiver.escapeKey("$x") == "$$x" && KeyedArchiver.unescapeKey("$$x") == "$x")
    }

    @Test func missingKeysGiveTheTypesDefault() throws {
        let unarchiver = try archive { try $0.encode("x", forKey: "present") }
        #expect(!unarchiver.contains("missing"))
        try expectEqual(unarchiver.decode(Int.self, forKey: "missing"), 0)
        try expectEqual(unarchiver.decode(Double.self, forKey: "missing"), 0)
        try expectEqual(unarchiver.decode(Bool.self, forKey: "missing"), false)
        try expectEqual(unarchiver.decode(String.self, forKey: "missing"), "")
        try expectEqual(unarchiver.decode([Int].self, forKey: "missing"), [])
        try expectEqual(unarchiver.decode([String: Int].self, forKey: "missing"), [:])
        #expect(try unarchiver.decode(String?.self, forKey: "missing") == nil)
        try expectEqual(unarchiver.decode(Int.self, forKey: "missing", default: 7), 7)
        #expect(try unarchiver.decodeIfPresent(Int.self, forKey: "missing") == nil)
        #expect(try unarchiver.decodeObject(forKey: "missing") == nil)
        let error = try #require(throws: ModelError.self) { try unarchiver.decode(Date.self, forKey: "missing") }
        expectEqual(error.kind, .missingValue)
        expectEqual(error.description, "cannot map 'missing': missing key")
    }

    /// A model property the archive lacks takes the property's declared default; one without a
    /// default is an error naming it, never a silent zero or empty string (hand-written
    /// `KeyedArchivable` types still get their type's zero, as Apple's unarchiver gives).
    @Test func missingModelKeysTakeTheirDefaultOrAreErrors() throws {
        // An object of class `Values` with no keys at all: every property takes its default.
        let empty = try archive { try $0.encodeObject(ArchivedObject(className: "Values"), forKey: "root") }
        try expectEqual(empty.decode(Values.self, forKey: "root"), Values())
        // `Required` has no defaults: every property the archive lacks is named.
        let partial = try archive { archiver in
            try archiver.encodeObject(ArchivedObject(className: "Required", values: [("when", Date(timeIntervalSinceReferenceDate: 5))]), forKey: "root")
        }
        let missing = try #require(throws: ModelError.self) { try partial.decode(Required.self, forKey: "root") }
        expectEqual(missing.kind, .multiple)
        #expect(
            missing.description
                == "2 problems mapping 'Required': cannot map 'Required.count' at 'root.count': missing key; cannot map 'Required.name' at 'root.name': missing key")
        let noDate = try archive { archiver in
            try archiver.encodeObject(
                ArchivedObject(className: "Required", values: [("count", 3), ("name", "n")]), forKey: "root")
        }
        let error = try #require(throws: ModelError.self) { try noDate.decode(Required.self, forKey: "root") }
        expectEqual(error.kind, .missingValue)
        expectEqual(error.description, "cannot map 'Required.when' at 'root.when': missing key")
        let complete = try archive { archiver in
            try archiver.encodeObject(
                ArchivedObject(
                    className: "Required",
                    values: [("count", 3), ("name", "n"), ("when", Date(timeIntervalSinceReferenceDate: 5))]),
                forKey: "root")
        }
        let required = try complete.decode(Required.self, forKey: "root")
        #expect(required.count == 3 && required.name == "n" && required.when.timeIntervalSinceReferenceDate == 5)
    }

    @Test func anyIntegerWidthReadsAsAnyOther() throws {
        let unarchiver = try archive { archiver in
            try archiver.encode(Int8(-5), forKey: "small")
            try archiver.encode(300, forKey: "medium")
            try archiver.encode(UInt64.max, forKey: "huge")
        }
        try expectEqual(unarchiver.decode(Int64.self, forKey: "small"), -5)
        try expectEqual(unarchiver.decode(Int16.self, forKey: "medium"), 300)
        try expectEqual(unarchiver.decode(UInt32.self, forKey: "medium"), 300)
        try expectEqual(unarchiver.decode(UInt64.self, forKey: "huge"), UInt64.max)
        try expectEqual(unarchiver.decode(Decimal.self, forKey: "medium"), 300)
    }

    @Test(arguments: [
        ("medium", "Int8", "cannot map value at 'medium': expected a number that fits 'Int8', found 300"),
        ("small", "UInt", "cannot map value at 'small': expected a number that fits 'UInt64', found -5"),
        ("huge", "Int64", "cannot map value at 'huge': expected a number that fits 'Int64', found 18446744073709551615"),
        ("big", "Float", "cannot map value at 'big': expected a number that fits 'Float', found 1e+300"),
    ])
    func aNumberThatDoesNotFitIsARangeError(_ key: String, _ type: String, _ message: String) throws {
        let unarchiver = try archive { archiver in
            try archiver.encode(Int8(-5), forKey: "small")
            try archiver.encode(300, forKey: "medium")
            try archiver.encode(UInt64.max, forKey: "huge")
            try archiver.encode(1e300, forKey: "big")
        }
        let error = try #require(throws: ModelError.self) {
            switch type {
            case "Int8": _ = try unarchiver.decode(Int8.self, forKey: key)
            case "UInt": _ = try unarchiver.decode(UInt.self, forKey: key)
            case "Int64": _ = try unarchiver.decode(Int64.self, forKey: key)
            default: _ = try unarchiver.decode(Float.self, forKey: key)
            }
        }
        expectEqual(error.kind, .numberOutOfRange)
        expectEqual(error.description, message)
    }

    @Test func floatAndDoubleReadEachOther() throws {
        let unarchiver = try archive { archiver in
            try archiver.encode(1.5, forKey: "double")
            try archiver.encode(Float(2.25), forKey: "float")
        }
        try expectEqual(unarchiver.decode(Float.self, forKey: "double"), 1.5)
        try expectEqual(unarchiver.decode(Double.self, forKey: "float"), 2.25)
    }

    @Test(arguments: [
        ("int", "Double", "cannot map value at 'int': expected a floating-point number, found 3"),
        ("real", "Int", "cannot map value at 'real': expected an integer, found 1.5"),
        ("text", "Int", "cannot map value at 'text': expected an integer, found \"12\""),
        ("flag", "Int", "cannot map value at 'flag': expected an integer, found true"),
        ("int", "String", "cannot map value at 'int': expected a string, found 3"),
        ("text", "Bool", "cannot map value at 'text': expected a boolean, found \"12\""),
    ])
    func incompatibleTypesAreTypeErrors(_ key: String, _ type: String, _ message: String) throws {
        let unarchiver = try archive { archiver in
            try archiver.encode(3, forKey: "int")
            try archiver.encode(1.5, forKey: "real")
            try archiver.encode("12", forKey: "text")
            try archiver.encode(true, forKey: "flag")
        }
        let error = try #require(throws: ModelError.self) {
            switch type {
            case "Double": _ = try unarchiver.decode(Double.self, forKey: key)
            case "String": _ = try unarchiver.decode(String.self, forKey: key)
            case "Bool": _ = try unarchiver.decode(Bool.self, forKey: key)
            default: _ = try unarchiver.decode(Int.self, forKey: key)
            }
        }
        expectEqual(error.kind, .typeMismatch)
        expectEqual(error.description, message)
    }

    @Test func mappingErrorsNameTheModelPropertyAndPath() throws {
        // A `Person` whose `age` holds a string, inside a team's members.
        let unarchiver = try archive { archiver in
            let impostor = ArchivedObject(className: "Person", values: [("name", "Eve"), ("age", "old")])
            let team = ArchivedObject(className: "Team", values: [("name", "Core"), ("members", [impostor])])
            try archiver.encodeObject(team, forKey: "root")
        }
        let error = try #require(throws: ModelError.self) { try unarchiver.decode(Team.self, forKey: "root") }
        expectEqual(error.description, "cannot map 'Person.age' at 'root.members[0].age': expected an integer, found \"old\"")
    }

    @Test func collectAllReportsEveryProblem() throws {
        let archiver = KeyedArchiver()
        try archiver.encodeObject(ArchivedObject(className: "Address", values: [("street", 1), ("city", false)]), forKey: "root")
        var options = MappingOptions()
        options.collectsAllErrors = true
        let unarchiver = try KeyedUnarchiver(data: try archiver.finishEncoding(), options: options)
        let error = try #require(throws: ModelError.self) { try unarchiver.decode(Address.self, forKey: "root") }
        expectEqual(error.kind, .multiple)
        expectEqual(error.problems.map(\.propertyName), ["street", "city"])
    }

    @Test func validationRunsAfterDecoding() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: Validated(value: -1))
        let error = try #require(throws: ModelError.self) { try KeyedUnarchiver.unarchive(Validated.self, from: data) }
        expectEqual(error.kind, .invalidModel)
    }
}

extension ArchiveValueTests {
    /// The archiver's binary output reads back as the property list it reports, and is no larger
    /// than the general writer's for that property list.
    @Test func theArchiveBinaryWriterMatchesTheGeneralWriter() throws {
        let team = Team(name: "Core")
        team.members = [Person(name: "A"), Person(name: "B")]
        team.lead = team.members[0]
        let archiver = KeyedArchiver()
        try archiver.encode(team, forKey: "team")
        try archiver.encode(Self.sample, forKey: "values")
        try archiver.encodeObject(NSString(string: "ünïcode"), forKey: "text")
        try archiver.encode(-1, forKey: "negative")
        try archiver.encode(Float(0.5), forKey: "float")
        let data = try archiver.finishEncoding()
        let expected = try archiver.finishedPropertyList()
        try expectEqual(PropertyListValue(binary: data), expected)
        #expect(expected.binaryData().count >= data.count - 64)
    }
}
