import ModelKitCore

/// An object of a class the unarchiver does not know: its class chain and its keyed values,
/// decoded as plain Swift values.
///
/// Generic decoding (``KeyedUnarchiver/decodeObject(forKey:)``) returns one for every class that
/// is neither a Foundation class nor registered, so any archive can be read and inspected
/// without creating types from names in the file. Objects are shared like the originals: two
/// references to one archived object give one `ArchivedObject`, and cycles are kept.
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
    /// The keys, unescaped, in archive order (`$class` excluded; unkeyed values are `$0`, `$1`, ...).
    public private(set) var keys: [String]
    /// The values by key: strings, numbers, `Bool`, `Data`, dates, arrays, dictionaries, models,
    /// `NSNull` for null inside collections, other `ArchivedObject`s.
    public private(set) var values: [String: Any]

    /// Creates an object to archive, with its keys in order.
    ///
    /// ```swift
    /// let object = ArchivedObject(className: "Legacy", values: [("name", "x"), ("count", 3)])
    /// try archiver.encodeObject(object, forKey: "root")
    /// ```
    public init(className: String, classChain: [String]? = nil, values: [(String, Any)] = []) {
        self.archivedClass = ArchivedClass(name: className, chain: classChain ?? [className, "NSObject"])
        self.keys = values.map(\.0)
        self.values = Dictionary(values, uniquingKeysWith: { _, last in last })
        if self.keys.count != self.values.count {
            var seen = Set<String>()
            self.keys = self.keys.filter { seen.insert($0).inserted }
        }
    }

    init(archivedClass: ArchivedClass) {
        self.archivedClass = archivedClass
        self.keys = []
        self.values = [:]
    }

    /// `$classname`.
    public var className: String { archivedClass.name }
    /// `$classes`: the class and its superclasses, most specific first.
    public var classChain: [String] { archivedClass.chain }

    /// The value for `key`, nil when absent (a `$null` reference is stored as absent too).
    public subscript(key: String) -> Any? {
        values[key]
    }

    /// Sets a value while decoding, keeping the first position of a key.
    func set(_ value: Any?, forKey key: String) {
        if values[key] == nil && !keys.contains(key) { keys.append(key) }
        values[key] = value
    }

    public static func == (lhs: ArchivedObject, rhs: ArchivedObject) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

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
