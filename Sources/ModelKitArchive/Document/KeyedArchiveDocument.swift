import Foundation
import ModelKitCore
import ModelKitPropertyList

/// A keyed archive's structure, checked: the `$archiver`, `$version`, `$top` and `$objects` of an
/// `NSKeyedArchiver` property list, with every reference in range and every object's class
/// description well-formed.
///
/// The unarchiver decodes from a document; the `modelkit archive` tool dumps and converts one.
/// Creating a document checks the whole structure once, so a malformed archive is rejected with a
/// ``KeyedArchiveError`` before anything is decoded:
///
/// ```swift
/// let document = try KeyedArchiveDocument(data: Data(contentsOf: url))
/// document.topKeys             // ["root"]
/// document.entry(1)            // .object(ArchivedClass(name: "NSArray", ...), [...])
/// try document.propertyList.xmlData()
/// ```
public struct KeyedArchiveDocument: Sendable {
    /// `$archiver` of every keyed archive.
    public static let archiverName = "NSKeyedArchiver"
    /// `$version` of every keyed archive.
    public static let formatVersion = 100_000

    /// One entry of `$objects`.
    public enum Entry: Sendable {
        /// `$null`, entry 0: nil.
        case null
        /// A plain value: a string (`NSString`), a number (`NSNumber`), data (`NSData`), ...
        case value(PropertyListValue)
        /// An object: its class and its keyed values (`$class` included).
        case object(ArchivedClass, PropertyListDictionary)
        /// A class description (`$classname`, `$classes`), which only `$class` may refer to.
        case classDescription(ArchivedClass)
    }

    /// The whole property list, as read.
    public let propertyList: PropertyListValue
    /// The entries of `$objects`; index 0 is `$null`.
    public let objects: [PropertyListValue]
    /// `$top`: the root objects (or values) by key, in document order.
    public let top: PropertyListDictionary
    /// The format the archive was read from; nil for a document made from a value.
    public let format: PropertyListFormat?
    /// The class of each object entry (an index into `classList`), -1 for other entries.
    let classIndexes: [Int32]
    /// Every distinct class description, by the index of its entry.
    let classList: [ArchivedClass]
    /// The Foundation class each class description reads as, parallel to `classList`.
    let classKinds: [FoundationClass?]
    /// For each entry, whether it is a class description.
    let classEntries: Set<Int>

    /// Reads and checks an archive in either property-list format.
    ///
    /// ```swift
    /// let document = try KeyedArchiveDocument(data: data, limits: KeyedArchiveLimits(maxObjectCount: 1_000))
    /// ```
    public init(data: Data, limits: KeyedArchiveLimits = .default) throws(KeyedArchiveError) {
        let format = PropertyListFormat.detect(data)
        let value: PropertyListValue
        do {
            value = try PropertyListValue(parsing: data, limits: limits.propertyList)
        } catch {
            throw KeyedArchiveError(.propertyList(error))
        }
        try self.init(propertyList: value, format: format, limits: limits)
    }

    /// Checks an archive already read as a property-list value.
    public init(propertyList: PropertyListValue, limits: KeyedArchiveLimits = .default) throws(KeyedArchiveError) {
        try self.init(propertyList: propertyList, format: nil, limits: limits)
    }

    init(propertyList: PropertyListValue, format: PropertyListFormat?, limits: KeyedArchiveLimits)
        throws(KeyedArchiveError)
    {
        guard case .dictionary(let root) = propertyList else {
            throw KeyedArchiveError(.rootNotDictionary(found: Self.describe(propertyList)))
        }
        guard let archiver = root["$archiver"] else { throw KeyedArchiveError(.missingArchiver) }
        guard archiver.stringValue == Self.archiverName else {
            throw KeyedArchiveError(.wrongArchiver(found: Self.describe(archiver)))
        }
        guard let version = root["$version"] else { throw KeyedArchiveError(.missingVersion) }
        guard version.int64Value == Int64(Self.formatVersion) else {
            throw KeyedArchiveError(.unsupportedVersion(found: Self.describe(version, quoted: false)))
        }
        guard let topValue = root["$top"] else { throw KeyedArchiveError(.missingTop) }
        guard case .dictionary(let top) = topValue else {
            throw KeyedArchiveError(.invalidTop(found: Self.describe(topValue)))
        }
        guard let objectsValue = root["$objects"] else { throw KeyedArchiveError(.missingObjects) }
        guard case .array(let objects) = objectsValue else {
            throw KeyedArchiveError(.invalidObjects(detail: "'$objects' is \(Self.describe(objectsValue)), not an array"))
        }
        guard objects.count <= limits.maxObjectCount else {
            throw KeyedArchiveError(.limitExceeded(.maxObjectCount, limit: limits.maxObjectCount))
        }
        guard let first = objects.first else {
            throw KeyedArchiveError(.invalidObjects(detail: "'$objects' is empty; object 0 must be '$null'"))
        }
        guard first.stringValue == "$null" else {
            throw KeyedArchiveError(.invalidObjects(detail: "object 0 is \(Self.describe(first)), not '$null'"))
        }
        self.propertyList = propertyList
        self.objects = objects
        self.top = top
        self.format = format
        var checker = StructureChecker(objects: objects)
        try checker.checkReferences(in: top, objectID: nil)
        try checker.checkObjects()
        self.classIndexes = checker.classIndexes
        self.classList = checker.classList
        self.classKinds = checker.classList.map { FoundationClass(chain: $0.chain) }
        self.classEntries = checker.classEntries
    }

