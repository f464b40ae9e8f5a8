import Foundation
import ModelKitCore

/// A named, durable store of preferences: a JSON file of key -> value that many instances,
/// tasks and processes can read, change and observe safely.
///
/// It keeps RVS_PersistentPrefs's simple surface — declared keys, the whole ``values``
/// dictionary, a `String` subscript, an initializer with a name and initial values,
/// ``lastError`` — and adds typed keys, atomic and batched saves, observation, and locking
/// across processes.
///
/// ```swift
/// extension Preferences.Keys {
///     static let volume = Key<Double>("volume", default: 0.5)
/// }
///
/// let prefs = try Preferences(name: "com.example.app")
/// prefs[.volume] = 0.8                  // typed; saved shortly (or call `flush()`)
/// prefs["theme"] = .string("dark")      // untyped JSON values
/// try prefs.flush()                     // saved to ~/.config/com.example.app/preferences.json
/// for await volume in prefs.changes(of: .volume) { print(volume) }
/// ```
///
/// **The file** is pretty-printed JSON with sorted keys, one top-level object, so people can
/// read and edit it. By default it lives in the platform's place (see
/// ``standardFileURL(forName:)``); pass `file:` to choose it.
///
/// **Saving.** Writes change the values in memory at once (every instance in the process sees
/// them) and are saved by ``flush()``, by the ``SavePolicy`` (by default 100 ms after a write,
/// batching the writes made meanwhile), when the last instance for the file goes away, and
/// when the process exits normally (an `atexit` handler; a killed process loses unsaved
/// writes, never the file). A save locks the file against other processes (`flock` on `<file>.lock`), reads it, applies
/// only the keys this process changed, and atomically replaces it (temporary file, `fsync`,
/// `rename`, `fsync` of the directory). Two processes writing different keys both keep their
/// writes, and a process killed mid-save leaves the previous or the new file, never a torn one.
///
/// **Reading** checks whether the file changed (one `stat` call) and reads it again if so, so
/// reads see other processes' saves. A file that is not a JSON object is moved aside to
/// `<file>.corrupt-<time>` and reported (thrown, or recorded in ``lastError``); it is never
/// silently replaced with defaults.
///
/// **Observing.** ``changes()``, ``changes(forKey:)`` and `changes(of:initial:)`
/// yield after every change made through any instance in this process, at once, and after
/// changes saved by other processes, which observation notices by checking the file every
/// ``Configuration/pollInterval`` (a `stat` call) while any observer exists.
///
/// Instances are `Sendable`: use them from any thread or task.
public final class Preferences: Sendable {
    /// When writes are saved to the file.
    public enum SavePolicy: Hashable, Sendable {
        /// Every write is saved before it returns (errors are thrown, or recorded in
        /// ``Preferences/lastError`` by the non-throwing surface). Slowest, simplest.
        case immediately
        /// Writes are saved together this long after the first unsaved one (the default, 100 ms).
        case batched(after: Duration)
        /// Writes are saved only by ``Preferences/flush()``, when the last instance goes away and
        /// when the process exits.
        case manually
    }

    /// How an instance saves and observes.
    public struct Configuration: Hashable, Sendable {
        /// When writes are saved.
        public var savePolicy: SavePolicy
        /// How often observation checks the file for other processes' changes.
        public var pollInterval: Duration

        /// A configuration; the defaults batch saves for 100 ms and check every 500 ms.
        public init(
            savePolicy: SavePolicy = .batched(after: .milliseconds(100)), pollInterval: Duration = .milliseconds(500)
        ) {
            self.savePolicy = savePolicy
            self.pollInterval = pollInterval
        }

        /// Batched saves after 100 ms, polling every 500 ms while observed.
        public static let `default` = Configuration()
    }

    /// A typed key: `Preferences.Key<Double>("volume", default: 0.5)`.
    public typealias Key<Value: Codable & Sendable> = PreferenceKey<Value>
    /// The namespace to extend with typed keys: `extension Preferences.Keys { static let ... }`.
    public typealias Keys = PreferenceKeys

    /// The name the preferences were opened with, e.g. `com.example.app`.
    public let name: String
    /// The preferences file.
    public let fileURL: URL
    /// The declared keys; empty when any key is accepted. Writing another key fails with
    /// ``PreferencesError/Kind/undeclaredKey``.
    public let keys: [String]
    /// How this instance saves and observes.
    public let configuration: Configuration
    /// The state shared with every instance using the same file.
    let storage: PreferencesStorage

    /// Opens the preferences named `name`, in their standard place or in `file`, and stores
    /// `values` in them (the given values replace what is stored for their keys; other keys
    /// keep their stored values).
    ///
    /// ```swift
    /// let prefs = try Preferences(name: "com.example.app", keys: ["volume", "theme"],
    ///                             values: ["volume": .double(0.5)])
    /// ```
    ///
    /// Opening does not read the file; the first access does. Throws for an invalid name, a
    /// missing standard place, an undeclared key in `values`, and, with
    /// ``SavePolicy/immediately``, a failed save of `values`.
    public init(
        name: String, file: URL? = nil, keys: [String] = [], values: [String: JSONValue] = [:],
        configuration: Configuration = .default
    ) throws {
        try Self.validate(name: name)
        let url = try file ?? Self.standardFileURL(forName: name)
        let path = StorageRegistry.normalizedPath(of: url)
        self.name = name
        self.fileURL = URL(fileURLWithPath: path)
        self.keys = keys
        self.configuration = configuration
        self.storage = StorageRegistry.storage(forPath: path)
        if !values.isEmpty {
            try checkWritable(values)
            storage.write(values.mapValues { PendingWrite.set($0) })
            try didWrite()
        }
    }

