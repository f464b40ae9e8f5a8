import Foundation
import ModelKitCore
import ModelKitPropertyList

/// Writes one value of a keyed archive: ModelKit's `ModelWriter` for `NSKeyedArchiver` archives.
///
/// A writer stands at one position: a key of an object (where numbers and booleans are written
/// inline, as `NSCoder`'s `encodeInt:forKey:` does) or an element of a collection (where every
/// value is an object reference). Swift values become the Foundation objects Apple writes:
/// strings, numbers and data are plain values (written once per distinct value), dates `NSDate`,
/// URLs `NSURL`, UUIDs `NSUUID`, arrays `NSArray`, sets `NSSet`, dictionaries `NSDictionary`, and
/// models objects of their own class whose keys are their property keys. Class instances are
/// written once, however often they are referenced.
///
/// You rarely use it directly; ``KeyedArchiver`` creates writers:
///
/// ```swift
/// let archiver = KeyedArchiver()
/// try archiver.encode(document, forKey: "root")   // runs a KeyedArchiveWriter over `document`
/// ```
public struct KeyedArchiveWriter: ModelWriter {
    public let mapping = ModelSchema.Mapping.propertyKeys
    public var options: MappingOptions { state.options }

    let state: ArchiveEncodingState
    /// What was written: an inline value, or a reference.
    var result: WrittenValue = .reference(0)
    /// At a key of an object: numbers and booleans inline, nil as `$null`.
    let isInline: Bool
    /// Write a class instance only if something else writes it unconditionally.
    var isConditional = false
    /// How many objects enclose this position.
    let depth: Int
    /// The delegate already chose this value: write it as it is.
    var skipsDelegate = false
    /// The keys and values of the object the key-tree walk is writing member by member.
    var members: (keys: [String], values: [WrittenValue])?

    init(state: ArchiveEncodingState, inline: Bool, conditional: Bool = false, depth: Int) {
        self.state = state
        self.isInline = inline
        self.isConditional = conditional
        self.depth = depth
    }

    /// A writer for an element of a collection one level down.
    func elementWriter() -> KeyedArchiveWriter {
        KeyedArchiveWriter(state: state, inline: false, depth: depth + 1)
    }

    // MARK: Scalars

    public mutating func encodeNil() throws {
        result = .reference(isInline ? 0 : state.nullObjectSlot())
    }

    public mutating func encodeBool(_ value: Bool) throws {
        result = isInline ? .bool(value) : .reference(state.boolSlot(value))
    }

    public mutating func encodeString(_ value: String) throws {
        result = .reference(state.stringSlot(value))
    }

    public mutating func encodeInt64(_ value: Int64) throws {
        let integer = PropertyListInteger(value)
        result = isInline ? .integer(integer) : .reference(state.integerSlot(integer))
    }

    public mutating func encodeUInt64(_ value: UInt64) throws {
        let integer = PropertyListInteger(value)
        result = isInline ? .integer(integer) : .reference(state.integerSlot(integer))
    }

    public mutating func encodeDouble(_ value: Double) throws {
        let real = PropertyListReal(value)
        result = isInline ? .real(real) : .reference(state.realSlot(real))
    }

    public mutating func encodeData(_ value: Data) throws {
        result = .reference(state.dataSlot(value))
    }

    public mutating func encodeDate(_ value: Date) throws {
        let slot = state.reserveSlot()
        writeDate(value, into: slot)
        result = .reference(slot)
    }

    public mutating func encodeUUID(_ value: UUID) throws {
        let slot = state.reserveSlot()
        state.setEntry(uuidEntry(value), at: slot)
        result = .reference(slot)
    }

    public mutating func encodeURL(_ value: URL) throws {
        let slot = state.reserveSlot()
        try writeURL(value, into: slot)
        result = .reference(slot)
    }

    /// Writes an `NSDate` object into `slot`: seconds since 2001 (`NS.time`).
    func writeDate(_ value: Date, into slot: Int) {
        let time = state.output.pointee.scalarObject(.real(PropertyListReal(value.timeIntervalSinceReferenceDate)))
        state.setObject(at: slot, keys: state.timeKeys, classSlot: state.dateClassSlot(), time)
    }

    /// An `NSUUID` object: the 16 bytes (`NS.uuidbytes`).
    func uuidEntry(_ value: UUID) -> PropertyListValue {
        // Unsafe: the sixteen bytes of `uuid_t` (sixteen `UInt8`s, no padding), copied into the data in one go.
        let bytes = withUnsafeBytes(of: value.uuid) { Data($0) }
        return state.objectEntry(sharedKeys: ArchiveEncodingState.uuidKeys, classSlot: state.classSlot(.nsUUID), .data(bytes))
    }

    public mutating func encodeDecimal(_ value: Decimal) throws {
        let slot = state.reserveSlot()
        let (keys, values) = DecimalCoding.fields(of: value)
        state.setEntry(state.objectEntry(keys: keys, values: values, classSlot: state.classSlot(.nsDecimalNumber)), at: slot)
        result = .reference(slot)
    }

    public mutating func encodeJSONValue(_ value: JSONValue) throws {
        switch value {
        case .null: result = .reference(state.nullObjectSlot())
        case .bool(let flag): try encodeBool(flag)
        case .int(let integer): try encodeInt64(integer)
        case .uint(let integer): try encodeUInt64(integer)
        case .double(let real): try encodeDouble(real)
        case .decimal(let decimal): try encodeDecimal(decimal)
        case .string(let string): try encodeString(string)
        case .array(let elements):
            try encodeArray(elements) { writer, element in try writer.encodeJSONValue(element) }
        case .object(let members):
            try writeDictionary(keys: members.map(\.key), values: members.map(\.value)) { writer, member in
                try writer.encodeJSONValue(member)
            }
        }
    }

