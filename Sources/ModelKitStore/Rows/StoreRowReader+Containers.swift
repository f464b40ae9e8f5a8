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

    // MARK: Access for the key-tree walk

    mutating func peekShape() throws -> ModelValueShape {
        switch try currentJSON() {
        case .object: return .object
        case .array: return .array
        case .null: return .null
        default: return .scalar
        }
    }

    /// At the row: each column, as the member its property names (a `NULL` column of a
    /// property that cannot hold nil is missing, so its default applies: columns added after a
    /// row was written hold `NULL`). Inside JSON text: each member of the object that `node` names.
    mutating func readMembers(
        of node: ModelKeyNode, expected: @autoclosure () -> String, _ member: (inout StoreRowReader, Int) throws -> Void
    ) throws {
        if case .row = position {
            defer { position = .row }
            for (index, column) in table.columns.enumerated() {
                guard let edge = column.readingEdge, column.isOptional || row[index] != .null else { continue }
                position = .column(index)
                try member(&self, edge)
            }
            return
        }
        guard case .object(let members) = try currentJSON() else { throw mismatch(expected()) }
        let saved = position
        try enter()
        defer {
            depth -= 1
            position = saved
        }
        for entry in members {
            guard let edge = node.edgeIndex(forKey: entry.key) else { continue }
            position = .json(entry.value)
            try member(&self, edge)
        }
    }

    mutating func readIndexedElements(
        of node: ModelKeyNode, _ element: (inout StoreRowReader, Int) throws -> Void
    ) throws -> Int {
        guard case .array(let elements) = try currentJSON() else { throw mismatch("an array") }
        let saved = position
        try enter()
        defer {
            depth -= 1
            position = saved
        }
        for (index, value) in elements.enumerated() {
            guard let edge = node.edgeByIndex[index] else { continue }
            position = .json(value)
            try element(&self, edge)
        }
        return elements.count
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
