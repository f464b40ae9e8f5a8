import ModelKitCore

/// Writing ``JSONValue`` trees and string-keyed dictionaries with ``JSONWriter``.
///
/// Trees are written with an explicit stack, so a value nested arbitrarily deep (built in code,
/// where no parser limit applied) cannot overflow the call stack.
extension JSONWriter {
    /// Writes a whole value tree.
    ///
    /// With `.sortedKeys`, members are written in ascending order of their keys' UTF-8 bytes,
    /// duplicates in document order. Throws ``JSONWriteError`` for a NaN or infinite double.
    ///
    /// ```swift
    /// var writer = JSONWriter(options: [.prettyPrinted, .sortedKeys])
    /// try writer.write(value)
    /// ```
    public mutating func write(_ value: JSONValue) throws {
        var stack: [Frame] = []
        var pending: JSONValue? = value
        while true {
            if let current = pending {
                pending = nil
                switch current {
                case .null: writeNull()
                case .bool(let flag): writeBool(flag)
                case .int(let number): writeInt64(number)
                case .uint(let number): writeUInt64(number)
                case .double(let number): try writeDouble(number)
                case .decimal(let number): try writeNumber(text: number.description)
                case .string(let text): writeString(text)
                case .array(let elements):
                    beginArray()
                    if elements.isEmpty { endArray() } else { stack.append(Frame(elements: elements)) }
                case .object(let members):
                    beginObject()
                    if members.isEmpty {
                        endObject()
                    } else {
                        let ordered = options.contains(.sortedKeys) ? Self.sorted(members) : members
                        stack.append(Frame(members: ordered))
                    }
                }
            }
            guard let top = stack.indices.last else { return }
            let index = stack[top].index
            if stack[top].isObject {
                if index < stack[top].members.count {
                    let member = stack[top].members[index]
                    writeKey(member.key)
                    pending = member.value
                    stack[top].index = index + 1
                } else {
                    endObject()
                    stack.removeLast()
                }
            } else {
                if index < stack[top].elements.count {
                    pending = stack[top].elements[index]
                    stack[top].index = index + 1
                } else {
                    endArray()
                    stack.removeLast()
                }
            }
        }
    }

    /// Writes a dictionary of values as an object: sorted by key with `.sortedKeys`, else in
    /// the dictionary's own (unspecified) order.
    public mutating func write(_ dictionary: [String: JSONValue]) throws {
        try writeObject(dictionary) { writer, value in try writer.write(value) }
    }

    /// Writes a string-keyed dictionary as an object, each value by `writeValue`: sorted by key
    /// (UTF-8 byte order) with `.sortedKeys`, else in the dictionary's own order.
    ///
    /// ```swift
    /// writer.writeObject(counts) { writer, count in writer.writeInt64(Int64(count)) }
    /// ```
    public mutating func writeObject<Value>(
        _ dictionary: [String: Value], _ writeValue: (inout JSONWriter, Value) throws -> Void
    ) rethrows {
        beginObject()
        if options.contains(.sortedKeys) {
            let keys = dictionary.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for key in keys {
                guard let value = dictionary[key] else { continue }
                writeKey(key)
                try writeValue(&self, value)
            }
        } else {
            for (key, value) in dictionary {
                writeKey(key)
                try writeValue(&self, value)
            }
        }
        endObject()
    }

    /// One open container while writing a tree: its children and the next one to write.
    private struct Frame {
        var elements: [JSONValue] = []
        var members: [JSONMember] = []
        var isObject: Bool
        var index = 0

        init(elements: [JSONValue]) {
            self.elements = elements
            self.isObject = false
        }

        init(members: [JSONMember]) {
            self.members = members
            self.isObject = true
        }
    }

    /// `members` in ascending order of their keys' UTF-8 bytes; equal keys keep their order.
    static func sorted(_ members: [JSONMember]) -> [JSONMember] {
        var isSorted = true
        for index in members.indices.dropFirst()
        where members[index].key.utf8.lexicographicallyPrecedes(members[index - 1].key.utf8) {
            isSorted = false
            break
        }
        if isSorted { return members }
        return members.enumerated().sorted { lhs, rhs in
            let left = lhs.element.key.utf8
            let right = rhs.element.key.utf8
            if left.elementsEqual(right) { return lhs.offset < rhs.offset }
            return left.lexicographicallyPrecedes(right)
        }.map(\.element)
    }
}

extension JSONValue {
    /// This value as JSON bytes.
    ///
    /// Throws ``JSONWriteError`` for a NaN or infinite double.
    ///
    /// ```swift
    /// let data = Data(try value.jsonBytes(options: .sortedKeys))
    /// ```
    public func jsonBytes(options: JSONWriter.Options = []) throws -> [UInt8] {
        var writer = JSONWriter(options: options)
        try writer.write(self)
        return writer.bytes
    }

    /// This value as JSON text.
    ///
    /// ```swift
    /// try JSONValue.array([.int(1), .null]).jsonString() // [1,null]
    /// ```
    public func jsonString(options: JSONWriter.Options = []) throws -> String {
        String(decoding: try jsonBytes(options: options), as: UTF8.self)
    }
}