    public mutating func encodeCodable<T: Encodable>(_ value: T) throws {
        try encodeAny(try CodableBridge.foundationObject(encoding: value))
    }

    /// The archive's own errors keep their kind, with the model and key named.
    public func fieldError(_ error: any Error, field index: Int, of schema: ModelSchema) -> any Error {
        KeyedArchiveError.field(error, index, of: schema, objectID: nil)
    }

    // MARK: Collections

    public mutating func encodeArray<C: Collection>(_ elements: C, _ element: (inout Self, C.Element) throws -> Void)
        throws
    {
        let slot = state.reserveSlot()
        let count = elements.count
        // Unsafe: the elements' references on the stack where they fit, not an array per collection; `Int32` needs no
        // deinitializing, and only the first `inPlace` or `index` slots, each written, are handed to `array`, which
        // copies them during the call.
        let array = try withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { references in
            // An array's elements in place: unspecialised, each step of a generic collection's
            // index is a witness call, and each element read a coroutine.
            // Unsafe: `written` is at most both counts, so every read of `buffer` and write of `references` is in
            // range.
            let inPlace = try elements.withContiguousStorageIfAvailable { buffer in
                let written = min(count, buffer.count)
                for index in 0..<written { references[index] = try writeElement(buffer[index], at: index, element) }
                return written
            }
            if let inPlace { return state.output.pointee.array(UnsafeBufferPointer(rebasing: references[..<inPlace])) }
            // By index: a generic iterator's `next()` returns an optional element, whose type
            // metadata the runtime looks up on every call where this runs unspecialised.
            var index = 0
            var position = elements.startIndex
            while index < count && position != elements.endIndex {
                references[index] = try writeElement(elements[position], at: index, element)
                index += 1
                elements.formIndex(after: &position)
            }
            return state.output.pointee.array(UnsafeBufferPointer(rebasing: references[..<index]))
        }
        let classSlot = state.collectionClassSlot(isSet: state.isArchivedAsSet(C.self))
        state.setObject(at: slot, keys: state.objectsKeys, classSlot: classSlot, array)
        result = .reference(slot)
    }

    /// Writes element `index` of a collection with `element`; returns its object.
    private mutating func writeElement<T>(_ value: T, at index: Int, _ element: (inout Self, T) throws -> Void) throws -> Int32 {
        var writer = elementWriter()
        try prefixingErrors(with: .index(index)) { try element(&writer, value) }
        return state.output.pointee.object(for: writer.result)
    }

    public mutating func encodeDictionary<V>(_ dictionary: [String: V], _ value: (inout Self, V) throws -> Void) throws {
        // Sorted keys make the archive the same on every run (Swift dictionaries have no order).
        let keys = dictionary.keys.sorted()
        var values: [V] = []
        values.reserveCapacity(keys.count)
        for key in keys {
            if let member = dictionary[key] { values.append(member) }
        }
        try writeDictionary(keys: keys, values: values, value)
    }

    /// Writes an `NSDictionary` with string keys, in the given order: keys first, then values,
    /// as Apple's archiver numbers them.
    mutating func writeDictionary<V>(keys: [String], values: [V], _ value: (inout Self, V) throws -> Void) throws {
        let slot = state.reserveSlot()
        let keyReferences = keys.map { PropertyListValue.uid(UInt64(state.stringSlot($0))) }
        var valueReferences: [PropertyListValue] = []
        valueReferences.reserveCapacity(values.count)
        for (key, member) in zip(keys, values) {
            var writer = elementWriter()
            try prefixingErrors(with: .key(key)) { try value(&writer, member) }
            valueReferences.append(writer.result.propertyListValue)
        }
        state.setEntry(
            state.objectEntry(
                sharedKeys: ArchiveEncodingState.dictionaryKeys, classSlot: state.classSlot(.nsDictionary),
                .array(keyReferences), .array(valueReferences)),
            at: slot)
        result = .reference(slot)
    }

    // MARK: Sink for the key-tree walk

    /// Writes an object that the key-tree walk builds member by member as an `NSDictionary`.
    /// (Models have their own objects, written by ``encodeModel(_:)``.)
    public mutating func encodeObject(_ body: (inout KeyedArchiveWriter) throws -> Void) throws {
        let enclosing = members
        members = ([], [])
        defer { members = enclosing }
        try body(&self)
        let (keys, values) = members ?? ([], [])
        let slot = state.reserveSlot()
        let keyReferences = keys.map { PropertyListValue.uid(UInt64(state.stringSlot($0))) }
        state.setEntry(
            state.objectEntry(
                sharedKeys: ArchiveEncodingState.dictionaryKeys, classSlot: state.classSlot(.nsDictionary),
                .array(keyReferences), .array(values.map(\.propertyListValue))),
            at: slot)
        result = .reference(slot)
    }

    public mutating func encodeMember(_ edge: ModelKeyEdge, _ value: (inout KeyedArchiveWriter) throws -> Void) throws {
        var writer = elementWriter()
        try value(&writer)
        members?.keys.append(edge.key)
        members?.values.append(writer.result)
    }
}
