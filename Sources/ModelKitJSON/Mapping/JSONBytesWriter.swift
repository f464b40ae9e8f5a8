import Foundation
import ModelKitCore

/// Writes models straight to JSON bytes, walking each schema's key tree; keys are escaped once
/// per type, not once per write.
///
/// Nil properties are written as `null` or left out (`MappingOptions.nilEncoding`); with
/// `.omit`, keys are held back until a value is written for them, so nested paths whose values
/// are all nil disappear too.
///
/// ```swift
/// let data = try user.jsonData(formatting: [.prettyPrinted, .sortedKeys])
/// ```
public struct JSONBytesWriter: ModelWriter {
    public let mapping: ModelSchema.Mapping
    public let options: MappingOptions
    /// The JSON written so far.
    public var writer: JSONWriter
    /// A key not written yet, in `.omit` mode: written when a value follows it, dropped when
    /// the value is nil.
    // @usableFromInline: set and cleared by the inlinable encodeNil() and the two encodeMember
    // overloads.
    @usableFromInline var pendingKey: PendingKey?
    /// Whether `pendingKey` holds a key: a plain flag, so the check before every value costs
    /// no optional-enum copy.
    // @usableFromInline: checked by the inlinable flush() before every value, set by the
    // encodeMember overloads.
    @usableFromInline var hasPendingKey = false
    // @usableFromInline: counted by the inlinable encodeArray, encodeDictionary and encodeObject.
    @usableFromInline var depth = 0
    // @usableFromInline: read by the inlinable encodeMember overloads for every member.
    @usableFromInline let omitsNils: Bool
    // @usableFromInline: no inlinable body uses this (only encodeDate(_:), out of line, does): a
    // candidate for removal.
    @usableFromInline var scratch: [UInt8] = []

    // @usableFromInline: the type of `pendingKey`, whose cases the inlinable encodeMember overloads
    // make.
    @usableFromInline
    enum PendingKey {
        case edge(ModelKeyEdge)
        case name(String)
    }

    /// A writer producing JSON formatted as `formatting` says.
    public init(
        formatting: JSONWriter.Options = [], mapping: ModelSchema.Mapping = .remote, options: MappingOptions = .default,
        capacity: Int = 1024
    ) {
        self.mapping = mapping
        var formatting = formatting
        var options = options
        if options.sortsKeys { formatting.insert(.sortedKeys) }
        if formatting.contains(.sortedKeys) { options.sortsKeys = true }
        self.writer = JSONWriter(options: formatting, capacity: capacity)
        self.options = options
        self.omitsNils = options.nilEncoding == .omit
    }

    /// Writes the key held back, now that a value follows it.
    // @inlinable: called before every value by the inlinable encode methods; its common case, no
    // key held back, is one compare.
    @inlinable @inline(__always)
    mutating func flush() {
        if hasPendingKey { writePendingKey() }
    }

    // @usableFromInline: called by the inlinable flush() when a key was held back (nil omission);
    // rare, so out of line.
    @usableFromInline
    mutating func writePendingKey() {
        hasPendingKey = false
        guard let key = pendingKey else { return }
        pendingKey = nil
        switch key {
        case .edge(let edge): writeKey(edge)
        case .name(let name): writer.writeKey(name)
        }
    }

    // @inlinable: called for every member by the inlinable encodeMember(_:_:), writing the key the
    // schema escaped once per type; always inlined, as a call cost more than the copy of a short
    // key (callgrind, json.serde.citm.compact.encode).
    @inlinable @inline(__always)
    mutating func writeKey(_ edge: ModelKeyEdge) {
        if let quoted = edge.quotedKey {
            writer.writeKey(wordPadded: quoted.bytes)
        } else {
            writer.writeKey(edge.key)
        }
    }

    // @usableFromInline: called by the inlinable encodeArray, encodeDictionary and encodeObject;
    // the depth check rarely fails, so it stays out of line.
    @usableFromInline
    mutating func enter() throws {
        try checkNesting(depth, options.maxDepth)
        depth &+= 1
    }

    // MARK: Scalars

    // @inlinable: the ModelWriter witness for every nil (Optional.write(to:), the key-tree walk),
    // specialised for this writer in the encoding module.
    @inlinable
    public mutating func encodeNil() throws {
        if hasPendingKey {
            hasPendingKey = false
            pendingKey = nil
            return
        }
        writer.writeNull()
    }

    // @inlinable: the ModelWriter witness for every Bool, called from ModelKitCore's generic
    // writers specialised for this writer; JSONWriter's single store is compiled into them.
    @inlinable
    public mutating func encodeBool(_ value: Bool) throws {
        flush()
        writer.writeBool(value)
    }

    // @inlinable: the ModelWriter witness for every String, called from ModelKitCore's generic
    // writers specialised for this writer.
    @inlinable
    public mutating func encodeString(_ value: String) throws {
        flush()
        writer.writeString(value)
    }

    // @inlinable: the ModelWriter witness for every signed integer, called from ModelKitCore's
    // generic writers specialised for this writer.
    @inlinable
    public mutating func encodeInt64(_ value: Int64) throws {
        flush()
        writer.writeInt64(value)
    }

    // @inlinable: the ModelWriter witness for every unsigned integer, called from ModelKitCore's
    // generic writers specialised for this writer.
    @inlinable
    public mutating func encodeUInt64(_ value: UInt64) throws {
        flush()
        writer.writeUInt64(value)
    }

