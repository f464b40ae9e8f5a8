import ModelKitCore
import ModelKitJSON

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
    /// Ends the observer's sequence.
    let finish: @Sendable () -> Void
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
