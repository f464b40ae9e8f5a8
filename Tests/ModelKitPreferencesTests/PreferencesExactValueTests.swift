import Foundation
import ModelKit
import ModelKitPreferences
import ModelKitTestSupport
import Testing

@Suite("Preferences: exact values")
struct PreferencesExactValueTests {
    static let when = Preferences.Key<Date>("when", default: Date(timeIntervalSince1970: 0))
    static let price = Preferences.Key<Decimal>("price", default: 0)

    /// A date and a decimal as preference keys, and a model holding them, read back exactly,
    /// from memory and from the file.
    @Test func datesAndDecimalsComeBackExactly() async throws {
        try await withTemporaryDirectory { directory in
            let now = Date()
            let price = try #require(Decimal(string: "12345678901234567.891"))
            let moment = Moment.exacting()
            let prefs = try manualPreferences(directory.file())
            try prefs.set(now, for: Self.when)
            try prefs.set(price, for: Self.price)
            try prefs.set(moment, forKey: "moment")
            #expect(try prefs.value(for: Self.when) == now && prefs.value(for: Self.price) == price)
            try prefs.flush()
            let reread = try manualPreferences(directory.file())
            try expectEqual(reread.value(for: Self.when), now)
            try expectEqual(reread.value(for: Self.price), price)
            try expectEqual(reread.value(Moment.self, forKey: "moment"), moment)
        }
    }
}
