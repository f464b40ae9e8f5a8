#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes a `PropertyListValue` as an XML property list, byte for byte as Apple's CFPropertyList
/// writer does.
///
/// The rules, checked against macOS-written fixtures:
/// - Three header lines (XML declaration, `DOCTYPE`, `<plist version="1.0">`), the value at
///   indentation 0, then `</plist>` and a final newline. Indentation is one tab per level.
/// - Every element is on its own line. Empty arrays and dictionaries are `<array/>` and
///   `<dict/>`; booleans are `<true/>` and `<false/>`; an empty string is `<string></string>`.
/// - Dictionary keys are sorted by UTF-16 code units (`$10` before `$2`, uppercase before
///   lowercase), each `<key>` followed by its value at the same indentation.
/// - Strings and keys escape only `&`, `<` and `>` (`&amp;`, `&lt;`, `&gt;`); everything else,
///   quotes included, is written as UTF-8.
/// - Integers are plain decimal; reals follow `PropertyListRealFormatter` (`1`, `1.5`,
///   `0.10000000000000001`, `1e+100`, `nan`, `+infinity`, `0.0`).
/// - Dates are `YYYY-MM-DDTHH:MM:SSZ` in UTC, fractional seconds dropped.
/// - Data is `<data>`, then base64 lines indented like the tag (see `PropertyListBase64`), then
///   `</data>` on its own line.
/// - A UID is a one-entry dictionary `CF$UID` → `<integer>`.
///
/// `null` and dates that are not finite (or beyond ±2^53 seconds) have no XML form and throw.
///
/// ```swift
/// let xml = try XMLPropertyListWriter.write(["$version": 100_000])
/// ```
struct XMLPropertyListWriter {
    static let header = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """.utf8)
    static let footer = Array("</plist>\n".utf8)

    /// Encodes `value` as a complete XML property list.
    static func write(_ value: PropertyListValue) throws(PropertyListError) -> [UInt8] {
        var writer = XMLPropertyListWriter()
        writer.output.append(contentsOf: header)
        try writer.writeTree(value)
        writer.output.append(contentsOf: footer)
        return writer.output
    }

    /// An open array or dictionary.
    struct Frame {
        let indent: Int
        let elements: [PropertyListValue]
        let dictionary: PropertyListDictionary?
        /// Dictionary entry positions in key order.
        let order: [Int]
        var next = 0
    }

    var output: [UInt8] = []
    var frames: [Frame] = []

    /// Writes `root` and everything below it without recursion.
    mutating func writeTree(_ root: PropertyListValue) throws(PropertyListError) {
        try write(root, indent: 0)
        while !frames.isEmpty {
            let top = frames.count - 1
            let frame = frames[top]
            if let dictionary = frame.dictionary {
                guard frame.next < frame.order.count else {
                    frames.removeLast()
                    closeTag("dict", indent: frame.indent)
                    continue
                }
                frames[top].next += 1
                let position = frame.order[frame.next]
                indent(frame.indent + 1)
                output.append(contentsOf: "<key>".utf8)
                appendEscaped(dictionary.keys[position])
                output.append(contentsOf: "</key>\n".utf8)
                try write(dictionary.values[position], indent: frame.indent + 1)
            } else {
                guard frame.next < frame.elements.count else {
                    frames.removeLast()
                    closeTag("array", indent: frame.indent)
                    continue
                }
                frames[top].next += 1
                try write(frame.elements[frame.next], indent: frame.indent + 1)
            }
        }
    }

    /// Writes a scalar, or the opening tag of a container (pushing a frame for its contents).
    private mutating func write(_ value: PropertyListValue, indent level: Int) throws(PropertyListError) {
        indent(level)
        switch value {
        case .string(let string):
            output.append(contentsOf: "<string>".utf8)
            appendEscaped(string)
            output.append(contentsOf: "</string>\n".utf8)
        case .integer(let integer):
            appendElement("integer", text: integer.description)
        case .real(let real):
            appendElement("real", text: PropertyListRealFormatter.format(real.doubleValue))
        case .bool(let flag):
            output.append(contentsOf: (flag ? "<true/>\n" : "<false/>\n").utf8)
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            guard let text = PropertyListDateText.format(secondsSinceReferenceDate: seconds) else {
                throw PropertyListError(
                    .unrepresentable("date \(seconds) is outside the range xml dates can express"),
                    at: .none, while: .writingXML)
            }
            appendElement("date", text: text)
        case .data(let data):
            output.append(contentsOf: "<data>\n".utf8)
            PropertyListBase64.appendLines(of: data, indent: level, to: &output)
            closeTag("data", indent: level)
        case .uid(let uid):
            output.append(contentsOf: "<dict>\n".utf8)
            indent(level + 1)
            output.append(contentsOf: "<key>CF$UID</key>\n".utf8)
            indent(level + 1)
            appendElement("integer", text: String(uid))
            closeTag("dict", indent: level)
        case .null:
            throw PropertyListError(
                .unrepresentable("a null value cannot be written as xml"), at: .none, while: .writingXML)
        case .array(let elements):
            if elements.isEmpty {
                output.append(contentsOf: "<array/>\n".utf8)
            } else {
                output.append(contentsOf: "<array>\n".utf8)
                frames.append(Frame(indent: level, elements: elements, dictionary: nil, order: []))
            }
        case .dictionary(let dictionary):
            if dictionary.isEmpty {
                output.append(contentsOf: "<dict/>\n".utf8)
            } else {
                output.append(contentsOf: "<dict>\n".utf8)
                let keys = dictionary.keys
                let order = keys.indices.sorted { ExactString.precedesInUTF16Order(keys[$0], keys[$1]) }
                frames.append(Frame(indent: level, elements: [], dictionary: dictionary, order: order))
            }
        }
    }

    private mutating func appendElement(_ name: String, text: String) {
        output.append(UInt8(ascii: "<"))
        output.append(contentsOf: name.utf8)
        output.append(UInt8(ascii: ">"))
        output.append(contentsOf: text.utf8)
        output.append(contentsOf: "</".utf8)
        output.append(contentsOf: name.utf8)
        output.append(contentsOf: ">\n".utf8)
    }

    private mutating func closeTag(_ name: String, indent level: Int) {
        indent(level)
        output.append(contentsOf: "</".utf8)
        output.append(contentsOf: name.utf8)
        output.append(contentsOf: ">\n".utf8)
    }

    private mutating func indent(_ level: Int) {
        output.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: level))
    }

    /// Appends `string` as UTF-8 with `&`, `<` and `>` escaped.
    private mutating func appendEscaped(_ string: String) {
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            default: output.append(byte)
            }
        }
    }
}
