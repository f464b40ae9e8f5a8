import Foundation
import ModelKit
import ModelKitPreferences

// Keys, settings models and helpers the preferences tests and the `modelkit prefs` command
// tests share.


extension Preferences.Keys {
    public static let volume = Key<Double>("volume", default: 0.5)
    public static let theme = Key<String>("theme", default: "light")
    public static let nickname = Key<String?>("nickname")
    public static let launches = Key<Int>("launches", default: 0)
}

@Model(keys: .snakeCase)
public struct WindowFrame: Sendable {
    public var originX: Double = 0
    public var originY: Double = 0
    public var width: Double = 800
    public var isFullScreen: Bool = false

    public init(originX: Double = 0, originY: Double = 0, width: Double = 800, isFullScreen: Bool = false) {
        self.originX = originX
        self.originY = originY
        self.width = width
        self.isFullScreen = isFullScreen
    }
}

@Model(nulls: .useDefault)
public struct AppSettings: Sendable {
    public var volume: Double = 0.5
    public var theme: String = "light"
    public var recentFiles: [String] = []
    public var window: WindowFrame = WindowFrame()

    public init(
        volume: Double = 0.5, theme: String = "light", recentFiles: [String] = [], window: WindowFrame = WindowFrame()
    ) {
        self.volume = volume
        self.theme = theme
        self.recentFiles = recentFiles
        self.window = window
    }
}

/// Codable but not a ModelValue: stored through JSONEncoder.
public struct Bookmark: Codable, Hashable, Sendable {
    public var title: String
    public var page: Int

    public init(title: String, page: Int) {
        self.title = title
        self.page = page
    }
}

/// Preferences saved only by `flush()`, in `file`.
public func manualPreferences(_ file: URL, keys: [String] = [], pollInterval: Duration = .milliseconds(50)) throws
    -> Preferences
{
    try Preferences(
        name: "test", file: file, keys: keys,
        configuration: .init(savePolicy: .manually, pollInterval: pollInterval))
}

/// The file's bytes as text.
public func contents(of url: URL) throws -> String {
    String(decoding: try Data(contentsOf: url), as: UTF8.self)
}

/// The file parsed as a JSON object (what any other reader would see).
public func parsedObject(at url: URL) throws -> [String: JSONValue] {
    guard case .object(let members) = try JSONValue(parsing: try Data(contentsOf: url)) else {
        throw PreferencesError(.corruptFile, path: url.path, reason: "not an object")
    }
    return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
}


