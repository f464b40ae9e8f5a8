import Foundation
import ModelKitCore
import ModelKitJSON

/// Observation: `AsyncStream`s of changes.
///
/// Changes made through any ``Preferences`` instance of this process for the same file are
/// delivered at once (before they are saved). Changes saved by other processes are noticed by
/// polling: while at least one sequence is being observed, the file is checked every
/// ``Preferences/Configuration/pollInterval`` (one `stat` call; the file is read only when it
/// changed), and every read through the non-throwing or throwing surface checks it too. Polling
/// was chosen over inotify/kqueue because it works the same on every platform and file system,
/// survives the file being replaced by `rename`, and costs one system call per interval.
///
/// Sequences buffer every change without limit until they are consumed, and end when the
/// consuming task is cancelled or the sequence is dropped. An observation keeps the file's
/// shared state alive, so it keeps working after the ``Preferences`` instance is released.
extension Preferences {
    /// Every change to any key, in order.
    ///
    /// ```swift
    /// for await change in prefs.changes() {
    ///     print("\(change.key) is now \(change.value.map { "\($0)" } ?? "unset")")
    /// }
    /// ```
    public func changes() -> AsyncStream<PreferencesChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: PreferencesChange.self)
        let observer = PreferencesObserver(keys: nil, pollInterval: configuration.pollInterval) { changes, _ in
            for change in changes { continuation.yield(change) }
            return nil
        }
        register(observer, continuation: continuation)
        return stream
    }

    /// The new JSON value of `key` after each change; nil when it was removed.
    ///
    /// ```swift
    /// for await theme in prefs.changes(forKey: "theme") { apply(theme) }
    /// ```
    public func changes(forKey key: String) -> AsyncStream<JSONValue?> {
        let (stream, continuation) = AsyncStream.makeStream(of: JSONValue?.self)
        let observer = PreferencesObserver(keys: [key], pollInterval: configuration.pollInterval) { changes, _ in
            for change in changes { continuation.yield(change.value) }
            return nil
        }
        register(observer, continuation: continuation)
        return stream
    }

    /// The value of a typed key after each change: the key's default when it was removed or
    /// cannot be decoded (the error is recorded in ``lastError``). With `initial`, the current
    /// value comes first.
    ///
    /// ```swift
    /// for await volume in prefs.changes(of: .volume, initial: true) {
    ///     player.volume = volume
    /// }
    /// ```
    public func changes<Value>(of key: Key<Value>, initial: Bool = false) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        let path = self.path
        let decode: @Sendable (JSONValue?) -> (Value, PreferencesError?) = { json in
            guard let json else { return (key.defaultValue, nil) }
            do {
                return (try PreferenceCoding.decode(Value.self, from: json, key: key.name, path: path), nil)
            } catch {
                return (key.defaultValue, error as? PreferencesError)
            }
        }
        let observer = PreferencesObserver(keys: [key.name], pollInterval: configuration.pollInterval) {
            changes, _ in
            var failure: PreferencesError?
            for change in changes {
                let (value, error) = decode(change.value)
                failure = error ?? failure
                continuation.yield(value)
            }
            return failure
        }
        let yieldCurrent: @Sendable ([String: JSONValue]) -> PreferencesError? = { snapshot in
            let (value, error) = decode(snapshot[key.name])
            continuation.yield(value)
            return error
        }
        register(observer, continuation: continuation, initial: initial ? yieldCurrent : nil)
        return stream
    }

    /// A `@Model` settings type read from the whole file after each change to one of its keys
    /// (several keys saved together give one value). A file it cannot be read from gives no
    /// value and records the error in ``lastError``. With `initial`, the current settings come
    /// first.
    ///
    /// ```swift
    /// for await settings in prefs.changes(of: Settings.self) { apply(settings) }
    /// ```
    public func changes<Settings: Model & Sendable>(of type: Settings.Type, initial: Bool = false)
        -> AsyncStream<Settings>
    {
        let (stream, continuation) = AsyncStream.makeStream(of: Settings.self)
        let path = self.path
        let yieldSettings: @Sendable ([String: JSONValue]) -> PreferencesError? = { values in
            do {
                continuation.yield(try PreferenceCoding.decodeModel(Settings.self, from: values, path: path))
                return nil
            } catch {
                return error as? PreferencesError
            }
        }
        let keys = Set(PreferenceCoding.topLevelKeys(of: Settings.self))
        let observer = PreferencesObserver(keys: keys, pollInterval: configuration.pollInterval) { _, snapshot in
            yieldSettings(snapshot())
        }
        register(observer, continuation: continuation, initial: initial ? yieldSettings : nil)
        return stream
    }

    /// Registers an observer and removes it when its sequence ends.
    private func register<Element>(
        _ observer: PreferencesObserver, continuation: AsyncStream<Element>.Continuation,
        initial: (@Sendable ([String: JSONValue]) -> PreferencesError?)? = nil
    ) {
        let storage = self.storage
        let id = storage.addObserver(observer, initial: initial)
        continuation.onTermination = { _ in storage.removeObserver(id) }
    }
}

/// One key's new value, as the all-keys sequence ``Preferences/changes()`` yields it.
///
/// ```swift
/// for await change in prefs.changes() {
///     print(change.key, change.value ?? "removed", change.origin)
/// }
/// ```
public struct PreferencesChange: Hashable, Sendable, CustomStringConvertible {
    /// Where a change was made.
    public enum Origin: Hashable, Sendable {
        /// Through a ``Preferences`` instance in this process (reported at once, before saving).
        case thisProcess
        /// In the file by someone else: another process, or a person editing it (reported
        /// when a read or the observation's polling notices the new file).
        case otherProcess
    }

    /// The key that changed.
    public let key: String
    /// The new value; nil when the key was removed.
    public let value: JSONValue?
    /// Where the change was made.
    public let origin: Origin

    /// A change of `key` to `value`.
    public init(key: String, value: JSONValue?, origin: Origin) {
        self.key = key
        self.value = value
        self.origin = origin
    }

    public var description: String {
        let text = value.map { (try? $0.jsonString()) ?? "\($0)" } ?? "removed"
        return "\(key) = \(text) (\(origin == .thisProcess ? "this process" : "another process"))"
    }
}

/// Someone waiting for changes: which keys, how often the file should be checked for other
/// processes' changes, and how to hand changes over.
struct PreferencesObserver: Sendable {
    /// The keys of interest; nil for all keys.
    let keys: Set<String>?
    /// How often to look at the file while this observer exists.
    let pollInterval: Duration
    /// Delivers the changes of one event (already filtered to ``keys``). `snapshot` gives every
    /// current value, for observers of whole models. Returns an error to record as the last
    /// error (a value that did not decode). Called while the storage's state is locked, so
    /// observers see events in order; it must not call back into the storage.
    let deliver: @Sendable (_ changes: [PreferencesChange], _ snapshot: () -> [String: JSONValue]) -> PreferencesError?
}

/// The differences between two sets of values, as changes, in key order.
func differences(
    from old: [String: JSONValue], to new: [String: JSONValue], origin: PreferencesChange.Origin
) -> [PreferencesChange] {
    var changes: [PreferencesChange] = []
    for key in Set(old.keys).union(new.keys).sorted() where old[key] != new[key] {
        changes.append(PreferencesChange(key: key, value: new[key], origin: origin))
    }
    return changes
}
