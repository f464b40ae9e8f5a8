import Foundation
import ModelKit
import ModelKitJSON
import ModelKitTestSupport
import Testing

/// A review, as a server checks it: every built-in constraint, a constraint of its own made in
/// place, an optional one, and a nested model with constraints of its own.
@Model struct CheckedReview: Equatable {
    @Validate(.range(1...5)) var rating: Int
    @Validate(.nonEmpty, .length(...20)) var title: String
    @Validate(.pattern(#"^[a-z0-9_]+$"#)) var handle: String
    @Validate(.count(...3)) var tags: [String] = []
    @Validate(.range(0.0..<1.0)) var score: Double?
    @Validate(ModelConstraint<Int>(expected: "an even number") { $0.isMultiple(of: 2) }) var seats: Int = 2
    var venue: CheckedVenue?
}

@Model struct CheckedVenue: Equatable {
    @Validate(.length(3...3)) var code: String
}

/// A value that fails its constraint takes its default under `@Key(onError: .useDefault)`.
@Model struct LenientRating {
    @Key(onError: .useDefault) @Validate(.range(1...5)) var stars: Int = 3
}

/// `@Validate`: constraints run after mapping on every path that reads payloads, report through
/// collect-all errors with model, property, path and value, and are kept by the schema.
@Suite struct ConstraintTests {
    static let readers = payloadReaders
    static let valid = #"""
        {"rating": 4, "title": "Good", "handle": "ada_99", "tags": ["a"], "score": 0.5, "seats": 4,
         "venue": {"code": "LHR"}}
        """#

    @Test(arguments: 0..<readers.count)
    func valuesThatSatisfyTheirConstraintsMap(reader: Int) throws {
        let review = try Self.readers[reader].map(CheckedReview.self, from: Self.valid, options: .default)
        expectEqual(review, CheckedReview(
            rating: 4, title: "Good", handle: "ada_99", tags: ["a"], score: 0.5, seats: 4, venue: CheckedVenue(code: "LHR")))
        // nil satisfies an optional property's constraints; defaults are not checked again.
        let bare = try Self.readers[reader].map(
            CheckedReview.self, from: #"{"rating": 1, "title": "x", "handle": "a"}"#, options: .default)
        #expect(bare.score == nil && bare.seats == 2)
    }

    @Test(arguments: 0..<readers.count)
    func everyViolationIsReportedWithWhereAndWhat(reader: Int) throws {
        var options = MappingOptions()
        options.collectsAllErrors = true
        let payload = #"""
            {"rating": 9, "title": "", "handle": "Ada!", "tags": ["a", "b", "c", "d"], "score": 1.0, "seats": 3,
             "venue": {"code": "LONDON"}}
            """#
        let error = modelError { _ = try Self.readers[reader].map(CheckedReview.self, from: payload, options: options) }
        expectEqual(error?.allProblems.map(\.description), [
            "invalid 'CheckedReview.rating' at 'rating': expected a value in 1...5, found 9",
            #"invalid 'CheckedReview.title' at 'title': expected a non-empty string, found """#,
            #"invalid 'CheckedReview.handle' at 'handle': expected a string matching '^[a-z0-9_]+$', found "Ada!""#,
            #"invalid 'CheckedReview.tags' at 'tags': expected at most 3 elements, found an array of 4 elements"#,
            "invalid 'CheckedReview.score' at 'score': expected a value in 0.0..<1.0, found 1.0",
            "invalid 'CheckedReview.seats' at 'seats': expected an even number, found 3",
            #"invalid 'CheckedVenue.code' at 'venue.code': expected a string of 3 characters, found "LONDON""#,
        ])
        #expect(error?.allProblems.allSatisfy { $0.kind == .violatedConstraint } == true)
    }

    @Test(arguments: 0..<readers.count)
    func aLengthCountsUnicodeScalarsAsJSONDoes(reader: Int) throws {
        // 20 scalars (an accented letter as one scalar, an emoji as one) map; 21 do not.
        let twenty = String(repeating: "é", count: 19) + "🙂"
        let payload = { (title: String) in #"{"rating": 1, "handle": "a", "title": "\#(title)"}"# }
        #expect(try Self.readers[reader].map(CheckedReview.self, from: payload(twenty), options: .default).title == twenty)
        let error = modelError { _ = try Self.readers[reader].map(CheckedReview.self, from: payload(twenty + "x"), options: .default) }
        #expect(error?.reason.hasPrefix("expected a string of at most 20 characters") == true, "\(String(describing: error))")
    }

    @Test(arguments: 0..<readers.count)
    func aFailingValueTakesItsDefaultWhenAskedAndIsReported(reader: Int) throws {
        let report = MappingReport()
        var options = MappingOptions()
        options.report = report
        let lenient = try Self.readers[reader].map(LenientRating.self, from: #"{"stars": 7}"#, options: options)
        #expect(lenient.stars == 3)
        expectEqual(report.defaultedValues.map(\.description), [
            "invalid 'LenientRating.stars' at 'stars': expected a value in 1...5, found 7"
        ])
    }

    @Test(arguments: 0..<readers.count)
    func turningValidationOffSkipsThem(reader: Int) throws {
        var options = MappingOptions()
        options.validates = false
        let review = try Self.readers[reader].map(
            CheckedReview.self, from: #"{"rating": 9, "title": "", "handle": "A"}"#, options: options)
        #expect(review.rating == 9)
    }

    @Test func aLiveModelIsCheckedWithTheSameRules() throws {
        var review = try CheckedReview(jsonString: Self.valid)
        try review.checkConstraints()
        review.rating = 0
        review.venue?.code = "L"
        let error = modelError { try review.checkConstraints() }
        expectEqual(error?.allProblems.map(\.description), [
            "invalid 'CheckedReview.rating' at 'rating': expected a value in 1...5, found 0",
            #"invalid 'CheckedVenue.code' at 'venue.code': expected a string of 3 characters, found "L""#,
        ])
    }

    @Test func theSchemaKeepsWhatEachRequires() {
        let schema = CheckedReview.modelSchema
        expectEqual(schema["rating"]?.requirements, [
            .range(lower: .init(.integer(1), isInclusive: true), upper: .init(.integer(5), isInclusive: true))
        ])
        expectEqual(schema["title"]?.requirements, [.nonEmpty, .length(min: nil, max: 20)])
        expectEqual(schema["handle"]?.requirements, [.pattern(#"^[a-z0-9_]+$"#)])
        expectEqual(schema["tags"]?.requirements, [.count(min: nil, max: 3)])
        expectEqual(schema["score"]?.requirements, [
            .range(lower: .init(.floatingPoint(0), isInclusive: true), upper: .init(.floatingPoint(1), isInclusive: false))
        ])
        expectEqual(schema["seats"]?.requirements, [.custom(expected: "an even number")])
        expectEqual(schema["venue"]?.requirements, [])
        expectEqual(schema.constrainedProperties.map(\.name), ["rating", "title", "handle", "tags", "score", "seats"])
    }

    /// The exported JSON Schema says each constraint JSON Schema can say, checked by an
    /// independent validator: the valid payload validates, each value that fails a constraint
    /// does not (a rule of the app's own is not in the schema, so its value validates).
    @Test func theJSONSchemaSaysThem() throws {
        let valid = try JSONValue(parsing: Self.valid)
        let mutate = JSONSchemaExportTests.mutate
        let payloads = [
            valid,
            mutate(valid, ["rating"], .int(9)),
            mutate(valid, ["rating"], .int(0)),
            mutate(valid, ["title"], .string("")),
            mutate(valid, ["title"], .string(String(repeating: "é", count: 21))),
            mutate(valid, ["handle"], .string("Ada!")),
            mutate(valid, ["tags"], .array([.string("a"), .string("b"), .string("c"), .string("d")])),
            mutate(valid, ["score"], .double(1.0)),
            mutate(valid, ["venue", "code"], .string("LONDON")),
            mutate(valid, ["seats"], .int(3)),
            mutate(valid, ["score"], .null),
        ]
        let results = try JSONSchemaExportTests.validate(payloads, against: CheckedReview.jsonSchema)
        expectEqual(results, [true, false, false, false, false, false, false, false, false, true, true])
        let properties = CheckedReview.jsonSchema["properties"]
        expectEqual(properties?["rating"]?["minimum"], .int(1))
        expectEqual(properties?["rating"]?["maximum"], .int(5))
        expectEqual(properties?["score"]?["exclusiveMaximum"], .double(1))
        expectEqual(properties?["title"]?["minLength"], .int(1))
        expectEqual(properties?["title"]?["maxLength"], .int(20))
        expectEqual(properties?["tags"]?["maxItems"], .int(3))
        expectEqual(properties?["handle"]?["pattern"], .string(#"^[a-z0-9_]+$"#))
        // And ModelKit refuses what the schema refuses.
        for payload in payloads[1...8] {
            #expect(throws: ModelError.self, "\(payload)") { try CheckedReview(jsonData: Data(ModelJSON.encode(payload))) }
        }
    }

    /// A pattern that does not compile fails every value, with an error that says why, instead
    /// of crashing.
    @Test func aPatternThatDoesNotCompileSaysSo() {
        let constraint = ModelConstraint<String>.pattern("[a-")
        #expect(!constraint.isSatisfied(by: "a"))
        #expect(constraint.expected.hasPrefix("a string matching '[a-', which is no valid pattern ("), "\(constraint.expected)")
    }

    @Test(arguments: [
        (ModelConstraint<Int>.range(18...), 18, 17, "a value of at least 18"),
        (.range(...100), 100, 101, "a value of at most 100"),
        (.range(..<100), 99, 100, "a value below 100"),
        (.range(0..<10), 0, 10, "a value in 0..<10"),
    ])
    func everyKindOfRange(constraint: ModelConstraint<Int>, inside: Int, outside: Int, expected: String) {
        #expect(constraint.isSatisfied(by: inside))
        #expect(!constraint.isSatisfied(by: outside))
        #expect(constraint.expected == expected)
    }

    @Test(arguments: [
        (ModelConstraint<[Int]>.count(2...3), [1, 2], [1], "2 to 3 elements"),
        (.count(2...), [1, 2, 3, 4], [1], "at least 2 elements"),
        (.count(1...1), [1], [], "1 element"),
        (.nonEmpty, [1], [], "a non-empty value"),
    ])
    func everyKindOfCount(constraint: ModelConstraint<[Int]>, inside: [Int], outside: [Int], expected: String) {
        #expect(constraint.isSatisfied(by: inside))
        #expect(!constraint.isSatisfied(by: outside))
        #expect(constraint.expected == expected)
    }
}
