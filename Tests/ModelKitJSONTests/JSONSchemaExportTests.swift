import Foundation
import ModelKit
import ModelKitJSON
import ModelKitTestSupport
import Testing

/// A model with what a schema must say besides plain keys: nested key paths, a default, optionals,
/// a transformer, a fallback key, a dictionary, a transient property, strict unknown keys.
@Model(keys: .snakeCase, unknownKeys: .reject)
struct SchemaSample {
    @Key("id", "uid") var id: Int
    var title: String
    @Key("meta.tags") var tags: [String] = []
    @Key("meta.score") var score: Double?
    @Transform(.dateFormat("yyyy-MM-dd")) var dueOn: Date
    @Transform(.iso8601) var updatedAt: Date?
    var link: URL?
    var counts: [String: Int] = [:]
    var isDone = false
    @Transient var cache: String? = nil
}

/// A strict model that keeps the top-level keys it does not model.
@Model(unknownKeys: .reject) struct KeepingSample {
    var name: String
    @Key("meta.rank") var rank: Int = 0
    @UnknownKeys var extra: [String: JSONValue] = [:]
}

/// JSON Schema export, checked by an independent validator: Python's `jsonschema` (Draft
/// 2020-12), run as another process. Real payloads validate; each mutation that breaks a rule of
/// the model does not.
@Suite struct JSONSchemaExportTests {
    /// Whether each of `instances` is valid against `schema`, by Python's `jsonschema` (which
    /// also checks that the schema itself is a valid 2020-12 schema).
    static func validate(_ instances: [JSONValue], against schema: JSONValue) throws -> [Bool] {
        try SchemaValidator.shared.get().validate(instances, against: schema)
    }

    /// `value` with the member at `path` replaced by `replacement`, or removed when it is nil.
    static func mutate(_ value: JSONValue, _ path: [String], to replacement: JSONValue?) -> JSONValue {
        guard let key = path.first, case .object(var members) = value else { return value }
        guard let index = members.firstIndex(where: { $0.key == key }) else {
            if path.count == 1, let replacement { members.append(JSONMember(key, replacement)) }
            return .object(members)
        }
        if path.count == 1 {
            if let replacement { members[index].value = replacement } else { members.remove(at: index) }
        } else {
            members[index].value = mutate(members[index].value, Array(path.dropFirst()), to: replacement)
        }
        return .object(members)
    }

