import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// Archives built to be slow decode in time proportional to their size: 10 times the objects
/// take under 20 times as long, whether they form a chain of thousands or a dense DAG. Quadratic
/// work would take about 100 times as long at these sizes. The 1x archives are sized to take
/// 5 to 30 ms in a debug build: long enough to measure steadily, and no longer.
@Suite(.serialized) struct ArchiveComplexityTests {
    /// A keyed archive of `count` objects of an unregistered class, object i referring to
    /// objects i + 1 ... i + `fanOut` (a chain when `fanOut` is 1).
    static func graphArchive(count: Int, fanOut: Int) throws -> Data {
        let classID = UInt64(count + 1)
        var objects: [PropertyListValue] = ["$null"]
        objects.reserveCapacity(count + 2)
        for index in 0..<count {
            var members: [String: PropertyListValue] = ["$class": .uid(classID), "v": .integer(PropertyListInteger(Int64(index)))]
            for edge in 0..<fanOut where index + edge + 1 < count {
                members["e\(edge)"] = .uid(UInt64(index + edge + 2))
            }
            objects.append(.dictionary(PropertyListDictionary(members.map { ($0.key, $0.value) })))
        }
        objects.append(["$classname": "Node", "$classes": ["Node", "NSObject"]])
        let archive: PropertyListValue = [
            "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)], "$objects": .array(objects),
        ]
        return archive.binaryData()
    }

    /// A typed chain of `count` links, archived.
    static func chainArchive(count: Int) throws -> Data {
        let head = ChainLink.chain(count: count)
        defer { ChainLink.unlink(head) }
        return try KeyedArchiver.archivedData(withRootObject: head)
    }

    @Test func aTypedChainDecodesLinearly() async throws {
        let growth = try await onDedicatedThread {
            try growthRatio(make: { scale in try Self.chainArchive(count: 1_500 * scale) }) { data in
                let decoded = try KeyedUnarchiver(data: data).decode(ChainLink.self, forKey: "root")
                ChainLink.unlink(decoded)
            }
        }
        #expect(growth.ratio < 20, "\(growth)")
    }

    /// A chain of 750 and 7,500 objects, and a DAG of 175 and 1,750 objects with 8
    /// references each (14,000 references at 10x).
    @Test(arguments: [(fanOut: 1, count: 750), (fanOut: 8, count: 175)])
    func aGenericGraphDecodesLinearly(fanOut: Int, count: Int) async throws {
        // The last object of the 1x graph, reached through the first reference of each.
        let sample = try #require(try KeyedUnarchiver(data: Self.graphArchive(count: count, fanOut: fanOut)).decodeObject(forKey: "root") as? ArchivedObject)
        var node = sample
        while let next = node["e0"] as? ArchivedObject { node = next }
        #expect(node["v"] as? Int == count - 1)

        let growth = try await onDedicatedThread {
            try growthRatio(make: { scale in try Self.graphArchive(count: count * scale, fanOut: fanOut) }) { data in
                _ = try KeyedUnarchiver(data: data).decodeObject(forKey: "root")
            }
        }
        #expect(growth.ratio < 20, "\(growth)")
    }

    @Test func aDenseGraphDumpsLinearly() async throws {
        let growth = try await onDedicatedThread {
            try growthRatio(make: { scale in try KeyedArchiveDocument(data: Self.graphArchive(count: 175 * scale, fanOut: 8)) }) {
                document in
                _ = try ArchiveDump.text(document)
            }
        }
        #expect(growth.ratio < 20, "\(growth)")
    }
}
