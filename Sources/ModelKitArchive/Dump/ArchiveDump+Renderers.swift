import Foundation
import ModelKitCore
import ModelKitPropertyList

/// Indentation for nesting level `depth`: two spaces a level, capped so that a very deep archive
/// prints in linear space (deeper lines say their depth instead).
private func indentation(_ depth: Int) -> String {
    let capped = min(depth, 40)
    let spaces = String(repeating: "  ", count: capped)
    return depth > 40 ? spaces + "(depth \(depth)) " : spaces
}

/// A JSON string literal.
func jsonQuoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result + "\""
}

/// A date as ISO 8601 text, whole seconds, UTC.
private func isoText(_ date: Date) -> String {
    guard date.timeIntervalSinceReferenceDate.isFinite, abs(date.timeIntervalSince1970) < 1e14 else {
        return "\(date.timeIntervalSinceReferenceDate)"
    }
    return DateCoding.formatISO8601(date)
}

/// The indented tree of `ArchiveDump.text`.
struct TextDumpRenderer: DumpRenderer {
    var output = ""

    private mutating func line(_ label: DumpLabel, _ text: String, depth: Int) {
        output += indentation(depth - 1)
        switch label {
        case .none: break
        case .key(let key): output += key + ": "
        case .index(let index): output += "[\(index)]: "
        }
        output += text
        output += "\n"
    }

    mutating func scalar(_ label: DumpLabel, _ value: PropertyListValue, depth: Int) {
        line(label, Self.render(value), depth: depth)
    }

    mutating func null(_ label: DumpLabel, depth: Int) {
        line(label, "nil", depth: depth)
    }

    mutating func reference(_ label: DumpLabel, uid: Int, className: String, depth: Int) {
        line(label, "-> \(className) #\(uid) (shared, printed above)", depth: depth)
    }

    mutating func open(_ label: DumpLabel, _ container: DumpContainer, depth: Int) {
        switch container {
        case .top:
            return
        case let .object(className, uid, shared):
            line(label, "\(className) #\(uid)" + (shared ? " (shared)" : ""), depth: depth)
        case let .list(className, uid, count, shared), let .dictionary(className, uid, count, shared):
            var text = className ?? ""
            if let uid { text += " #\(uid)" }
            let noun: String
            if case .list = container { noun = count == 1 ? "element" : "elements" } else { noun = count == 1 ? "entry" : "entries" }
            text += (text.isEmpty ? "" : " ") + "(\(count) \(noun))" + (shared ? " (shared)" : "")
            line(label, text, depth: depth)
        }
    }

    mutating func close(_ container: DumpContainer, depth: Int) {}

    static func render(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let text): return jsonQuoted(text)
        case .integer(let integer): return "\(integer)"
        case .real(let real): return "\(real)"
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let date): return "date \(isoText(date))"
        case .data(let data):
            let preview = data.prefix(32).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            return "<\(data.count) bytes\(data.isEmpty ? "" : ": ")\(preview.joined())\(data.count > 32 ? "…" : "")>"
        case .uid(let reference): return "#\(reference)"
        case .null: return "nil"
        case .array, .dictionary: return ""
        }
    }
}

/// The JSON of `ArchiveDump.json`, indented two spaces a level.
struct JSONDumpRenderer: DumpRenderer {
    var output = ""
    /// For each open container: whether it has a member yet.
    private var hasMembers: [Bool] = []

    private mutating func member(_ label: DumpLabel, depth: Int) {
        if let last = hasMembers.indices.last {
            output += hasMembers[last] ? ",\n" : "\n"
            hasMembers[last] = true
        }
        output += indentation(depth)
        if case .key(let key) = label { output += jsonQuoted(key) + ": " }
    }

    mutating func scalar(_ label: DumpLabel, _ value: PropertyListValue, depth: Int) {
        member(label, depth: depth)
        output += Self.render(value)
    }

    mutating func null(_ label: DumpLabel, depth: Int) {
        member(label, depth: depth)
        output += "null"
    }

    mutating func reference(_ label: DumpLabel, uid: Int, className: String, depth: Int) {
        member(label, depth: depth)
        output += "{\"$ref\": \(uid)}"
    }

    mutating func open(_ label: DumpLabel, _ container: DumpContainer, depth: Int) {
        switch container {
        case .top:
            output += "{"
            hasMembers.append(false)
        case .object(let className, _, _):
            member(label, depth: depth)
            output += "{\n" + indentation(depth + 1) + "\"$class\": " + jsonQuoted(className)
            hasMembers.append(true)
        case .list:
            member(label, depth: depth)
            output += "["
            hasMembers.append(false)
        case .dictionary:
            member(label, depth: depth)
            output += "{"
            hasMembers.append(false)
        }
    }

    mutating func close(_ container: DumpContainer, depth: Int) {
        let hadMembers = hasMembers.popLast() ?? false
        if hadMembers { output += "\n" + indentation(depth) }
        if case .list = container { output += "]" } else { output += "}" }
        if hasMembers.isEmpty { output += "\n" }
    }

    static func render(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let text): return jsonQuoted(text)
        case .integer(let integer): return "\(integer)"
        case .real(let real):
            let double = real.doubleValue
            guard double.isFinite else { return jsonQuoted("\(double)") }
            if double == double.rounded(), abs(double) < 1e15 { return String(Int64(double)) + ".0" }
            return "\(double)"
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let date): return jsonQuoted(isoText(date))
        case .data(let data): return jsonQuoted(data.base64EncodedString())
        case .uid(let reference): return "{\"$ref\": \(reference)}"
        case .null: return "null"
        case .array, .dictionary: return "null"
        }
    }
}
