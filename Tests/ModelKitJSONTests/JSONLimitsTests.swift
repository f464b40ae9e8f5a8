import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// Every JSON limit through every reader of bytes (the validator, `JSONValue(parsing:)` and a
/// model's `init(jsonData:)`): a document at the limit reads, one unit past it fails with an
/// error that names the limit and its value.
struct JSONLimitsTests {
    @Model
    struct Envelope: Equatable {
        var name: String = ""
        var payload: JSONValue? = nil
    }

    /// A limit and a document that reaches exactly `n` of it.
    struct Case: CustomStringConvertible, Sendable {
        let name: JSONLimits.Name
        let value: Int
        let document: @Sendable (Int) -> String

        var description: String { "\(name.rawValue) \(value)" }
    }

    static let cases: [Case] = [
        // The envelope is level 1; n - 1 arrays inside it make n.
        Case(name: .maxDepth, value: 40) { depth in
            #"{"name":"x","payload":"# + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
        },
        // n bytes between the quotes, escapes counted as written.
        Case(name: .maxStringLength, value: 100) { length in
            #"{"name":""# + String(repeating: #"\n"#, count: length / 2) + String(repeating: "s", count: length % 2) + #""}"#
        },
        // `{"name":""}` is 11 bytes; the rest is the name.
        Case(name: .maxDocumentSize, value: 64) { size in
            #"{"name":""# + String(repeating: "d", count: size - 11) + #""}"#
        },
    ]

    func limits(_ check: Case) -> JSONLimits {
        switch check.name {
        case .maxDepth: return JSONLimits(maxDepth: check.value)
        case .maxStringLength: return JSONLimits(maxStringLength: check.value)
        case .maxDocumentSize: return JSONLimits(maxDocumentSize: check.value)
        }
    }

    func options(_ check: Case) -> MappingOptions {
        var options = MappingOptions()
        switch check.name {
        case .maxDepth: options.maxDepth = check.value
        case .maxStringLength: options.maxStringLength = check.value
        case .maxDocumentSize: options.maxDocumentSize = check.value
        }
        return options
    }

    /// Checks that `error` names the limit of `check` and its value.
    func expectNamesTheLimit(_ error: any Error, _ check: Case, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = "\(error)"
        #expect(text.contains("'\(check.name.rawValue)' (\(check.value)"), "\(text)", sourceLocation: sourceLocation)
    }

    @Test(arguments: cases)
    func validatorHoldsAtTheLimitAndFailsOnePast(_ check: Case) throws {
        let atLimit = check.document(check.value)
        try JSONValidator.validate(atLimit, limits: limits(check))
        let error = try #require(throws: JSONSyntaxError.self) {
            try JSONValidator.validate(check.document(check.value + 1), limits: limits(check))
        }
        expectEqual(error.kind, .limitExceeded(check.name, limit: check.value))
        expectNamesTheLimit(error, check)
    }

    @Test(arguments: cases)
    func valueParserHoldsAtTheLimitAndFailsOnePast(_ check: Case) throws {
        let atLimit = check.document(check.value)
        try expectEqual(JSONValue(parsing: atLimit, limits: limits(check)), JSONValue(parsing: atLimit))
        let error = try #require(throws: JSONSyntaxError.self) {
            try JSONValue(parsing: check.document(check.value + 1), limits: limits(check))
        }
        expectEqual(error.kind, .limitExceeded(check.name, limit: check.value))
        expectNamesTheLimit(error, check)
    }

    @Test(arguments: cases)
    func modelReaderHoldsAtTheLimitAndFailsOnePast(_ check: Case) throws {
        let atLimit = Data(check.document(check.value).utf8)
        try expectEqual(Envelope(jsonData: atLimit, options: options(check)), Envelope(jsonData: atLimit))
        let error = try #require(throws: (any Error).self) {
            try Envelope(jsonData: Data(check.document(check.value + 1).utf8), options: options(check))
        }
        expectNamesTheLimit(error, check)
    }

    @Test func limitsDefaultToDepth512AndNoSizeLimit() {
        expectEqual(JSONLimits.default, JSONLimits(maxDepth: 512, maxStringLength: .max, maxDocumentSize: .max))
        let options = MappingOptions.default
        #expect(options.maxDepth == 512 && options.maxStringLength == .max && options.maxDocumentSize == .max)
    }
}
