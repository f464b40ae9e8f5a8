import Foundation
import ModelKitCore
import ModelKitJSON

/// Reads a model from one stored row: a column per stored property, property keys and the
/// properties' own values (no transformers), the mirror of ``StoreRowWriter``.
///
/// A `NULL` column for a property that is not optional counts as missing, so the property's
/// default applies (columns added after a row was written hold `NULL`). A column holding JSON text
/// is parsed and read as nested values. An identified class model is read as its identifier and
/// resolved through the context: the live instance, or the stored one, loaded.
struct StoreRowReader: ModelReader {
    /// Where the reader is.
    enum Position {
        /// At the whole row, before the model's fields.
        case row
        /// At a column's value.
        case column(Int)
        /// At a value inside a column's JSON text.
        case json(JSONValue)
    }

    var mapping: ModelSchema.Mapping { .propertyKeys }
    let options: MappingOptions
    var collectedProblems: [ModelError] = []
    let row: [StoreValue]
    let table: StoreTable
    var position = Position.row
    var depth = 0
    /// Where references that are not live are loaded from.
    let loader: (any ModelLoading)?
    /// The context references resolve through: the caller's, or one made for this read.
    var context: ModelContext?

    init(row: [StoreValue], table: StoreTable, context: ModelContext?, loader: (any ModelLoading)?) {
        self.row = row
        self.table = table
        self.context = context
        self.loader = loader
        var options = MappingOptions()
        options.context = context
        self.options = options
    }

    /// The row's identifier, as the model's identifier property reads it.
    mutating func decodeIdentifier<M: Model>(_ type: M.Type) throws -> AnyHashable {
        position = .column(table.identifierColumn)
        defer { position = .row }
        return try M.decodeModelIdentifier(from: &self)
    }

    func mismatch(_ expected: String) -> ModelError {
        ModelError(.typeMismatch, expected: expected, found: describeCurrent())
    }

    func describeCurrent() -> String {
        switch position {
        case .row: return "a row"
        case .column(let index): return row[index].quotedDescription
        case .json(let value): return ModelError.describe(value)
        }
    }

    // MARK: Scalars

    mutating func decodeNil() throws -> Bool {
        switch position {
        case .row: return false
        case .column(let index): return row[index] == .null
        case .json(let value): return value.isNull
        }
    }

    mutating func decodeBool() throws -> Bool {
        switch position {
        case .column(let index):
            if case .integer(let value) = row[index] { return value != 0 }
        case .json(.bool(let value)): return value
        default: break
        }
        throw mismatch("a boolean")
    }

    mutating func decodeString() throws -> String {
        switch position {
        case .column(let index):
            if case .text(let text) = row[index] { return text }
        case .json(.string(let text)): return text
        default: break
        }
        throw mismatch("a string")
    }

    mutating func decodeInt64() throws -> Int64 {
        switch position {
        case .column(let index):
            switch row[index] {
            case .integer(let value): return value
            case .real(let value):
                if let exact = Int64(exactly: value) { return exact }
            default: break
            }
        case .json(.int(let value)): return value
        case .json(.double(let value)):
            if let exact = Int64(exactly: value) { return exact }
        default: break
        }
        throw mismatch("an integer")
    }

    mutating func decodeUInt64() throws -> UInt64 {
        if case .json(.uint(let value)) = position { return value }
        let value = try decodeInt64()
        guard let exact = UInt64(exactly: value) else {
            throw ModelError(.numberOutOfRange, expected: "a non-negative integer", found: "\(value)")
        }
        return exact
    }

    mutating func decodeDouble() throws -> Double {
        switch position {
        case .column(let index):
            switch row[index] {
            case .real(let value): return value
            case .integer(let value): return Double(value)
            default: break
            }
        case .json(.double(let value)): return value
        case .json(.int(let value)): return Double(value)
        case .json(.uint(let value)): return Double(value)
        default: break
        }
        throw mismatch("a number")
    }

    mutating func decodeDecimal() throws -> Decimal {
        switch position {
        case .column(let index):
            switch row[index] {
            case .text(let text):
                if let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) { return decimal }
            case .integer(let value): return Decimal(value)
            case .real(let value): return Decimal(value)
            default: break
            }
        case .json(.string(let text)):
            if let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) { return decimal }
        case .json(.int(let value)): return Decimal(value)
        case .json(.double(let value)): return Decimal(value)
        default: break
        }
        throw mismatch("a decimal number")
    }

    mutating func decodeDate() throws -> Date {
        switch position {
        case .column(let index):
            switch row[index] {
            case .text(let text):
                if let date = StoreDates.parse(text) { return date }
            case .integer(let seconds): return Date(timeIntervalSince1970: TimeInterval(seconds))
            case .real(let seconds): return Date(timeIntervalSince1970: seconds)
            default: break
            }
        case .json(.string(let text)):
            if let date = StoreDates.parse(text) { return date }
        default: break
        }
        throw mismatch("an ISO 8601 date")
    }

    mutating func decodeData() throws -> Data {
        switch position {
        case .column(let index):
            if case .blob(let data) = row[index] { return data }
        case .json(.string(let text)):
            if let data = Data(base64Encoded: text) { return data }
        default: break
        }
        throw mismatch("bytes")
    }

    mutating func decodeURL() throws -> URL {
        guard let url = URL(string: try decodeString()) else { throw mismatch("a URL") }
        return url
    }

    mutating func decodeUUID() throws -> UUID {
        guard let uuid = UUID(uuidString: try decodeString()) else { throw mismatch("a UUID") }
        return uuid
    }

    mutating func decodeCodable<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decodeJSONValue()
        return try JSONDecoder().decode(T.self, from: Data(value.jsonBytes()))
    }

    // MARK: Positions

    func mark() -> (Position, Int) {
        (position, depth)
    }

    mutating func reset(to mark: (Position, Int)) {
        (position, depth) = mark
    }

    mutating func skipValue() throws {}

    mutating func recover<T>(_ body: (inout StoreRowReader) throws -> T) throws -> Result<T, ModelError> {
        let saved = mark()
        do {
            return .success(try body(&self))
        } catch let error as ModelError {
            reset(to: saved)
            return .failure(error)
        }
    }
}
