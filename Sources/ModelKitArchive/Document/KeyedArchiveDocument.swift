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

    /// The archive's binary property list, checked: every reading goes through it, from the
    /// bytes, with no tree of values built first. (An XML archive, or a binary one the table does
    /// not read in place, is read as a tree and written as a binary property list first.)
    let table: BinaryPropertyListTable
    /// `$objects`.
    let objectsArray: BinaryPropertyListTable.Container
    /// The numbers of the keys the unarchiver looks up.
    let keys: ArchiveKeys
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
    /// For each entry, its index in `classList` when it is a class description, -1 otherwise.
    let classDescriptions: [Int32]

    /// The whole property list, read from the archive's bytes (a tree: this reads every object).
    public var propertyList: PropertyListValue { table.value(of: table.topObject) }

    /// The entries of `$objects`, each read from the archive's bytes; index 0 is `$null`.
    public var objects: [PropertyListValue] { (0..<objectCount).map(entryValue) }

    /// Reads and checks an archive in either property-list format.
    ///
    /// ```swift
    /// let document = try KeyedArchiveDocument(data: data, limits: KeyedArchiveLimits(maxObjectCount: 1_000))
    /// ```
    public init(data: Data, limits: KeyedArchiveLimits = .default) throws(KeyedArchiveError) {
        let format = PropertyListFormat.detect(data)
        if format == .binary,
           // Unsafe: the data's bytes, checked in place during the call with no copy made first; the table copies
           // them once they pass.
           let table = data.withUnsafeBytes({ BinaryPropertyListTable(validating: $0, limits: limits.propertyList) })
        {
            try self.init(table: table, format: format, limits: limits)
            return
        }
        // XML, or bytes the table does not read in place: the tree reader's value, or its error.
        let value: PropertyListValue
        do {
            value = try PropertyListValue(parsing: data, limits: limits.propertyList)
        } catch {
            throw KeyedArchiveError(.propertyList(error))
        }
        try self.init(table: Self.table(of: value), format: format, limits: limits)
    }

    /// Checks an archive already read as a property-list value.
    public init(propertyList: PropertyListValue, limits: KeyedArchiveLimits = .default) throws(KeyedArchiveError) {
        try self.init(table: Self.table(of: propertyList), format: nil, limits: limits)
    }

    /// A table over `value`, written as a binary property list. Any value is written in a form
    /// the table reads in place (distinct keys, valid strings, no cycles), within no limit: the
    /// value is in memory already.
    private static func table(of value: PropertyListValue) throws(KeyedArchiveError) -> BinaryPropertyListTable {
        // Unsafe: the bytes just written, indexed in place during the call; the table keeps a copy.
        guard let table = value.binaryBytes().withUnsafeBytes({ BinaryPropertyListTable(writtenFrom: $0) }) else {
            throw KeyedArchiveError(.invalidObjects(detail: "the property list cannot be read as an archive"))
        }
        return table
    }

    init(table: BinaryPropertyListTable, format: PropertyListFormat?, limits: KeyedArchiveLimits) throws(KeyedArchiveError) {
        let keys = ArchiveKeys(table)
        let root = table.topObject
        guard let rootDictionary = table.container(root), rootDictionary.isDictionary else {
            throw KeyedArchiveError(.rootNotDictionary(found: Self.describe(table.value(of: root))))
        }
        func member(_ key: Int32?) -> Int? {
            key.flatMap { table.object(forKey: $0, in: rootDictionary) }
        }
        guard let archiver = member(keys.archiver) else { throw KeyedArchiveError(.missingArchiver) }
        guard table.string(archiver) == Self.archiverName else {
            throw KeyedArchiveError(.wrongArchiver(found: Self.describe(table.value(of: archiver))))
        }
        guard let version = member(keys.version) else { throw KeyedArchiveError(.missingVersion) }
        let versionValue = table.value(of: version)
        guard versionValue.int64Value == Int64(Self.formatVersion) else {
            throw KeyedArchiveError(.unsupportedVersion(found: Self.describe(versionValue, quoted: false)))
        }
        guard let topObject = member(keys.top) else { throw KeyedArchiveError(.missingTop) }
        guard let topDictionary = table.container(topObject), topDictionary.isDictionary,
              case .dictionary(let top) = table.value(of: topObject)
        else {
            throw KeyedArchiveError(.invalidTop(found: Self.describe(table.value(of: topObject))))
        }
        guard let objectsObject = member(keys.objects) else { throw KeyedArchiveError(.missingObjects) }
        guard let objects = table.container(objectsObject), !objects.isDictionary else {
            let found = Self.describe(table.value(of: objectsObject))
            throw KeyedArchiveError(.invalidObjects(detail: "'$objects' is \(found), not an array"))
        }
        guard objects.count <= limits.maxObjectCount else {
            throw KeyedArchiveError(.limitExceeded(.maxObjectCount, limit: limits.maxObjectCount))
        }
        guard objects.count > 0 else {
            throw KeyedArchiveError(.invalidObjects(detail: "'$objects' is empty; object 0 must be '$null'"))
        }
        let first = table.value(at: 0, of: objects)
        guard first.stringValue == "$null" else {
            throw KeyedArchiveError(.invalidObjects(detail: "object 0 is \(Self.describe(first)), not '$null'"))
        }
        self.table = table
        self.objectsArray = objects
        self.keys = keys
        self.top = top
        self.format = format
        var checker = StructureChecker(table: table, objects: objects, keys: keys)
        try checker.checkReferences(in: topDictionary, objectID: nil)
        try checker.checkObjects()
        self.classIndexes = checker.classIndexes
        self.classList = checker.classList
        self.classKinds = checker.classList.map { FoundationClass(chain: $0.chain) }
        self.classDescriptions = checker.classDescriptions
    }

    /// The keys of `$top`, in document order, as stored (a key that starts with `$` is escaped
    /// with a second `$`).
    public var topKeys: [String] { top.keys }

    /// The number of entries in `$objects`.
    public var objectCount: Int { objectsArray.count }

    /// The property-list object of entry `uid` (in range).
    @inline(__always)
    func entryObject(_ uid: Int) -> Int {
        table.reference(objectsArray, uid)
    }

    /// Entry `uid` as a value (an object's dictionary, a string, ...); `.null` out of range.
    func entryValue(_ uid: Int) -> PropertyListValue {
        guard uid >= 0, uid < objectCount else { return .null }
        return table.value(of: entryObject(uid))
    }

    /// What entry `uid` is; an index outside `$objects` reads as `.null` (references were
    /// checked when the document was made).
    public func entry(_ uid: Int) -> Entry {
        guard uid > 0, uid < objectCount else { return .null }
        let classIndex = classIndexes[uid]
        if classIndex >= 0, case .dictionary(let dictionary) = entryValue(uid) {
            return .object(classList[Int(classIndex)], dictionary)
        }
        if classDescriptions[uid] >= 0 { return .classDescription(classList[Int(classDescriptions[uid])]) }
        return .value(entryValue(uid))
    }

    /// The class of object `uid`, when it is an object.
    public func archivedClass(of uid: Int) -> ArchivedClass? {
        guard uid > 0, uid < objectCount, classIndexes[uid] >= 0 else { return nil }
        return classList[Int(classIndexes[uid])]
    }

    /// The Foundation class object `uid` reads as, when it is an object of one.
    @inline(__always)
    func foundationKind(of uid: Int) -> FoundationClass? {
        guard uid > 0, uid < classIndexes.count else { return nil }
        let index = classIndexes[uid]
        return index >= 0 ? classKinds[Int(index)] : nil
    }

    /// The dictionary of object `uid`, when it is an object.
    @inline(__always)
    func objectDictionary(_ uid: Int) -> BinaryPropertyListTable.Container? {
        guard uid > 0, uid < classIndexes.count, classIndexes[uid] >= 0 else { return nil }
        return table.container(entryObject(uid))
    }

    /// The property-list object that object `uid` holds under `key` (a key number of ``keys``).
    func member(_ key: Int32?, ofObject uid: Int) -> Int? {
        guard let key, let dictionary = objectDictionary(uid) else { return nil }
        return table.object(forKey: key, in: dictionary)
    }

    /// The number of `key` in the archive (nil: no object has it); Foundation's keys without
    /// hashing.
    func keyID(for key: String) -> Int32? {
        switch key {
        case "NS.objects": return keys.nsObjects
        case "NS.keys": return keys.nsKeys
        case "$class": return keys.classReference
        default: return table.keyID(for: key)
        }
    }

    /// The value that object `uid` holds under `key`.
    func memberValue(_ key: Int32?, ofObject uid: Int) -> PropertyListValue? {
        member(key, ofObject: uid).map { table.value(of: $0) }
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
