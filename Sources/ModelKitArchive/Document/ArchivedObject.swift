import ModelKitCore

/// An object of a class the unarchiver does not know: its class chain and its keyed values,
/// decoded as plain Swift values.
///
/// Generic decoding (``KeyedUnarchiver/decodeObject(forKey:)``) returns one for every class that
/// is neither a Foundation class nor registered, so any archive can be read and inspected
/// without creating types from names in the file. Objects are shared like the originals: two
/// references to one archived object give equal `ArchivedObject`s (`==`), and cycles are kept.
///
/// Ownership: the first reference the unarchiver follows to an object owns it; every other
/// reference to it (a shared one, or one back up a cycle) is a *weak reference*, an
/// `ArchivedObject` that reads through to the owned one while it lives (``isWeakReference``).
/// So a decoded graph is a tree of strong references plus weak ones, freed as a whole when its
/// root is released, whatever cycles the archive has. Compare objects with `==`, not `===`.
///
/// ```swift
/// let foo = try unarchiver.decodeObject(forKey: "root") as? ArchivedObject
/// foo?.className          // "crap.Foo"
/// foo?.classChain         // ["crap.Foo", "NSCoder", "NSObject"]
/// foo?["title"] as? String   // "yo"
/// ```
public final class ArchivedObject: Hashable, CustomStringConvertible {
    /// The class, with its chain.
    public let archivedClass: ArchivedClass
    private var ownKeys: [String]
    private var ownValues: [String: Any]
    /// For a weak reference: the object it stands for.
    private weak var referent: ArchivedObject?
    /// For a weak reference: the identity of the object it stands for, kept for hashing.
    private let referentID: ObjectIdentifier?
    /// The weak reference handed out for this object, made once.
    private var weakReferenceCache: ArchivedObject?

    /// The keys, unescaped, in archive order (`$class` excluded; unkeyed values are `$0`, `$1`, ...).
    public var keys: [String] {
        resolved?.ownKeys ?? []
    }

    /// The values by key: strings, numbers, `Bool`, `Data`, dates, arrays, dictionaries, models,
    /// `NSNull` for null inside collections, other `ArchivedObject`s.
    public var values: [String: Any] {
        resolved?.ownValues ?? [:]
    }

    /// Whether this is a weak reference to an object owned elsewhere in the decoded graph.
    public var isWeakReference: Bool { referentID != nil }

    /// The object that owns the values: `self`, or for a weak reference the object it stands
    /// for, nil once that object is freed.
    public var resolved: ArchivedObject? {
        referentID == nil ? self : referent
    }

    /// Creates an object to archive, with its keys in order.
    ///
    /// ```swift
    /// let object = ArchivedObject(className: "Legacy", values: [("name", "x"), ("count", 3)])
    /// try archiver.encodeObject(object, forKey: "root")
    /// ```
    public init(className: String, classChain: [String]? = nil, values: [(String, Any)] = []) {
        self.archivedClass = ArchivedClass(name: className, chain: classChain ?? [className, "NSObject"])
        self.ownKeys = values.map(\.0)
        self.ownValues = Dictionary(values, uniquingKeysWith: { _, last in last })
        self.referentID = nil
        if self.ownKeys.count != self.ownValues.count {
            var seen = Set<String>()
            self.ownKeys = self.ownKeys.filter { seen.insert($0).inserted }
        }
    }

    init(archivedClass: ArchivedClass) {
        self.archivedClass = archivedClass
        self.ownKeys = []
        self.ownValues = [:]
        self.referentID = nil
    }

    private init(weakReferenceTo object: ArchivedObject) {
        self.archivedClass = object.archivedClass
        self.ownKeys = []
        self.ownValues = [:]
        self.referent = object
        self.referentID = ObjectIdentifier(object)
    }

    /// Releases what the object holds without recursion: a chain of a million objects, each
    /// holding the next, would otherwise be freed one nested call per object and overflow the
    /// stack. Objects only this one holds are emptied into a work list first.
    deinit {
        guard !ownValues.isEmpty else { return }
        var pending = Array(ownValues.values)
        ownValues = [:]
        while var value = pending.popLast() {
            let type = type(of: value)
            if var object = value as? ArchivedObject {
                value = ()
                if isKnownUniquelyReferenced(&object), !object.ownValues.isEmpty {
                    pending.append(contentsOf: object.ownValues.values)
                    object.ownValues = [:]
                }
            } else if type == [Any].self, let array = value as? [Any] {
                value = ()
                pending.append(contentsOf: array)
            } else if type == [String: Any].self, let dictionary = value as? [String: Any] {
                value = ()
                pending.append(contentsOf: dictionary.values)
            } else if type == [AnyHashable: Any].self, let dictionary = value as? [AnyHashable: Any] {
                value = ()
                pending.append(contentsOf: dictionary.keys.map(\.base))
                pending.append(contentsOf: dictionary.values)
            } else if type == Set<AnyHashable>.self, let set = value as? Set<AnyHashable> {
                value = ()
                pending.append(contentsOf: set.map(\.base))
            } else if type == ArchivedCountedSet.self, let counted = value as? ArchivedCountedSet {
                value = ()
                pending.append(contentsOf: counted.members.map(\.base))
            }
        }
    }

    /// A weak reference to this object (the object itself when it is one), made once.
    var weakReference: ArchivedObject {
        if referentID != nil { return self }
        if let cached = weakReferenceCache { return cached }
        let reference = ArchivedObject(weakReferenceTo: self)
        weakReferenceCache = reference
        return reference
    }

    /// `$classname`.
    public var className: String { archivedClass.name }
    /// `$classes`: the class and its superclasses, most specific first.
    public var classChain: [String] { archivedClass.chain }

    /// The value for `key`, nil when absent (a `$null` reference is stored as absent too).
    public subscript(key: String) -> Any? {
        resolved?.ownValues[key]
    }

    /// Sets a value while decoding, keeping the first position of a key.
    func set(_ value: Any?, forKey key: String) {
        if ownValues[key] == nil && !ownKeys.contains(key) { ownKeys.append(key) }
        ownValues[key] = value
    }

    /// The identity of the object that owns the values.
    private var identity: ObjectIdentifier { referentID ?? ObjectIdentifier(self) }

    /// Whether the two stand for the same archived object (an object and weak references to it).
    public static func == (lhs: ArchivedObject, rhs: ArchivedObject) -> Bool {
        if lhs === rhs { return true }
        guard lhs.identity == rhs.identity, let left = lhs.resolved, let right = rhs.resolved else { return false }
        return left === right
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }

    /// `crap.Foo(title: "yo", count: 42)`, nested objects shortened to their class name.
    public var description: String {
        let parts = keys.map { key -> String in
            guard let value = values[key] else { return "\(key): nil" }
            if let object = value as? ArchivedObject { return "\(key): \(object.className)(…)" }
            return "\(key): \(String(reflecting: value))"
        }
        return "\(className)(\(parts.joined(separator: ", ")))"
    }
}