    /// Opens the preferences stored in `file`, named after the file.
    ///
    /// ```swift
    /// let prefs = try Preferences(file: URL(fileURLWithPath: "/etc/example/settings.json"))
    /// ```
    public convenience init(
        file: URL, keys: [String] = [], values: [String: JSONValue] = [:], configuration: Configuration = .default
    ) throws {
        let name = file.deletingPathExtension().lastPathComponent
        try self.init(
            name: name.isEmpty ? "preferences" : name, file: file, keys: keys, values: values,
            configuration: configuration)
    }

    /// The file's path.
    var path: String { storage.file.path }

    // MARK: - The whole dictionary

    /// Every stored value, with this process's unsaved writes. Reading loads the file if it
    /// changed; assigning replaces every value (keys left out are removed) and saves per the
    /// ``SavePolicy``. Errors are recorded in ``lastError``.
    ///
    /// ```swift
    /// var all = prefs.values
    /// all["theme"] = .string("dark")
    /// prefs.values = all
    /// ```
    public var values: [String: JSONValue] {
        get {
            storage.refreshRecordingErrors()
            return storage.state.withLock { $0.effective }
        }
        set {
            do { try setValues(newValue) } catch { storage.record(error) }
        }
    }

    /// Every stored value, throwing when the file cannot be read.
    public func allValues() throws -> [String: JSONValue] {
        try storage.refresh()
        return storage.state.withLock { $0.effective }
    }

    /// Replaces every value: keys not in `values` are removed.
    public func setValues(_ values: [String: JSONValue]) throws {
        try checkWritable(values)
        storage.refreshRecordingErrors()
        let current = storage.state.withLock { $0.effective }
        var writes = values.mapValues { PendingWrite.set($0) }
        for key in current.keys where values[key] == nil { writes[key] = .remove }
        storage.write(writes)
        try didWrite()
    }

    // MARK: - Single values

    /// The value of `key` as JSON; nil when it is not stored. Assigning nil removes the key.
    /// Errors are recorded in ``lastError``.
    ///
    /// ```swift
    /// prefs["theme"] = .string("dark")
    /// prefs["theme"] // .string("dark")
    /// ```
    public subscript(key: String) -> JSONValue? {
        get {
            storage.refreshRecordingErrors()
            return storage.state.withLock { $0.value(forKey: key) }
        }
        set {
            do { try setValue(newValue, forKey: key) } catch { storage.record(error) }
        }
    }

    /// The value of `key` as JSON, or nil; throws when the file cannot be read.
    public func value(forKey key: String) throws -> JSONValue? {
        try storage.refresh()
        return storage.state.withLock { $0.value(forKey: key) }
    }

    /// Stores `value` for `key`; nil removes the key.
    public func setValue(_ value: JSONValue?, forKey key: String) throws {
        try checkDeclared([key])
        if let value { try checkWritable([key: value]) }
        storage.write([key: value.map { .set($0) } ?? .remove])
        try didWrite()
    }

    /// Removes `key`; reads then give nil, or a typed key's default.
    public func removeValue(forKey key: String) throws {
        try setValue(nil, forKey: key)
    }

    // MARK: - Saving and errors

    /// Saves every unsaved write of this process to the file now.
    ///
    /// ```swift
    /// prefs[.volume] = 0.8
    /// try prefs.flush()
    /// ```
    public func flush() throws {
        try storage.flush()
    }

    /// Reads the file again even if it looks unchanged.
    public func reload() throws {
        try storage.refresh(force: true)
    }

    /// Whether this process has writes to the file that are not saved yet.
    public var hasUnsavedChanges: Bool {
        storage.hasPendingWrites
    }

    /// The last error of a non-throwing access (``values``, subscripts) or an automatic save
    /// of this file in this process; set it to nil to clear it. Throwing calls throw instead.
    ///
    /// ```swift
    /// prefs["theme"] = .string("dark")
    /// if let error = prefs.lastError { print(error) }
    /// ```
    public var lastError: PreferencesError? {
        get { storage.state.withLock { $0.lastError } }
        set { storage.state.withLock { $0.lastError = newValue } }
    }

    /// Throws when a key is not declared or a value cannot be written as JSON (a NaN or an
    /// infinity), so that a bad value never sits among the pending writes and fails every save.
    func checkWritable(_ values: [String: JSONValue]) throws {
        try checkDeclared(values.keys)
        for (key, value) in values { try PreferenceCoding.checkEncodable(value, key: key) }
    }

    /// Throws when keys are declared and one of `names` is not.
    func checkDeclared(_ names: some Sequence<String>) throws {
        guard !keys.isEmpty else { return }
        for name in names where !keys.contains(name) {
            throw PreferencesError(
                .undeclaredKey, path: path, key: name,
                reason: "preferences '\(self.name)' declare \(keys.map { "'\($0)'" }.joined(separator: ", "))")
        }
    }

    /// Saves per the save policy after a write.
    func didWrite() throws {
        switch configuration.savePolicy {
        case .immediately: try storage.flush()
        case .batched(let delay): storage.scheduleSave(after: delay)
        case .manually: break
        }
    }
}
