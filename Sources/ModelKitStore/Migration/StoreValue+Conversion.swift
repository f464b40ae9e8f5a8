import Foundation
import ModelKitCore

extension StoreValue {
    /// The text, when the value is text.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The integer, when the value is an integer.
    public var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The number, when the value is an integer or a real.
    public var real: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }

    /// The bytes, when the value is a blob.
    public var blob: Data? {
        if case .blob(let data) = self { return data }
        return nil
    }

    /// The value as a column of `kind` holds it, converted without loss, for a retyped column;
    /// throws what the value is not (``ConversionError``) when it does not convert so.
    func converted(to kind: ModelValueKind) throws -> StoreValue {
        if self == .null { return self }
        switch kind.unwrapped {
        case .bool:
            switch self {
            case .integer(0), .integer(1): return self
            case .real(0), .real(1): return .integer(real == 1 ? 1 : 0)
            case .text(let text):
                switch text.lowercased() {
                case "true", "1": return .integer(1)
                case "false", "0": return .integer(0)
                default: break
                }
            default: break
            }
            throw ConversionError(expected: "a boolean (0, 1, 'true' or 'false')")
        case .integer:
            switch self {
            case .integer: return self
            case .real(let value): if let exact = Int64(exactly: value) { return .integer(exact) }
            case .text(let text):
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if let parsed = Int64(trimmed) ?? Double(trimmed).flatMap(Int64.init(exactly:)) { return .integer(parsed) }
            default: break
            }
            throw ConversionError(expected: "an integer")
        case .float:
            switch self {
            case .real: return self
            case .integer(let value): if let exact = Double(exactly: value) { return .real(exact) }
            case .text(let text): if let parsed = Double(text.trimmingCharacters(in: .whitespaces)), parsed.isFinite { return .real(parsed) }
            default: break
            }
            throw ConversionError(expected: "a number")
        case .data:
            switch self {
            case .blob: return self
            case .text(let text): return .blob(Data(text.utf8))
            default: throw ConversionError(expected: "bytes or text")
            }
        case .date:
            guard case .text(let text) = self, DateCoding.parseISO8601(text) != nil else {
                throw ConversionError(expected: "a date in ISO 8601 text (convert numbers with 'updateRows(of:_:)', which knows their unit)")
            }
            return self
        case .uuid:
            guard case .text(let text) = self, UUID(uuidString: text) != nil else { throw ConversionError(expected: "a UUID") }
            return self
        case .model:
            if let identifier = kind.unwrapped.referenceIdentifierKind { return try converted(to: identifier) }
            return try convertedToText()
        default:
            return try convertedToText()
        }
    }

    private func convertedToText() throws -> StoreValue {
        switch self {
        case .text: return self
        case .integer(let value): return .text(String(value))
        case .real(let value): return .text(value.description)
        case .blob(let data):
            guard let text = String(data: data, encoding: .utf8) else { throw ConversionError(expected: "UTF-8 text") }
            return .text(text)
        case .null: return self
        }
    }

    /// What a value did not convert to.
    struct ConversionError: Error, CustomStringConvertible {
        let expected: String
        var description: String { expected }
    }
}
