import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// Settings a client keeps even when a server sends a value of the wrong type for some.
@Model struct PlayerSettings: Equatable {
    @Key(onError: .useDefault) var volume: Double = 0.5
    @Key("speed_mode", onError: .useDefault) var speed: PlaybackSpeed = .normal
    @Key(onError: .useDefault) @Transform(.iso8601) var lastPlayed: Date?
    @Key(onError: .useDefault) var labels: [String] = []
    var title: String
}

enum PlaybackSpeed: String, ModelValue, Equatable {
    case slow, normal, fast
}

// snippet: invalid-value-default-start
@Model struct Preferences {
    @Key(onError: .useDefault) var fontSize: Int = 14
    var theme: String
}
// snippet: invalid-value-default-end

/// `@Key(onError: .useDefault)`: a value that does not map gives the property's default, and its
/// error (model, property, path, value) goes to the mapping report, on every path that maps
/// payloads; other properties' errors still fail the mapping.
@Suite struct InvalidValueDefaultTests {
    static let readers = payloadReaders

    @Test(arguments: 0..<readers.count)
    func wrongValuesTakeTheirDefaultsAndAreReported(reader: Int) throws {
        let mapper = Self.readers[reader]
        let report = MappingReport()
        var options = MappingOptions()
        options.report = report
        let payload = #"""
            {"volume": "loud", "speed_mode": "warp", "lastPlayed": "yesterday", "labels": ["a", 2], "title": "T"}
            """#
        let settings = try mapper.map(PlayerSettings.self, from: payload, options: options)
        expectEqual(settings, PlayerSettings(title: "T"))
        expectEqual(report.defaultedValues.map(\.description), [
            "cannot map 'PlayerSettings.volume' at 'volume': expected a number, found \"loud\"",
            "cannot map 'PlayerSettings.speed' at 'speed_mode': expected one of the cases of 'PlaybackSpeed', found \"warp\"",
            "cannot map 'PlayerSettings.lastPlayed' at 'lastPlayed': expected an ISO 8601 date, found \"yesterday\"",
            "cannot map 'PlayerSettings.labels' at 'labels[1]': expected a string, found 2",
        ])
        #expect(report.droppedElements.isEmpty)
    }

    @Test(arguments: 0..<readers.count)
    func goodValuesAndOtherErrorsAreUnchanged(reader: Int) throws {
        let mapper = Self.readers[reader]
        let payload = #"{"volume": 0.9, "speed_mode": "fast", "lastPlayed": "2024-03-01T12:34:56Z", "labels": ["x"], "title": "T"}"#
        let settings = try mapper.map(PlayerSettings.self, from: payload, options: .default)
        #expect(settings.volume == 0.9 && settings.speed == .fast && settings.labels == ["x"])
        #expect(settings.lastPlayed == Date(timeIntervalSince1970: 1_709_296_496))
        // A property without the policy still fails, and the defaulted one does not join it.
        var all = MappingOptions()
        all.collectsAllErrors = true
        let error = modelError { _ = try mapper.map(PlayerSettings.self, from: #"{"volume": "loud", "title": 5}"#, options: all) }
        #expect(error?.allProblems.map(\.propertyName) == ["title"], "\(String(describing: error))")
    }

    @Test func theSchemaSaysIt() {
        #expect(PlayerSettings.modelSchema["volume"]?.flags.contains(.invalidUsesDefault) == true)
        #expect(PlayerSettings.modelSchema["title"]?.flags.contains(.invalidUsesDefault) == false)
    }

    /// The example of the article "Mapping models".
    @Test func theArticleExample() throws {
        // snippet: invalid-value-default-start
        let report = MappingReport()
        var options = MappingOptions()
        options.report = report
        let preferences = try Preferences(jsonData: Data(#"{"fontSize": "large", "theme": "dark"}"#.utf8), options: options)
        print(preferences.fontSize)  // 14
        print(report.defaultedValues[0])  // cannot map 'Preferences.fontSize' at 'fontSize': expected an integer, found "large"
        // snippet: invalid-value-default-end
        #expect(preferences.fontSize == 14 && preferences.theme == "dark")
        #expect(report.defaultedValues.map(\.description) == [
            #"cannot map 'Preferences.fontSize' at 'fontSize': expected an integer, found "large""#
        ])
    }
}
