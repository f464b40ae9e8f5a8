import Foundation
import ModelKitCore
import ModelKitPropertyList

/// Reads one value of a keyed archive: ModelKit's `ModelReader` for `NSKeyedArchiver` archives.
///
/// A reader stands at a value: an inline value under a key, or a reference to an entry of
/// `$objects`. It reads the Foundation objects Apple writes back as Swift values (`NSString`,
/// `NSNumber`, `NSData`, `NSDate`, `NSUUID`, `NSURL`, `NSArray`, `NSSet`, `NSOrderedSet`,
/// `NSDictionary`, `NSNull`, `NSDecimalNumber`) and models from objects of their class. Numbers
/// follow Apple's coercion rules: any integer width reads as any other (a value that does not fit
/// is a range error), `Float` and `Double` read each other, and an integer read as a
/// floating-point number (or a string read as a number) is a type error.
///
/// You rarely use it directly; ``KeyedUnarchiver`` creates readers:
///
/// ```swift
/// let unarchiver = try KeyedUnarchiver(data: data)
/// let document = try unarchiver.decode(Document.self, forKey: "root")
/// ```
public struct KeyedArchiveReader: ModelReader {
    public let mapping = ModelSchema.Mapping.propertyKeys
    public var options: MappingOptions { state.options }
    public var flags: MappingFlags { state.flags }
    public var collectedProblems: [ModelError] = []

    let state: ArchiveDecodingState
    /// The value the reader is at: inline, or `.uid` of an entry.
    var position: PropertyListValue
    /// How many objects enclose this position.
    var depth: Int
    /// Set while the reader is at a model property's own value (not inside it).
    var field: FieldContext?
    /// The model object whose fields the key-tree walk is reading, with its reading facts.
    var fieldsOf: (uid: Int, info: ModelReadInfo)?

    /// The property whose value the reader is at, for closing cycles.
    struct FieldContext {
        /// The object whose property this is.
        let owner: Int
        /// The owner's schema.
        let schema: ObjectIdentifier
        /// The property's index in the owner's schema.
        let index: Int
        /// Whether the property can be set after its owner exists (optional, settable, of a class).
        let canDefer: Bool
    }

    init(state: ArchiveDecodingState, position: PropertyListValue, depth: Int) {
        self.state = state
        self.position = position
        self.depth = depth
    }

    // MARK: Resolving

    /// What the reader is at, as far as its kind goes: nil, a plain value (inline, or a
    /// referenced plain entry), an object of a class, or a class description.
    enum Resolved {
        case null
        case value(PropertyListValue)
        case object(ArchivedClass)
        case classDescription(ArchivedClass)
    }

    /// The entry the reader is at: an inline value stands for itself.
    func resolved() -> Resolved {
        switch position {
        case .uid(let reference):
            let uid = Int(truncatingIfNeeded: reference)
            let document = state.document
            guard uid > 0, uid < document.objectCount else { return .null }
            if let archivedClass = document.archivedClass(of: uid), document.objectDictionary(uid) != nil {
                return .object(archivedClass)
            }
            if document.classDescriptions[uid] >= 0 { return .classDescription(document.classList[Int(document.classDescriptions[uid])]) }
            return .value(document.entryValue(uid))
        case .null: return .null
        default: return .value(position)
        }
    }

    /// The plain value the reader is at (inline, or a referenced plain entry).
    @inline(__always)
    func plainValue() -> PropertyListValue? {
        switch position {
        case .uid(let reference):
            let uid = Int(truncatingIfNeeded: reference)
            guard uid > 0, uid < state.objectCount else { return nil }
            let object = state.entryObject(uid)
            // A pattern, not `==`: the optional kind's `==` went through the generic Equatable
            // witness for every string read.
            if case .dictionary? = state.table.kind(of: object) { return nil }
            return state.table.value(of: object)
        case .null: return nil
        default: return position
        }
    }