    // @inlinable: the ModelWriter witness for every Double and Float, called from ModelKitCore's
    // generic writers specialised for this writer.
    @inlinable
    public mutating func encodeDouble(_ value: Double) throws {
        guard value.isFinite else { throw ModelError(.invalidValue, expected: "a finite number", found: "\(value)") }
        flush()
        try writer.writeDouble(value)
    }

    public mutating func encodeDecimal(_ value: Decimal) throws {
        flush()
        try writer.writeNumber(text: value.description)
    }

    public mutating func encodeDate(_ value: Date) throws {
        flush()
        scratch.removeAll(keepingCapacity: true)
        DateCoding.appendISO8601(value, to: &scratch)
        // Unsafe: the date's ISO 8601 bytes are written from the reused scratch array where they
        // lie; no String is made.
        scratch.withUnsafeBytes { writer.writeString(utf8: $0) }
    }

    public mutating func encodeData(_ value: Data) throws { try encodeString(value.base64EncodedString()) }
    public mutating func encodeURL(_ value: URL) throws { try encodeString(value.absoluteString) }
    public mutating func encodeUUID(_ value: UUID) throws { try encodeString(value.uuidString) }

    public mutating func encodeJSONValue(_ value: JSONValue) throws {
        flush()
        try writer.write(value)
    }

    public mutating func encodeCodable<T: Encodable>(_ value: T) throws {
        let data = try CodableBridge.encode(value)
        try encodeJSONValue(try JSONValue(parsing: data))
    }

    // MARK: Containers

    // @inlinable: the ModelWriter witness for every array and the key-tree walk's index paths;
    // generic over the collection, so compiled where `C` is known, with the element closure
    // inlined.
    @inlinable
    public mutating func encodeArray<C: Collection>(
        _ elements: C, _ element: (inout JSONBytesWriter, C.Element) throws -> Void
    ) throws {
        try enter()
        flush()
        if elements.isEmpty {
            writer.writeEmptyArray()
            depth &-= 1
            return
        }
        writer.beginArray()
        var index = 0
        for value in elements {
            try prefixingErrors(with: .index(index)) { try element(&self, value) }
            index &+= 1
        }
        writer.endArray()
        depth &-= 1
    }

    // @inlinable: the ModelWriter witness for every dictionary; generic over the value, so compiled
    // where `V` is known, with `body` inlined into the member loop.
    @inlinable
    public mutating func encodeDictionary<V>(
        _ dictionary: [String: V], _ body: (inout JSONBytesWriter, V) throws -> Void
    ) throws {
        try enter()
        flush()
        writer.beginObject()
        if writer.options.contains(.sortedKeys) {
            for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
                try encodeMember(key, value, body)
            }
        } else {
            // In the dictionary's own order: no array of keys, no second lookup per key.
            for (key, value) in dictionary {
                try encodeMember(key, value, body)
            }
        }
        writer.endObject()
        depth &-= 1
    }

    /// Writes one member of a dictionary: its key (held back when a nil value is left out),
    /// then its value, with the key on the path of what it throws.
    // @inlinable: called per member by the inlinable encodeDictionary; generic over the value, so
    // compiled with it.
    @inlinable
    mutating func encodeMember<V>(_ key: String, _ value: V, _ body: (inout JSONBytesWriter, V) throws -> Void) throws {
        if omitsNils {
            pendingKey = .name(key)
            hasPendingKey = true
        } else {
            writer.writeKey(key)
        }
        try prefixingErrors(with: .key(key)) { try body(&self, value) }
    }

    // MARK: Sink for the key-tree walk

    // @inlinable: the ModelWriter witness the key-tree walk calls for every member of a plain
    // object; always inlined, as encodeObject(_:), with the key copied from the member's words and
    // no access to the edge but for a key that needs escaping or a nil left out.
    @inlinable @inline(__always)
    public mutating func encodePlainMember(_ member: ModelPlainMember, _ value: (inout JSONBytesWriter) throws -> Void) throws {
        guard !omitsNils, let quoted = member.quotedKey else { return try encodeMemberOutOfLine(member, value) }
        writer.writeKey(wordPadded: quoted.bytes)
        try value(&self)
    }

    /// ``encodeMember(_:_:)`` with the member's edge, as a call: nils left out and keys that need
    /// escaping, kept out of the model walks that inline the common path.
    // @usableFromInline: called by the inlinable encodePlainMember(_:_:) off its common path.
    @usableFromInline @inline(never)
    mutating func encodeMemberOutOfLine(_ member: ModelPlainMember, _ value: (inout JSONBytesWriter) throws -> Void) throws {
        try encodeMember(member.edge.takeUnretainedValue(), value)
    }

    // @inlinable: the ModelWriter witness the key-tree walk calls for every object; compiled into
    // the walk for this writer, with the members closure inlined (always: when the compiler chose,
    // it left it out of line with the closure as a context, 56 instructions per object more).
    @inlinable @inline(__always)
    public mutating func encodeObject(_ members: (inout JSONBytesWriter) throws -> Void) throws {
        try enter()
        flush()
        writer.beginObject()
        try members(&self)
        writer.endObject()
        depth &-= 1
    }

    // @inlinable: the ModelWriter witness the key-tree walk calls for every member; compiled into
    // the walk for this writer, with the value closure inlined (always, as encodeObject(_:)).
    @inlinable @inline(__always)
    public mutating func encodeMember(_ edge: ModelKeyEdge, _ value: (inout JSONBytesWriter) throws -> Void) throws {
        guard omitsNils else {
            writeKey(edge)
            return try value(&self)
        }
        pendingKey = .edge(edge)
        hasPendingKey = true
        try value(&self)
        if hasPendingKey {
            hasPendingKey = false
            pendingKey = nil
        }
    }
}