    /// The keys of `$top`, in document order, as stored (a key that starts with `$` is escaped
    /// with a second `$`).
    public var topKeys: [String] { top.keys }

    /// The number of entries in `$objects`.
    public var objectCount: Int { objects.count }

    /// What entry `uid` is; an index outside `$objects` reads as `.null` (references were
    /// checked when the document was made).
    public func entry(_ uid: Int) -> Entry {
        guard uid > 0, uid < objects.count else { return .null }
        let classIndex = classIndexes[uid]
        if classIndex >= 0, case .dictionary(let dictionary) = objects[uid] {
            return .object(classList[Int(classIndex)], dictionary)
        }
        if classEntries.contains(uid), let description = classDescription(at: uid) {
            return .classDescription(description)
        }
        return .value(objects[uid])
    }

    /// The class of object `uid`, when it is an object.
    public func archivedClass(of uid: Int) -> ArchivedClass? {
        guard uid > 0, uid < objects.count, classIndexes[uid] >= 0 else { return nil }
        return classList[Int(classIndexes[uid])]
    }

    /// The Foundation class object `uid` reads as, when it is an object of one.
    @inline(__always)
    func foundationKind(of uid: Int) -> FoundationClass? {
        guard uid > 0, uid < classIndexes.count else { return nil }
        let index = classIndexes[uid]
        return index >= 0 ? classKinds[Int(index)] : nil
    }

    func classDescription(at uid: Int) -> ArchivedClass? {
        guard case .dictionary(let dictionary) = objects[uid], let name = dictionary["$classname"]?.stringValue else {
            return nil
        }
        let chain = dictionary["$classes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return ArchivedClass(name: name, chain: chain.isEmpty ? [name] : chain)
    }

    /// A short description of a value for messages: `a string`, `'NSArchiver'`, `10000`.
    static func describe(_ value: PropertyListValue, quoted: Bool = true) -> String {
        switch value {
        case .string(let string): return quoted ? "'\(string)'" : string
        case .integer(let integer): return "\(integer)"
        case .real: return "a real"
        case .bool: return "a boolean"
        case .date: return "a date"
        case .data: return "data"
        case .array: return "an array"
        case .dictionary: return "a dictionary"
        case .uid: return "a reference"
        case .null: return "null"
        }
    }

    /// A short description of what entry `uid` is, for messages: `a string`, `an 'NSArray'`.
    func describeEntry(_ uid: Int) -> String {
        switch entry(uid) {
        case .null: return "nil"
        case .value(let value):
            switch value {
            case .string: return "a string"
            case .integer: return "an integer"
            case .real: return "a real"
            case .bool: return "a boolean"
            default: return Self.describe(value)
            }
        case .object(let archivedClass, _): return "an object of class '\(archivedClass.name)'"
        case .classDescription(let archivedClass): return "the class description of '\(archivedClass.name)'"
        }
    }
}

/// A class as an archive names it: the class name and its chain of class names, the class
/// itself first (`$classname`, `$classes`).
///
/// ```swift
/// ArchivedClass(name: "NSMutableArray", chain: ["NSMutableArray", "NSArray", "NSObject"])
/// ```
public struct ArchivedClass: Hashable, Sendable, CustomStringConvertible {
    /// `$classname`.
    public let name: String
    /// `$classes`: the class and its superclasses, most specific first.
    public let chain: [String]

    /// Creates a class description.
    public init(name: String, chain: [String]) {
        self.name = name
        self.chain = chain
    }

    public var description: String { name }
}
