import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// Strict mode: keys no property reads are errors (per model with `@Model(unknownKeys: .reject)`,
/// or per call with `MappingOptions.unknownKeys`), on every JSON path.
@Suite struct StrictMappingTests {
    static let mappers: [any PayloadMapper] = [JSONBytesMapper(), JSONObjectMapper(), JSONValueMapper()]

    @Test(arguments: 0..<mappers.count)
    func aStrictModelRejectsAMistypedKey(mapper: Int) throws {
        let mapping = Self.mappers[mapper]
        let error = modelError { _ = try mapping.map(StrictConfig.self, from: #"{"retires": 5}"#, options: .default) }
        #expect(error?.kind == .unknownKey)
        #expect(error?.description == "cannot map 'StrictConfig' at 'retires': unknown key")
        // Inside a key path's object too, and every one in collect-all mode.
        var all = MappingOptions()
        all.collectsAllErrors = true
        let payload = #"{"retries": 1, "server": {"host": "h", "port": 80}, "extra": true}"#
        let both = modelError { _ = try mapping.map(StrictConfig.self, from: payload, options: all) }
        expectEqual(Set(both?.allProblems.map(\.description) ?? []), [
            "cannot map 'StrictConfig' at 'server.port': unknown key",
            "cannot map 'StrictConfig' at 'extra': unknown key",
        ])
        // Nested models follow their own policy; a known payload maps.
        let config = try mapping.map(
            StrictConfig.self, from: #"{"retries": 2, "tags": [{"label": "a", "other": 1}]}"#, options: .default)
        #expect(config.retries == 2 && config.tags.map(\.label) == ["a"])
    }

    @Test(arguments: 0..<mappers.count)
    func anyModelIsStrictForOneCall(mapper: Int) throws {
        var options = MappingOptions()
        options.unknownKeys = .reject
        let payload = #"{"name": "a", "quantiy": 2}"#
        let error = modelError { _ = try Self.mappers[mapper].map(Item.self, from: payload, options: options) }
        #expect(error?.description == "cannot map 'Item' at 'quantiy': unknown key")
        try expectEqual(Self.mappers[mapper].map(Item.self, from: payload, options: .default).name, "a")
        // A call can also relax a strict model.
        options.unknownKeys = .ignore
        try expectEqual(Self.mappers[mapper].map(StrictConfig.self, from: #"{"x": 1}"#, options: options).retries, 3)
    }

    @Test func strictModeRunsThroughCodable() {
        let error = modelError { _ = try CodableMapper().map(StrictConfig.self, from: #"{"retires": 5}"#, options: .default) }
        #expect(error?.description == "cannot map 'StrictConfig' at 'retires': unknown key")
    }

    /// `@Key(null: .useDefault)`: `null` takes the default for that property alone.
    @Test(arguments: 0..<mappers.count)
    func nullTakesTheDefaultPerProperty(mapper: Int) throws {
        let mixer = try Self.mappers[mapper].map(
            Mixer.self, from: #"{"volume": null, "is_muted": null, "balance": 1}"#, options: .default)
        #expect(mixer.volume == 0.5 && !mixer.muted && mixer.balance == 1)
        let error = modelError {
            _ = try Self.mappers[mapper].map(Mixer.self, from: #"{"balance": null}"#, options: .default)
        }
        #expect(error?.description == "cannot map 'Mixer.balance' at 'balance': expected a number, found null")
    }

    /// `@Key(null: .error)` overrides `@Model(nulls: .useDefault)` for that property.
    @Test(arguments: 0..<mappers.count)
    func aPropertyRefusesNullUnderALenientModel(mapper: Int) throws {
        let mixer = try Self.mappers[mapper].map(LenientMixer.self, from: #"{"volume": null}"#, options: .default)
        #expect(mixer.volume == 0.5 && mixer.balance == 0)
        let error = modelError {
            _ = try Self.mappers[mapper].map(LenientMixer.self, from: #"{"volume": 1, "balance": null}"#, options: .default)
        }
        #expect(error?.description == "cannot map 'LenientMixer.balance' at 'balance': expected a number, found null")
    }
}
