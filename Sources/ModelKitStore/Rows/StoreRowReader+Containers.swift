import Foundation
import ModelKitCore
import ModelKitJSON

extension StoreRowReader {
    /// The JSON value at the current position: a column's text parsed, or the value inside one.
    mutating func currentJSON() throws -> JSONValue {
        switch position {
        case .row:
            throw mismatch("a value")
        case .json(let value):
            return value
        case .column(let index):
            switch row[index] {
            case .null: return .null
            case .integer(let value): return .int(value)
            case .real(let value): return .double(value)
            case .blob: throw mismatch("JSON text")
            case .text(let text):
                do {
                    return try JSONValue(parsing: text)
                } catch {
                    throw ModelError(.malformedInput, expected: "JSON text", found: ModelError.describe(text), underlying: error)
                }
            }
        }
    }

    mutating func decodeJSONValue() throws -> JSONValue {
        try currentJSON()
    }

    mutating func enter() throws {
        guard depth < options.maxDepth else {
            throw ModelError(
                .limitExceeded, expected: "nesting of at most \(options.maxDepth) levels ('maxDepth')",
                found: "deeper nesting")
        }
        depth += 1
    }

    mutating func decodeArray<T>(_ element: (inout StoreRowReader) throws -> T) throws -> [T] {
        guard case .array(let elements) = try currentJSON() else { throw mismatch("an array") }
        let saved = position
        try enter()
        defer {
            depth -= 1
            position = saved
        }
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for (index, value) in elements.enumerated() {
            position = .json(value)
            if let decoded = try decodeElement(at: index, element) { result.append(decoded) }
        }
        return result
    }

    mutating func decodeDictionary<T>(_ body: (inout StoreRowReader) throws -> T) throws -> [String: T] {
        guard case .object(let members) = try currentJSON() else { throw mismatch("an object") }
        let saved = position
        try enter()
        defer {
            depth -= 1
            position = saved
        }
        var result: [String: T] = [:]
        result.reserveCapacity(members.count)
        for member in members {
            position = .json(member.value)
            if let decoded = try decodeMember(member.key, body) { result[member.key] = decoded }
        }
        return result
    }

    /// At the row: each column through its property's leaf. Inside JSON text: each member of the
    /// object by the schema's property-key tree (members that name no property are left alone).
    mutating func decodeFields<F: ModelFieldDecoder>(of schema: ModelSchema, into fields: inout F) throws {
        let keys = schema.propertyReadingKeys
        var priorities = FieldPriorities(schema: schema, keys: keys)
        if case .row = position {
            defer { position = .row }
            for (index, column) in table.columns.enumerated() {
                guard let leaf = column.leaf else { continue }
                // NULL for a property that cannot hold nil: missing, so its default applies.
                if !column.isOptional, row[index] == .null { continue }
                position = .column(index)
                _ = try decodeLeaf(leaf, of: schema, into: &fields, priorities: &priorities)
            }
            return
        }
        guard case .object(let members) = try currentJSON() else { throw mismatch("an object") }
        let saved = position
        try enter()
        defer {
            depth -= 1
            position = saved
        }
        for member in members {
            guard let edge = keys.edge(forKey: member.key), let leaf = edge.leaves.first else { continue }
            if member.value.isNull, !schema.properties[leaf.field].isOptional { continue }
            position = .json(member.value)
            try withPathComponent(.key(member.key)) { reader in
                _ = try reader.decodeLeaf(leaf, of: schema, into: &fields, priorities: &priorities)
            }
        }
    }

    /// An identified class model is a reference: its identifier, resolved through the context.
    /// Anything else is read in place.
    mutating func decodeModel<M: Model>(_ type: M.Type) throws -> M {
        guard M.modelSchema.identifierIndex != nil, M.self is AnyObject.Type else {
            return try decodeUnidentified(M.self)
        }
        let identifier = try M.decodeModelIdentifier(from: &self)
        let context = self.context ?? ModelContext()
        self.context = context
        return try context.withLock {
            if let live = context.registeredModel(M.self, identifier: identifier) { return live }
            guard let loaded = try loader?.loadModel(M.self, identifier: identifier, into: context) else {
                throw StoreError(
                    .missingReference, table: M.modelSchema.modelName, identifier: describeCurrent(),
                    reason: "no such row in the store")
            }
            return loaded
        }
    }
}
