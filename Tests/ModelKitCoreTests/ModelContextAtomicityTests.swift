import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// Mapping into live instances is all or nothing: a payload that fails to map leaves every live
/// instance with the values it had, and registers nothing.
@Suite struct ModelContextAtomicityTests {
    /// The payloads and how they fail, on every path that maps through a context.
    static let failures: [(name: String, payload: String, message: String)] = [
        (
            "a later field fails", #"{"id": 1, "owner": "Bea", "balance": 7, "tags": ["x", 3]}"#,
            "cannot map 'Wallet.tags' at 'tags[1]': expected a string, found 3"
        ),
        (
            "validation fails", #"{"id": 1, "owner": "Bea", "balance": -5}"#,
            "invalid 'Wallet': expected a balance of at least 0"
        ),
        (
            "a nested live instance fails after the outer one mapped",
            #"{"id": 1, "owner": "Bea", "balance": 7, "parent": {"id": 2, "balance": "lots"}}"#,
            "cannot map 'Wallet.balance' at 'parent.balance': expected an integer, found \"lots\""
        ),
    ]

    static let mappers: [(name: String, map: @Sendable (String, ModelContext) throws -> Wallet)] = [
        ("JSON bytes", { payload, context in try Wallet(jsonData: Data(payload.utf8), context: context) }),
        ("JSON object", { payload, context in try Wallet(json: jsonObject(payload), context: context) }),
    ]

    @Test(arguments: 0..<failures.count, 0..<mappers.count)
    func aFailedPayloadLeavesLiveInstancesAsTheyWere(failure: Int, mapper: Int) throws {
        let (_, payload, message) = Self.failures[failure]
        let context = ModelContext()
        let wallet = try Wallet(json: ["id": 1, "owner": "Ada", "balance": 10, "tags": ["a"]], context: context)
        let parent = try Wallet(json: ["id": 2, "owner": "Pat", "balance": 3], context: context)
        let error = modelError { _ = try Self.mappers[mapper].map(payload, context) }
        #expect(error?.description == message)
        #expect(wallet.owner == "Ada" && wallet.balance == 10 && wallet.tags == ["a"] && wallet.parent == nil)
        #expect(parent.owner == "Pat" && parent.balance == 3)
        #expect(context.registeredModel(Wallet.self, id: 1) === wallet)
        expectEqual(context.registeredCount, 2)
    }

    @Test func instancesAFailedPayloadRegisteredAreForgotten() throws {
        let context = ModelContext()
        let payload = #"[{"id": 5, "owner": "Eve", "balance": 1}, {"id": 6, "owner": "Fay", "balance": -1}]"#
        let error = modelError { _ = try [Wallet](jsonData: Data(payload.utf8), context: context) }
        #expect(error?.description == "invalid 'Wallet' at '[1]': expected a balance of at least 0")
        #expect(context.registeredModel(Wallet.self, id: 5) == nil)
        expectEqual(context.registeredCount, 0)
    }

    @Test func aRunOfSeveralMappingsIsOneUnit() throws {
        let context = ModelContext()
        let wallet = try Wallet(json: ["id": 1, "owner": "Ada", "balance": 10], context: context)
        let error = modelError {
            try context.performMapping {
                _ = try Wallet(json: ["id": 1, "owner": "Ada B.", "balance": 20], context: context)
                _ = try Wallet(json: ["id": 9, "owner": "Ned", "balance": -1], context: context)
            }
        }
        #expect(error?.kind == .invalidModel)
        #expect(wallet.owner == "Ada" && wallet.balance == 10)
        #expect(context.registeredModel(Wallet.self, id: 9) == nil)
    }

    @Test func aSuccessfulPayloadUpdatesInPlace() throws {
        let context = ModelContext()
        let wallet = try Wallet(json: ["id": 1, "owner": "Ada", "balance": 10], context: context)
        let again = try Wallet(
            jsonData: Data(#"{"id": 1, "balance": 12, "parent": {"id": 2, "owner": "Pat", "balance": 3}}"#.utf8),
            context: context)
        #expect(again === wallet && wallet.owner == "Ada" && wallet.balance == 12)
        #expect(wallet.parent === context.registeredModel(Wallet.self, id: 2))
    }
}
