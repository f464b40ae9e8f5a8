import ModelKitCore

/// Writes values one at a time as one stream of JSON, in any ``JSONStreamFormat``: what
/// `ModelJSON.elements(of:...)` reads, written element by element, so that a server can send a
/// collection of any size without holding its JSON whole.
///
/// Each element goes through `ModelJSON.encode(_:formatting:options:)`, so it is written exactly
/// as a whole document would be; the writer adds what goes before, between and after.
///
/// ```swift
/// var writer = JSONStreamWriter(format: .ndjson)
/// var output = writer.prefix
/// for user in users { try writer.write(user, into: &output) }
/// output += writer.suffix
/// ```
///
/// | format | prefix | between | suffix |
/// | --- | --- | --- | --- |
/// | `.array`, `.automatic` | `[` | `,` | `]` |
/// | `.ndjson` | nothing | (each element ends with `\n`) | nothing |
/// | `.nestedArray(at: "data.items")` | `{"data":{"items":[` | `,` | `]}}` |
///
/// Newline-delimited JSON is written without `.prettyPrinted`, whatever `formatting` says: a
/// line break inside an element would end it.
public struct JSONStreamWriter: Sendable {
    /// The layout written.
    public let format: JSONStreamFormat
    /// How each element is formatted.
    public let formatting: JSONWriter.Options
    /// The mapping options each element is encoded with.
    public let options: MappingOptions
    /// How many elements were written.
    public var count: Int { written }
    // @usableFromInline: counted by the inlinable write(_:into:).
    @usableFromInline var written = 0

    /// A writer of `format`, its elements formatted as `formatting` says and encoded with `options`.
    public init(format: JSONStreamFormat = .array, formatting: JSONWriter.Options = [], options: MappingOptions = .default) {
        self.format = format
        var formatting = formatting
        if format == .ndjson { formatting.remove(.prettyPrinted) }
        self.formatting = formatting
        self.options = options
    }

    /// The bytes before the first element.
    public var prefix: [UInt8] {
        switch format {
        case .automatic, .array: return [UInt8(ascii: "[")]
        case .ndjson: return []
        case .nestedArray(let path):
            var writer = JSONWriter()
            for segment in RemoteKeyPath(path).segments {
                writer.beginObject()
                writer.writeKey(segment)
            }
            writer.beginArray()
            return writer.bytes
        }
    }

    /// The bytes after the last element.
    public var suffix: [UInt8] {
        switch format {
        case .automatic, .array: return [UInt8(ascii: "]")]
        case .ndjson: return []
        case .nestedArray(let path):
            return [UInt8(ascii: "]")] + Array(repeating: UInt8(ascii: "}"), count: RemoteKeyPath(path).segments.count)
        }
    }

    /// Appends `element` to `output`, with what separates it from the element before.
    ///
    /// A value that cannot be encoded throws the `ModelError` `ModelJSON.encode` throws, and
    /// leaves `output` and ``count`` as they were.
    // @inlinable: generic over the element type; compiled where it is known, so that the encode is
    // specialised for it (the bytes path's speed).
    @inlinable
    public mutating func write<T: ModelValue>(_ element: T, into output: inout [UInt8]) throws {
        let bytes = try ModelJSON.encode(element, formatting: formatting, options: options)
        if format == .ndjson {
            output += bytes
            output.append(UInt8(ascii: "\n"))
        } else {
            if written > 0 { output.append(UInt8(ascii: ",")) }
            output += bytes
        }
        written += 1
    }

    /// The bytes of `elements`, prefix to suffix.
    // @inlinable: generic over the elements' type, as write(_:into:).
    @inlinable
    public mutating func bytes<S: Sequence>(of elements: S) throws -> [UInt8] where S.Element: ModelValue {
        var output = prefix
        for element in elements { try write(element, into: &output) }
        return output + suffix
    }
}