    @Test func everyStatusOfTwitterJSONValidatesAndBrokenOnesDoNot() throws {
        let twitter = try JSONValue(parsing: fixtureData("twitter.json"))
        guard case .array(let statuses) = twitter["statuses"] else {
            Issue.record("twitter.json has no statuses")
            return
        }
        let first = statuses[0]
        let broken: [JSONValue] = [
            Self.mutate(first, ["id_str"], to: nil),                          // a required key missing
            Self.mutate(first, ["retweet_count"], to: .string("many")),      // a wrong type
            Self.mutate(first, ["user", "screen_name"], to: .int(42)),        // a wrong type in a nested model
            Self.mutate(first, ["entities", "hashtags"], to: .string("#")),  // a nested key path's value
            Self.mutate(first, ["user", "followers_count"], to: .null),       // null where no optional is
        ]
        let results = try Self.validate(statuses + broken, against: Status.jsonSchema)
        #expect(results.prefix(statuses.count).allSatisfy { $0 }, "\(results.prefix(statuses.count))")
        expectEqual(Array(results.suffix(broken.count)), [false, false, false, false, false])
        // And ModelKit agrees: it maps every status, and refuses every broken one.
        for status in statuses { #expect(throws: Never.self) { try Status(jsonData: ModelJSON.encode(status).data) } }
        for status in broken { #expect(throws: ModelError.self) { try Status(jsonData: ModelJSON.encode(status).data) } }
    }

    @Test func whatAModelWritesValidatesAndEachBrokenRuleDoesNot() throws {
        let sample = try SchemaSample(jsonString: #"{"uid": 7, "title": "t", "due_on": "2026-12-24", "meta": {"score": 0.5}}"#)
        let written = try JSONValue(parsing: sample.jsonBytes())
        let valid: [JSONValue] = [
            written,
            try JSONValue(parsing: #"{"id": 1, "title": "t", "due_on": "2026-01-02"}"#),   // defaults left out
            try JSONValue(parsing: #"{"uid": 1, "title": "t", "due_on": "x", "updated_at": null, "link": "a/b"}"#),
        ]
        let broken: [JSONValue] = [
            Self.mutate(written, ["id"], to: nil),                        // neither id nor uid
            Self.mutate(written, ["title"], to: .null),                   // null for a non-optional
            Self.mutate(written, ["meta", "tags"], to: .array([.int(1)])),  // an element of the wrong type
            Self.mutate(written, ["counts"], to: .object([JSONMember("a", .string("1"))])),  // a dictionary value
            Self.mutate(written, ["surprise"], to: .bool(true)),           // an unknown key (unknownKeys: .reject)
            Self.mutate(written, ["due_on"], to: .int(20261224)),          // the transformer's remote type is a string
            Self.mutate(written, ["meta", "surprise"], to: .int(1)),       // an unknown key inside a key path's object
        ]
        let results = try Self.validate(valid + broken, against: SchemaSample.jsonSchema)
        expectEqual(results, [true, true, true, false, false, false, false, false, false, false])
        // ModelKit refuses every broken payload too (the schema is not looser than the reader).
        for payload in broken {
            #expect(throws: ModelError.self, "\(payload)") { try SchemaSample(jsonData: Data(ModelJSON.encode(payload))) }
        }
        // What the schema says of the properties, read back.
        let schema = SchemaSample.jsonSchema
        expectEqual(schema["properties"]?["is_done"]?["default"], .bool(false))
        expectEqual(schema["properties"]?["due_on"]?["description"], .string(#"a date like "yyyy-MM-dd""#))
        expectEqual(schema["properties"]?["cache"], nil)
        expectEqual(schema["required"], .array([.string("title"), .string("due_on")]))
    }

    /// A model that keeps its other keys (`@UnknownKeys`): its property is no key of the
    /// payload, the top-level object is open even in strict mode, objects a key path opens stay
    /// closed, as the reader has it.
    @Test func aModelThatKeepsItsOtherKeysIsOpenAtTheTop() throws {
        let schema = KeepingSample.jsonSchema
        expectEqual(schema["properties"]?["extra"], nil)
        expectEqual(schema["additionalProperties"], nil)
        expectEqual(schema["properties"]?["meta"]?["additionalProperties"], .bool(false))
        let payloads = try [
            #"{"name": "a", "meta": {"rank": 1}, "anything": [1, 2]}"#,  // another key at the top
            #"{"name": "a", "meta": {"rank": 1, "other": 2}}"#,          // another key inside a key path's object
        ].map { try JSONValue(parsing: $0) }
        expectEqual(try Self.validate(payloads, against: schema), [true, false])
        // The reader agrees.
        #expect(try KeepingSample(jsonData: Data(ModelJSON.encode(payloads[0]))).extra == ["anything": .array([.int(1), .int(2)])])
        #expect(throws: ModelError.self) { try KeepingSample(jsonData: Data(ModelJSON.encode(payloads[1]))) }
    }

    /// One document for several models, and the same as OpenAPI 3.1 components: the references
    /// resolve, and payloads validate against each model's definition.
    @Test func aDocumentAndOpenAPIComponentsDefineEveryModelOnce() throws {
        let document = ModelJSONSchema.document(for: [Status.self, TwitterUser.self])
        guard case .object(let definitions) = document["$defs"] else {
            Issue.record("no $defs")
            return
        }
        expectEqual(definitions.map(\.key), ["Status", "TwitterUser", "Hashtag", "URLEntity", "Mention"])
        let twitter = try JSONValue(parsing: fixtureData("twitter.json"))
        let status = try #require(twitter["statuses"]?[0])
        let user = try #require(status["user"])
        for (name, instance) in [("Status", status), ("TwitterUser", user)] {
            var wrapped = [JSONMember("$ref", .string("#/$defs/\(name)"))]
            if case .object(let members) = document { wrapped += members }
            expectEqual(try Self.validate([instance, .int(1)], against: .object(wrapped)), [true, false])
        }
        let components = ModelJSONSchema.openAPIComponents(for: [Status.self])
        let openAPI = JSONValue.object([
            JSONMember("$schema", .string(ModelJSONSchema.dialect)),
            JSONMember("$ref", .string("#/components/schemas/Status")),
            JSONMember("components", try #require(components["components"])),
        ])
        expectEqual(try Self.validate([status, Self.mutate(status, ["text"], to: nil)], against: openAPI), [true, false])
    }
}

/// Python's `jsonschema` (Draft 2020-12) in one process for every test that validates, which
/// reads a request a line and answers each with a line: starting Python and importing
/// jsonschema took a fifth of a second, more than the validations. The process ends with the
/// tests, when its standard input closes.
final class SchemaValidator: @unchecked Sendable {
    // @unchecked: the pipes are only used under `lock`.
    static let shared = Result { try SchemaValidator() }

    private static let script = """
        import json, sys
        try:
            import jsonschema
        except ImportError:
            sys.exit("Python's jsonschema is missing: pip install jsonschema")
        for line in iter(sys.stdin.readline, ""):
            request = json.loads(line)
            try:
                jsonschema.Draft202012Validator.check_schema(request["schema"])
            except jsonschema.SchemaError as error:
                print(json.dumps(str(error)), flush=True)
                continue
            validator = jsonschema.Draft202012Validator(request["schema"])
            print(json.dumps([validator.is_valid(instance) for instance in request["instances"]]), flush=True)
        """

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { "the validator failed: \(message)" }
    }

    private let lock = NSLock()
    private let process = Process()
    private let requests = Pipe()
    private let answers = Pipe()
    private let errors = Pipe()

    private init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script]
        process.standardInput = requests
        process.standardOutput = answers
        process.standardError = errors
        try process.run()
    }

    /// Whether each of `instances` is valid against `schema`; throws when the schema is not a
    /// valid 2020-12 schema, or when Python cannot validate at all.
    func validate(_ instances: [JSONValue], against schema: JSONValue) throws -> [Bool] {
        let request = JSONValue.object([JSONMember("schema", schema), JSONMember("instances", .array(instances))])
        let line = try ModelJSON.encode(request) + [0x0A]
        let answer = try lock.withLock {
            requests.fileHandleForWriting.write(Data(line))
            var answer = Data()
            while answer.last != 0x0A {
                let data = answers.fileHandleForReading.availableData
                guard !data.isEmpty else {
                    let failure = errors.fileHandleForReading.readDataToEndOfFile()
                    throw Failure(message: String(decoding: failure, as: UTF8.self))
                }
                answer += data
            }
            return answer
        }
        if case .string(let message) = try JSONValue(parsing: answer) {
            throw Failure(message: message)
        }
        return try ModelJSON.decode([Bool].self, from: answer)
    }
}

extension Array where Element == UInt8 {
    /// The bytes as `Data`.
    fileprivate var data: Data { Data(self) }
}