    /// The entry the reader's position refers to, when it is a reference (not checked to be in
    /// range: what the caller looks it up in checks that).
    @inline(__always)
    var referencedEntry: Int? {
        guard case .uid(let reference) = position else { return nil }
        return Int(truncatingIfNeeded: reference)
    }

    /// The object the reader is at, when it is one: its entry, of a class.
    @inline(__always)
    func object() -> Int? {
        guard let uid = referencedEntry else { return nil }
        return state.objectDictionary(uid) != nil ? uid : nil
    }

    /// The class name of object `uid`, for messages.
    func className(of uid: Int) -> String {
        state.archivedClass(of: uid)?.name ?? "?"
    }

    /// A type mismatch naming what the reader is at.
    func mismatch(_ expected: String) -> ModelError {
        ModelError.mismatch(expected: expected, found: describePosition())
    }

    /// A short picture of the value the reader is at, for error messages.
    func describePosition() -> String {
        switch resolved() {
        case .null: return "null"
        case .value(let value): return Self.describe(value)
        case .object(let archivedClass): return "an object of class '\(archivedClass.name)'"
        case .classDescription(let archivedClass): return "the class description of '\(archivedClass.name)'"
        }
    }

    static func describe(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let string): return ModelError.quoted(string)
        case .integer(let integer): return "\(integer)"
        case .real(let real): return "\(real.doubleValue)"
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let date): return "a date (\(date.timeIntervalSinceReferenceDate))"
        case .data(let data): return "data of \(data.count) bytes"
        case .array(let elements): return "an array of \(elements.count) element\(elements.count == 1 ? "" : "s")"
        case .dictionary(let dictionary): return "a dictionary of \(dictionary.count) key\(dictionary.count == 1 ? "" : "s")"
        case .uid(let reference): return "a reference to object \(reference)"
        case .null: return "null"
        }
    }

    /// Enters object `uid`: checks the depth, the decoding budget and cycles, and marks it.
    mutating func enter(_ uid: Int, what: @autoclosure () -> String) throws {
        guard depth < state.limits.maxDepth else {
            throw KeyedArchiveError(.limitExceeded(.maxDepth, limit: state.limits.maxDepth), objectID: uid)
        }
        try state.countDecoding()
        if state.status[uid] == .inProgress {
            throw KeyedArchiveError(
                .unresolvableCycle(
                    detail: "through \(what()): the object contains itself, and only optional properties of classes can refer back"),
                objectID: uid)
        }
        state.status[uid] = .inProgress
        depth += 1
    }

    /// Enters object `uid`, naming it by its class in a cycle error.
    mutating func enterObject(_ uid: Int) throws {
        let state = self.state
        try enter(uid, what: "an '\(state.archivedClass(of: uid)?.name ?? "?")'")
    }

    /// Leaves object `uid`, entered with ``enter(_:what:)``.
    mutating func leave(_ uid: Int, instance: AnyObject? = nil) {
        if let instance {
            state.instances[uid] = instance
            state.status[uid] = .done
        } else {
            state.status[uid] = .idle
        }
        depth -= 1
    }

    // MARK: Scalars

    public mutating func decodeNil() throws -> Bool {
        switch position {
        case .uid(let reference):
            let uid = Int(truncatingIfNeeded: reference)
            if uid == 0 { return true }
            guard uid < state.objectCount, state.classIndexes[uid] >= 0 else { return false }
            if state.isNull(uid) { return true }
            if let field, field.canDefer {
                let status = state.status[uid]
                if status == .inProgress || (status == .idle && depth >= ArchiveDecodingState.deferralDepth) {
                    state.fixups.append(.model(owner: field.owner, schema: field.schema, field: field.index, target: uid))
                    return true
                }
            }
            return false
        case .null:
            return true
        default:
            return false
        }
    }

    public mutating func decodeBool() throws -> Bool {
        if case .bool(let flag) = plainValue() { return flag }
        throw mismatch("a boolean")
    }

    public mutating func decodeString() throws -> String {
        if let uid = referencedEntry, let string = state.string(uid) { return string }
        if case .string(let string) = plainValue() { return string }
        if let uid = object(), state.foundationKind(of: uid)?.isString == true {
            try enterObject(uid)
            defer { leave(uid) }
            return try nested(member(keys.nsString, of: uid) ?? .null) { try $0.decodeString() }
        }
        throw mismatch("a string")
    }

    public mutating func decodeInt64() throws -> Int64 {
        switch plainValue() {
        case .integer(let integer):
            guard let value = integer.int64Value else { throw integerRange("Int64", "\(integer)") }
            return value
        default:
            throw mismatch("an integer")
        }
    }

    public mutating func decodeUInt64() throws -> UInt64 {
        switch plainValue() {
        case .integer(let integer):
            guard let value = integer.uint64Value else { throw integerRange("UInt64", "\(integer)") }
            return value
        default:
            throw mismatch("an integer")
        }
    }

    public mutating func decodeDouble() throws -> Double {
        if case .real(let real) = plainValue() { return real.doubleValue }
        throw mismatch("a floating-point number")
    }

    public mutating func decodeDecimal() throws -> Decimal {
        switch plainValue() {
        case .integer(let integer):
            if let value = integer.int64Value { return Decimal(value) }
            if let value = integer.uint64Value { return Decimal(value) }
        case .real(let real):
            return Decimal(real.doubleValue)
        default:
            break
        }
        if let uid = object(), state.foundationKind(of: uid) == .decimalNumber {
            guard let decimal = DecimalCoding.decimal(from: state.dictionary(of: uid)) else {
                throw invalid(uid, "its mantissa, exponent or length is missing or out of range")
            }
            return decimal
        }
        throw mismatch("a decimal number")
    }

    public mutating func decodeDate() throws -> Date {
        // An `NSDate` object first, from its class alone (an object entry is a dictionary): the
        // common case, where looking for a plain date read the entry's object twice.
        if let uid = referencedEntry, state.foundationKind(of: uid) == .date {
            guard let time = member(keys.nsTime, of: uid)?.doubleValue, time.isFinite else {
                throw invalid(uid, "'NS.time' is missing or not a finite number")
            }
            return Date(timeIntervalSinceReferenceDate: time)
        }
        if case .date(let date) = plainValue() { return date }
        throw mismatch("a date")
    }

    public mutating func decodeData() throws -> Data {
        if case .data(let data) = plainValue() { return data }
        if let uid = object(), state.foundationKind(of: uid)?.isData == true {
            try enterObject(uid)
            defer { leave(uid) }
            return try nested(member(keys.nsData, of: uid) ?? .null) { try $0.decodeData() }
        }
        throw mismatch("data")
    }

    public mutating func decodeUUID() throws -> UUID {
        if let uid = object(), state.foundationKind(of: uid) == .uuid {
            guard let bytes = member(keys.nsUUIDBytes, of: uid)?.dataValue, bytes.count == 16 else {
                throw invalid(uid, "'NS.uuidbytes' is missing or not 16 bytes")
            }
            var uuid = UUID().uuid
            // Unsafe: `uuid_t` is sixteen bytes, and `bytes` was checked to hold sixteen: copied in one go, not
            // byte by byte into the tuple's fields.
            withUnsafeMutableBytes(of: &uuid) { $0.copyBytes(from: bytes) }
            return UUID(uuid: uuid)
        }
        throw mismatch("a UUID")
    }

    public mutating func decodeURL() throws -> URL {
        guard let uid = object(), state.foundationKind(of: uid) == .url else {
            throw mismatch("a URL")
        }
        let relative = try nested(member(keys.nsRelative, of: uid) ?? .null) { try $0.decodeString() }
        var base: URL?
        if let baseValue = member(keys.nsBase, of: uid) {
            try enter(uid, what: "the base of an 'NSURL'")
            defer { leave(uid) }
            base = try nested(baseValue) { reader in try reader.decodeNil() ? nil : reader.decodeURL() }
        }
        guard let url = URL(string: relative, relativeTo: base) else {
            throw ModelError(.invalidValue, expected: "a valid URL", found: ModelError.quoted(relative))
        }
        return url
    }

    /// Reads strings, numbers, booleans, `NSNull`, arrays (and sets) and string-keyed
    /// dictionaries as a JSON value; every object read counts against the decoding limit, so
    /// shared references cannot expand without bound.
    public mutating func decodeJSONValue() throws -> JSONValue {
        switch resolved() {
        case .null:
            return .null
        case .value(let value):
            switch value {
            case .string(let string): return .string(string)
            case .bool(let flag): return .bool(flag)
            case .integer(let integer):
                if let signed = integer.int64Value { return .int(signed) }
                return .uint(integer.uint64Value ?? 0)
            case .real(let real): return .double(real.doubleValue)
            default: throw mismatch("a JSON value")
            }
        case .object(let archivedClass):
            switch FoundationClass(chain: archivedClass.chain) {
            case .null?: return .null
            case .string?, .mutableString?: return .string(try decodeString())
            case let kind? where kind.isArray || kind.isSet || kind.isOrderedSet:
                return .array(try decodeArray { try $0.decodeJSONValue() })
            case let kind? where kind.isDictionary:
                let members = try decodeDictionary { try $0.decodeJSONValue() }
                return .object(members.sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value) })
            default:
                throw mismatch("a JSON value")
            }
        case .classDescription:
            throw mismatch("a JSON value")
        }
    }

    public mutating func decodeCodable<T: Decodable>(_ type: T.Type) throws -> T {
        try CodableBridge.decode(T.self, fromFoundationObject: try decodeJSONValue().foundationObject)
    }

    /// Runs `body` at `value` (a key's value inside the current object), restoring the position.
    mutating func nested<T>(_ value: PropertyListValue, _ body: (inout KeyedArchiveReader) throws -> T) rethrows -> T {
        let saved = position
        let savedField = field
        position = value
        field = nil
        defer {
            position = saved
            field = savedField
        }
        return try body(&self)
    }

    /// The value object `uid` holds under `key` (one of ``ArchiveKeys``).
    @inline(__always)
    func member(_ key: Int32?, of uid: Int) -> PropertyListValue? {
        state.memberValue(key, ofObject: uid)
    }

    /// The numbers of the keys of Foundation's objects.
    var keys: ArchiveKeys { state.keys }

    func invalid(_ uid: Int, _ detail: String) -> KeyedArchiveError {
        KeyedArchiveError(.invalidObject(className: className(of: uid), detail: detail), objectID: uid)
    }

    func integerRange(_ type: String, _ found: String) -> ModelError {
        ModelError(.numberOutOfRange, expected: "a number that fits '\(type)'", found: found)
    }

    public mutating func recover<T>(_ body: (inout KeyedArchiveReader) throws -> T) throws -> Result<T, ModelError> {
        let saved = position
        let savedField = field
        let savedDepth = depth
        do {
            return .success(try body(&self))
        } catch let error as ModelError {
            position = saved
            field = savedField
            depth = savedDepth
            return .failure(error)
        }
    }
}

extension KeyedArchiveReader {
    /// A saved position: the value the reader is at, with its depth and property context.
    public struct Mark {
        let position: PropertyListValue
        let depth: Int
        let field: FieldContext?
    }

    public func mark() -> Mark {
        Mark(position: position, depth: depth, field: field)
    }

    public mutating func reset(to mark: Mark) {
        position = mark.position
        depth = mark.depth
        field = mark.field
    }

    /// Nothing to skip: every value is reached by its own reference, and the next read starts
    /// from one of its own. Skipping must not read the value: a model object (an adjacently
    /// tagged enum's payload, met before its tag) is no JSON value.
    public mutating func skipValue() throws {}
}
