import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// An error of the user's own, thrown from a hook.
struct PolicyViolation: Error, CustomStringConvertible {
    let rule: String
    var description: String { "violates \(rule)" }
}

@Model
struct Guest {
    var name: String
    @Transform(Shouting()) var greeting: String = ""

    static func validateName(_ name: String) throws {
        if name == "root" { throw PolicyViolation(rule: "no reserved names") }
    }

    func validate() throws {
        if name == greeting { throw PolicyViolation(rule: "distinct greeting") }
    }
}

/// A `LocalizedError`: its `errorDescription` is what the message shows.
struct NotShouted: LocalizedError {
    var errorDescription: String? { "a greeting is shouted" }
}

struct Shouting: ModelTransformer {
    func transformedValue(_ encoded: String) throws -> String {
        guard encoded == encoded.uppercased() else { throw NotShouted() }
        return encoded
    }
    func reverseTransformedValue(_ value: String) throws -> String { value }
}

@Model
struct Party {
    var guests: [Guest]

    static func rewriteJSON(_ json: inout JSONValue) throws {
        if json["cancelled"] == .bool(true) { throw PolicyViolation(rule: "no cancelled parties") }
    }
}

/// A hook (a property validator, `validate()`, a transformer, `rewriteJSON`) throws an error of
/// the user's own type; mapping wraps it in a `ModelError` that names the model, the property
/// and the path, shows the error's own text, and keeps it as `underlying`.
@Suite struct HookErrorTests {
    @Test(arguments: [
        (
            #"{"guests": [{"name": "a"}, {"name": "root"}]}"#,
            #"cannot map 'Guest.name' at 'guests[1].name': found "root" (violates no reserved names)"#
        ),
        (
            #"{"guests": [{"name": "a", "greeting": "hi"}]}"#,
            #"cannot map 'Guest.greeting' at 'guests[0].greeting': expected a value 'Shouting' accepts, found "hi" (a greeting is shouted)"#
        ),
        (#"{"guests": [{"name": "HI", "greeting": "HI"}]}"#, "invalid 'Guest' at 'guests[0]': violates distinct greeting"),
        (#"{"cancelled": true, "guests": []}"#, "cannot map 'Party': violates no cancelled parties"),
    ])
    func aHooksOwnErrorIsWrappedWithWhereItHappened(payload: String, expected: String) throws {
        for mapper in [JSONBytesMapper(), JSONObjectMapper(), CodableMapper()] as [any PayloadMapper] {
            let error = modelError { _ = try mapper.map(Party.self, from: payload, options: .default) }
            #expect(error?.description == expected, "\(type(of: mapper))")
            #expect(error?.underlying is PolicyViolation || error?.underlying is NotShouted, "\(type(of: mapper))")
        }
    }
}
