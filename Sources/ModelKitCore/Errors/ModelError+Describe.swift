import Foundation

extension ModelError {
    /// This error with `value` as what was found, unless it already says.
    // Usable from inline: the transformers' inlinable `read` and `write` and the inlinable `validateField` describe the
    // rejected value through it.
    @usableFromInline
    func describingFound(_ value: Any) -> ModelError {
        guard found == nil, kind != .multiple else { return self }
        var copy = ModelError(
            kind, expected: expected, found: ModelError.describe(value), model: modelName, property: propertyName,
            path: path, underlying: underlying, problems: problems)
        copy.recovery = recovery
        return copy
    }

    /// A short picture of a value for an error message: `42`, `"yesterday"`, `null`,
    /// `an array of 3 elements`, `an object with 2 keys`.
    public static func describe(_ value: Any) -> String {
        if isNullValue(value) { return "null" }
        if let string = value as? String { return quoted(string) }
        if let number = FoundationNumber(value) {
            switch number {
            case .bool(let value): return value ? "true" : "false"
            case .int(let value): return String(value)
            case .uint(let value): return String(value)
            case .double(let value): return String(value)
            case .decimal(let value): return value.description
            }
        }
        if let json = value as? JSONValue { return describe(json) }
        if let array = value as? [Any] { return countNoun(array.count, "an array of", "element") }
        if let object = value as? [String: Any] { return countNoun(object.count, "an object with", "key") }
        return shortened(String(describing: value))
    }

    /// A short picture of a JSON value for an error message.
    public static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .uint(let value): return String(value)
        case .double(let value): return String(value)
        case .decimal(let value): return value.description
        case .string(let value): return quoted(value)
        case .array(let elements): return countNoun(elements.count, "an array of", "element")
        case .object(let members): return countNoun(members.count, "an object with", "key")
        }
    }

    /// A string in JSON quotes, shortened.
    public static func quoted(_ string: String) -> String {
        var text = "\""
        var count = 0
        for scalar in string.unicodeScalars {
            if count == 40 {
                text += "…"
                break
            }
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            default:
                if scalar.value < 0x20 {
                    text += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
            count += 1
        }
        return text + "\""
    }

    private static func countNoun(_ count: Int, _ prefix: String, _ noun: String) -> String {
        "\(prefix) \(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
