import Foundation
import ModelKitCore

extension Preferences {
    // MARK: - Typed keys

    /// The value of a typed key: the stored value, or the key's default when it is not stored.
    /// Assigning stores a value. When the stored value cannot be decoded as `Value`, reading
    /// gives the default and records the error in ``lastError`` (the stored value is kept).
    ///
    /// ```swift
    /// prefs[.volume] = 0.8
    /// let volume = prefs[.volume] // 0.8
    /// ```
    public subscript<Value>(key: Key<Value>) -> Value {
        get {
            do {
                return try value(for: key)
            } catch {
                storage.record(error)
                return key.defaultValue
            }
        }
        set {
            do { try set(newValue, for: key) } catch { storage.record(error) }
        }
    }

    /// The value of a typed key, or its default when it is not stored; throws when the file
    /// cannot be read or the value cannot be decoded as `Value`.
    ///
    /// ```swift
    /// let volume = try prefs.value(for: .volume)
    /// ```
    public func value<Value>(for key: Key<Value>) throws -> Value {
        guard let json = try value(forKey: key.name) else { return key.defaultValue }
        return try PreferenceCoding.decode(Value.self, from: json, key: key.name, path: path)
    }

    /// Stores a typed key's value. `@Model` and other `ModelValue` types are stored as their
    /// JSON mapping, other `Codable` types through their `Codable` implementation; nil optionals
    /// are stored as `null`.
    ///
    /// ```swift
    /// try prefs.set(0.8, for: .volume)
    /// ```
    public func set<Value>(_ value: Value, for key: Key<Value>) throws {
        try set(value, forKey: key.name)
    }

    /// Removes a typed key's stored value, so reads give its default again.
    public func reset<Value>(_ key: Key<Value>) throws {
        try removeValue(forKey: key.name)
    }

    // MARK: - Any Codable value

    /// The value of `key` decoded as `type`, or nil when it is not stored.
    ///
    /// ```swift
    /// let recent = try prefs.value([URL].self, forKey: "recentFiles") ?? []
    /// ```
    public func value<Value: Decodable>(_ type: Value.Type, forKey key: String) throws -> Value? {
        guard let json = try value(forKey: key) else { return nil }
        return try PreferenceCoding.decode(Value.self, from: json, key: key, path: path)
    }

    /// Stores any `Encodable` value for `key`.
    ///
    /// ```swift
    /// try prefs.set([URL(fileURLWithPath: "/tmp/a.txt")], forKey: "recentFiles")
    /// ```
    public func set<Value: Encodable>(_ value: Value, forKey key: String) throws {
        try checkDeclared([key])
        let json = try PreferenceCoding.encode(value, key: key)
        try setValue(json, forKey: key)
    }

    // MARK: - A declared preferences type

    /// Reads the whole file as a `@Model` type of settings: each property from its key, with
    /// its default where the key is not stored. Keys the type does not know are ignored.
    ///
    /// ```swift
    /// @Model struct Settings {
    ///     var volume: Double = 0.5
    ///     var theme: String = "light"
    /// }
    /// let settings = try prefs.read(Settings.self)
    /// ```
    public func read<Settings: Model>(_ type: Settings.Type) throws -> Settings {
        let values = try allValues()
        return try PreferenceCoding.decodeModel(Settings.self, from: values, path: path)
    }

    /// Writes a `@Model` value of settings as a whole: every property whose stored value
    /// differs from the model's is written, so the file ends up matching the model. (To change
    /// some properties and keep other processes' concurrent changes to the rest, use
    /// ``update(_:_:)``.)
    ///
    /// ```swift
    /// var settings = try prefs.read(Settings.self)
    /// settings.volume = 0.9
    /// try prefs.write(settings)
    /// ```
    public func write<Settings: Model>(_ settings: Settings) throws {
        let members = try PreferenceCoding.encodeModel(settings)
        try checkDeclared(members.keys)
        storage.refreshRecordingErrors()
        let current = storage.state.withLock { $0.effective }
        try store(members.filter { current[$0.key] != $0.value.canonicalized })
    }

    /// Reads a `@Model` value of settings, changes it and writes back only the properties
    /// `change` changed; returns the result. Another process's concurrent change to a property
    /// left alone is kept.
    ///
    /// ```swift
    /// try prefs.update(Settings.self) { $0.volume += 0.1 }
    /// ```
    @discardableResult
    public func update<Settings: Model>(_ type: Settings.Type, _ change: (inout Settings) throws -> Void) throws
        -> Settings
    {
        var settings = try read(Settings.self)
        let before = try PreferenceCoding.encodeModel(settings)
        try change(&settings)
        let after = try PreferenceCoding.encodeModel(settings)
        try checkDeclared(after.keys)
        try store(after.filter { before[$0.key] != $0.value })
        return settings
    }

    /// Stores members of a model and saves per the save policy.
    private func store(_ members: [String: JSONValue]) throws {
        guard !members.isEmpty else { return }
        storage.write(members.mapValues { PendingWrite.set($0) })
        try didWrite()
    }

    /// The top-level keys a `@Model` settings type reads and writes, to declare them.
    ///
    /// ```swift
    /// let prefs = try Preferences(name: "com.example.app", keys: Preferences.keys(of: Settings.self))
    /// ```
    public static func keys<Settings: Model>(of type: Settings.Type) -> [String] {
        PreferenceCoding.topLevelKeys(of: Settings.self)
    }
}
