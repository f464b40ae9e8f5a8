import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// Every limit of the property-list readers and the unarchiver, at its value and one past it:
/// at the limit the input reads; one past, reading fails with an error that names the limit.
struct ReaderLimitsTests {
    /// A property-list limit and an input of a given size that reaches exactly that size for it.
    struct PropertyListCase: CustomStringConvertible, Sendable {
        let limit: PropertyListLimits.Limit
        let value: Int
        let input: @Sendable (Int) -> PropertyListValue

        var description: String { "\(limit) \(value)" }
    }

    static let propertyListCases: [PropertyListCase] = [
        // `[[…[0]…]]`: n arrays deep.
        PropertyListCase(limit: .maxDepth, value: 40) { depth in
            (0..<depth).reduce(PropertyListValue.integer(0)) { inner, _ in .array([inner]) }
        },
        // An array of n - 1 distinct integers: n values.
        PropertyListCase(limit: .maxObjectCount, value: 300) { count in
            .array((0..<(count - 1)).map { .integer(PropertyListInteger(Int64($0))) })
        },
        PropertyListCase(limit: .maxCollectionCount, value: 300) { count in
            .array((0..<count).map { .integer(PropertyListInteger(Int64($0))) })
        },
        PropertyListCase(limit: .maxStringLength, value: 1000) { length in
            .string(String(repeating: "s", count: length))
        },
        PropertyListCase(limit: .maxDataLength, value: 1000) { length in
            .data(Data(repeating: 7, count: length))
        },
        // Two strings of n - 1 and 1 code units.
        PropertyListCase(limit: .maxTotalLength, value: 1000) { length in
            .array([.string(String(repeating: "t", count: length - 1)), .string("u")])
        },
    ]

    static let formats: [PropertyListFormat] = [.binary, .xml]

    func read(_ value: PropertyListValue, as format: PropertyListFormat, limits: PropertyListLimits) throws -> PropertyListValue {
        switch format {
        case .binary: return try PropertyListValue(binary: value.binaryBytes(), limits: limits)
        case .xml: return try PropertyListValue(xml: value.xmlBytes(), limits: limits)
        }
    }

    @Test(arguments: propertyListCases, formats)
    func propertyListLimitHoldsAtItsValueAndFailsOnePast(_ check: PropertyListCase, _ format: PropertyListFormat) throws {
        var limits = PropertyListLimits.default
        switch check.limit {
        case .maxDepth: limits.maxDepth = check.value
        case .maxObjectCount: limits.maxObjectCount = check.value
        case .maxCollectionCount: limits.maxCollectionCount = check.value
        case .maxStringLength: limits.maxStringLength = check.value
        case .maxDataLength: limits.maxDataLength = check.value
        case .maxTotalLength: limits.maxTotalLength = check.value
        }
        expectEqual(limits.value(of: check.limit), check.value)
        let atLimit = check.input(check.value)
        try expectEqual(read(atLimit, as: format, limits: limits), atLimit)

        let error = try #require(throws: PropertyListError.self) {
            try read(check.input(check.value + 1), as: format, limits: limits)
        }
        guard case .limitExceeded(let limit, let value, _) = error.kind else {
            Issue.record("expected a limit error, got \(error)")
            return
        }
        #expect(limit == check.limit && value == check.value)
        #expect(error.description.contains("the limit '\(check.limit)' (\(check.value)"), "\(error)")
    }

    // MARK: Keyed archives

    /// `[[…["x"]…]]` archived: n arrays deep.
    func nestedArrays(_ depth: Int) throws -> Data {
        let value: Any = (0..<depth).reduce("x" as Any) { inner, _ in [inner] }
        return try KeyedArchiver.archivedData(withRootObject: value)
    }

    @Test func archiveDepthHoldsAtItsValueAndFailsOnePast() throws {
        let limits = KeyedArchiveLimits(maxDepth: 30)
        // The root array is entered at depth 0: n arrays take depth n.
        let ok = try KeyedUnarchiver(data: nestedArrays(30), limits: limits).decodeObject(forKey: "root")
        #expect(ok is [Any])
        let error = try #require(throws: KeyedArchiveError.self) {
            try KeyedUnarchiver(data: nestedArrays(31), limits: limits).decodeObject(forKey: "root")
        }
        expectEqual(error.kind, .limitExceeded(.maxDepth, limit: 30))
        #expect(error.description.contains("exceeds the limit 'maxDepth' (30)"), "\(error)")
    }

    @Test func archiveObjectCountHoldsAtItsValueAndFailsOnePast() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: (0..<10).map { "s\($0)" })
        let count = try KeyedArchiveDocument(data: data).objectCount
        #expect(try KeyedUnarchiver(data: data, limits: KeyedArchiveLimits(maxObjectCount: count)).decodeObject(forKey: "root") is [Any])
        let error = try #require(throws: KeyedArchiveError.self) {
            try KeyedUnarchiver(data: data, limits: KeyedArchiveLimits(maxObjectCount: count - 1))
        }
        expectEqual(error.kind, .limitExceeded(.maxObjectCount, limit: count - 1))
        #expect(error.description.contains("the limit 'maxObjectCount' (\(count - 1))"), "\(error)")
    }

    @Test func archiveReferencesFollowedHoldAtTheLimitAndFailOnePast() throws {
        // A team of 20 distinct people: the team, its members array and 20 people are 22 decodings.
        let team = Team(name: "T")
        team.members = (0..<20).map { Person(name: "p\($0)") }
        let data = try KeyedArchiver.archivedData(withRootObject: team)
        var registry = ArchiveClassRegistry()
        registry.register(Team.self)
        registry.register(Person.self)
        func decode(_ limit: Int) throws -> Team {
            try KeyedUnarchiver(data: data, registry: registry, limits: KeyedArchiveLimits(maxDecodedObjects: limit))
                .decode(Team.self, forKey: "root")
        }
        var needed = 1
        while (try? decode(needed)) == nil, needed < 1000 { needed += 1 }
        #expect(needed >= 21 && needed < 1000)
        try expectEqual(decode(needed).members.count, 20)
        let error = try #require(throws: KeyedArchiveError.self) { try decode(needed - 1) }
        expectEqual(error.kind, .limitExceeded(.maxDecodedObjects, limit: needed - 1))
        #expect(error.description.contains("the limit 'maxDecodedObjects' (\(needed - 1))"), "\(error)")
    }

    @Test func archivePropertyListLimitsApplyToTheArchiveFile() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: String(repeating: "z", count: 500))
        var limits = KeyedArchiveLimits.default
        limits.propertyList.maxStringLength = 500
        #expect(try KeyedUnarchiver(data: data, limits: limits).decodeObject(forKey: "root") as? String == String(repeating: "z", count: 500))
        limits.propertyList.maxStringLength = 499
        let error = try #require(throws: (any Error).self) { try KeyedUnarchiver(data: data, limits: limits) }
        #expect("\(error)".contains("the limit 'maxStringLength' (499"), "\(error)")
    }
}
