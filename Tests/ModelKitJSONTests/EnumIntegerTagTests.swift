import Foundation
import ModelKit
import ModelKitJSON
import ModelKitTestSupport
import Testing

@Model struct AlarmDetail: Equatable {
    var level: Int
}

/// Integer tags beside string tags, internally tagged, with a fallback.
@Model(tag: "code") enum StatusCode: Equatable {
    @Key(200) case ok
    @Key(404) case missing(path: String)
    @Key(-1) case failure(AlarmDetail)
    @Key("retry") case retry(after: Int)
    @UnknownCase case other(JSONValue)
}

/// Integer tags, adjacently tagged, without a fallback.
@Model(tag: "op", content: "args") enum Opcode: Equatable {
    @Key(1) case push(Int)
    @Key(2) case pop
}

@Model struct StatusLog: Equatable {
    var statuses: [StatusCode]
    var ops: [Opcode] = []
}

/// `@Key(3)` on a case: a tag that is a number in payloads, on every reader and writer; a string
/// of the same digits is another tag.
@Suite struct EnumIntegerTagTests {
    static let payload = #"""
        {"statuses": [{"code": 200}, {"path": "/a", "code": 404}, {"level": 3, "code": -1},
                      {"code": "retry", "after": 5}, {"code": 7, "x": 1}, {"code": "200"}],
         "ops": [{"op": 1, "args": 9}, {"args": null, "op": 2}]}
        """#

    @Test(arguments: 0..<payloadReaders.count)
    func integerTagsMapOnEveryReader(reader: Int) throws {
        let log = try payloadReaders[reader].map(StatusLog.self, from: Self.payload, options: .default)
        expectEqual(Array(log.statuses.prefix(4)), [.ok, .missing(path: "/a"), .failure(AlarmDetail(level: 3)), .retry(after: 5)])
        expectEqual(log.statuses[4], .other(try JSONValue(parsing: #"{"code": 7, "x": 1}"#)))
        expectEqual(log.statuses[5], .other(.object([JSONMember("code", .string("200"))])))
        expectEqual(log.ops, [.push(9), .pop])
    }

    @Test(arguments: 0..<payloadWriters.count)
    func integerTagsAreWrittenAsNumbers(writer: Int) throws {
        let log = StatusLog(statuses: [.ok, .missing(path: "/b"), .failure(AlarmDetail(level: 1)), .retry(after: 2)], ops: [.push(4), .pop])
        let written = try payloadWriters[writer].write(log)
        let json = try JSONValue(parsing: written)
        expectEqual(json["statuses"]?[0], .object([JSONMember("code", .int(200))]))
        expectEqual(json["statuses"]?[1]?["code"], .int(404))
        expectEqual(json["statuses"]?[2]?["code"], .int(-1))
        expectEqual(json["statuses"]?[3]?["code"], .string("retry"))
        expectEqual(json["ops"]?[0]?["op"], .int(1))
        expectEqual(try StatusLog(jsonData: written), log)
    }

    @Test(arguments: [
        (#"{"op": 3}"#, "cannot map 'StatusLog.ops' at 'ops[0].op': expected one of the tags 1, 2 of 'Opcode', found 3"),
        (#"{"op": "1"}"#, #"cannot map 'StatusLog.ops' at 'ops[0].op': expected one of the tags 1, 2 of 'Opcode', found "1""#),
        (#"{"op": 1.5}"#, "cannot map 'StatusLog.ops' at 'ops[0].op': expected one of the tags 1, 2 of 'Opcode', found 1.5"),
        (#"{"op": true}"#, "cannot map 'StatusLog.ops' at 'ops[0].op': expected a string or an integer, found true"),
    ])
    func aTagOfTheWrongKindIsAnErrorOnEveryReader(op: String, message: String) {
        let payload = #"{"statuses": [], "ops": [\#(op)]}"#
        for mapper in payloadReaders {
            let error = modelError { _ = try mapper.map(StatusLog.self, from: payload, options: .default) }
            #expect(error?.description == message, "\(type(of: mapper))")
        }
    }

    /// The exported JSON Schema says the integers (`const: 200`), checked by the independent
    /// validator against what the readers accept.
    @Test func theSchemaAndTheJSONSchemaSayTheIntegers() throws {
        expectEqual(StatusCode.modelEnumSchema.cases.map(\.tagValue), [.int(200), .int(404), .int(-1), .string("retry")])
        let valid = try JSONValue(parsing: Self.payload)
        let mutate = JSONSchemaExportTests.mutate
        let payloads = [
            valid,
            mutate(valid, ["ops"], .array([.object([JSONMember("op", .string("1")), JSONMember("args", .int(1))])])),
            mutate(valid, ["ops"], .array([.object([JSONMember("op", .int(3))])])),
            mutate(valid, ["statuses"], .array([.object([JSONMember("code", .int(404))])])),
        ]
        let results = try JSONSchemaExportTests.validate(payloads, against: StatusLog.jsonSchema)
        expectEqual(results, [true, false, false, false])
        for (payload, valid) in zip(payloads, results) {
            let mapped = (try? StatusLog(jsonData: Data(ModelJSON.encode(payload)))) != nil
            #expect(mapped == valid, "\(payload)")
        }
    }
}
