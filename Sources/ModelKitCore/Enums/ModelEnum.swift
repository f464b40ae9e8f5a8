/// An enum `@Model` maps: each case a tag and, when it has associated values, a payload, in the
/// representation its declaration chooses (``ModelEnumSchema/Representation``).
///
/// ```swift
/// @Model(tag: "type") enum Block {
///     case text(TextBlock)                   // {"type": "text", "body": "..."}
///     case image(url: URL, width: Int?)      // {"type": "image", "url": "...", "width": 640}
///     case divider                           // {"type": "divider"}
///     @UnknownCase case unknown(JSONValue)   // any other tag, kept as it came
/// }
/// ```
///
/// The representation is read and written here, once, over any reader and writer: every format
/// (JSON bytes and objects, `JSONValue`, Codable, archives, stores) maps enums the same way.
/// `@Model` generates the conformance.
public protocol ModelEnum: ModelValue {
    /// The enum's cases, tags and representation.
    static var modelEnumSchema: ModelEnumSchema { get }
    /// The position of the value's case in ``ModelEnumSchema/cases``, or nil for the fallback
    /// case.
    var modelCaseIndex: Int? { get }
    /// Reads the payload of the case at `index` where `reader` is (nothing for a case without
    /// associated values).
    static func decodeModelCase<R: ModelReader>(_ index: Int, from reader: inout R) throws -> Self
    /// Writes the value's payload (nothing for a case without associated values).
    func encodeModelCasePayload<W: ModelWriter>(to writer: inout W) throws
    /// The fallback case holding `payload`, the whole value of an unknown tag; nil without one.
    static func modelFallback(_ payload: JSONValue) -> Self?
    /// What the fallback case holds, if the value is that case.
    var modelFallbackPayload: JSONValue? { get }
}

/// The cases of an enum `@Model` maps, and how they appear in payloads.
public final class ModelEnumSchema: Sendable {
    /// How an enum's cases appear in payloads (serde's four enum representations).
    public enum Representation: Hashable, Sendable {
        /// `{"image": {...}}`: an object with the tag as its one key and the payload as its
        /// value; a case without payload is its tag alone, `"divider"`.
        case external
        /// `{"type": "image", "url": ...}`: the payload's own keys beside the tag key (payloads
        /// are objects).
        case `internal`(tag: String)
        /// `{"type": "image", "data": {...}}`: the tag and the payload under keys of their own.
        case adjacent(tag: String, content: String)
        /// No tag: the first case whose payload maps; a case without payload is `null`.
        case untagged
    }

    /// One case.
    public struct Case: Hashable, Sendable {
        /// The case's name in Swift.
        public let name: String
        /// Its tag in payloads: its name, or what `@Key("img")` says; an integer tag's digits.
        public let tag: String
        /// Its tag when it is an integer (`@Key(3)`): `{"type": 3}` (internal and adjacent
        /// representations).
        public let integerTag: Int64?
        /// Whether it has associated values.
        public let hasPayload: Bool
        /// The type of its payload: its one unlabelled associated value's, or the model of its
        /// labelled ones; nil without associated values, or with several unlabelled ones.
        public let payloadType: Any.Type?
        /// The types of its unlabelled associated values, when it has several (an array).
        public let tupleTypes: [Any.Type]

        public init(
            _ name: String, tag: String? = nil, integerTag: Int64? = nil, hasPayload: Bool, payload: Any.Type? = nil,
            tuple: [Any.Type] = []
        ) {
            self.name = name
            self.tag = integerTag.map { String($0) } ?? tag ?? name
            self.integerTag = integerTag
            self.hasPayload = hasPayload
            self.payloadType = payload
            self.tupleTypes = tuple
        }

        public static func == (lhs: Case, rhs: Case) -> Bool {
            lhs.name == rhs.name && lhs.tag == rhs.tag && lhs.integerTag == rhs.integerTag && lhs.hasPayload == rhs.hasPayload
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(tag)
        }

        /// The tag as a payload holds it: a string, or an integer.
        public var tagValue: JSONValue {
            integerTag.map { .int($0) } ?? .string(tag)
        }
    }

    /// The enum's name.
    public let name: String
    /// How its cases appear in payloads.
    public let representation: Representation
    /// The cases with a tag, in declaration order (the fallback case is not one).
    public let cases: [Case]
    /// The name of the case that keeps an unknown tag's value (`@UnknownCase`), if any.
    public let fallbackCaseName: String?
    /// The cases' tags as keys, one edge per case: what every representation matches a tag with.
    @usableFromInline let tagKeys: ModelKeyNode
    /// The tag key, then the content key (internal and adjacent representations).
    @usableFromInline let tagAndContentKeys: ModelKeyNode

    public init(name: String, representation: Representation = .external, cases: [Case], fallback: String? = nil) {
        self.name = name
        self.representation = representation
        self.cases = cases
        self.fallbackCaseName = fallback
        // An integer tag's edge has the integer as its index: readers match a number to it, and
        // a string to the others.
        self.tagKeys = ModelKeyNode(edges: cases.map { ModelKeyEdge(unknownKey: $0.tag, index: $0.integerTag.flatMap { Int(exactly: $0) }) })
        switch representation {
        case .internal(let tag): tagAndContentKeys = ModelKeyNode(edges: [ModelKeyEdge(unknownKey: tag)])
        case .adjacent(let tag, let content):
            tagAndContentKeys = ModelKeyNode(edges: [ModelKeyEdge(unknownKey: tag), ModelKeyEdge(unknownKey: content)])
        case .external, .untagged: tagAndContentKeys = ModelKeyNode(edges: [])
        }
    }

    /// `one of the tags 'text', 'image' of 'Block'`: what an error expects.
    // Usable from inline: the inlinable reading of enums says it in its errors.
    @usableFromInline var expectedTags: String {
        "one of the tags \(cases.map { $0.integerTag == nil ? "'\($0.tag)'" : $0.tag }.joined(separator: ", ")) of '\(name)'"
    }
}

extension ModelEnum {
    public static var modelValueKind: ModelValueKind { .other }

    public init(from decoder: any Decoder) throws {
        var reader = CodableReader(decoder: decoder)
        self = try Self.read(from: &reader)
    }

    public func encode(to encoder: any Encoder) throws {
        var writer = CodableWriter(encoder: encoder)
        try write(to: &writer)
    }
}

/// The associated values of an enum case without labels (`case pair(Int, Int)`), which payloads
/// hold as an array (`[1, 2]`); `@Model` generates the calls.
public struct ModelTupleElements {
    private let elements: [JSONValue]
    private let options: MappingOptions

    /// Reads an array of `count` elements where `reader` is.
    public init<R: ModelReader>(reading reader: inout R, count: Int) throws {
        let elements = try reader.decodeArray { try $0.decodeJSONValue() }
        guard elements.count == count else {
            throw ModelError.mismatch(expected: "an array of \(count) elements", found: ModelError.describe(.array(elements)))
        }
        self.elements = elements
        self.options = reader.options
    }

    /// The element at `index`, read by `read`; an error names the element's position.
    public func element<T>(_ index: Int, _ read: (inout JSONValueReader) throws -> T) throws -> T {
        var reader = JSONValueReader(value: elements[index], options: options)
        return try reader.withPathComponent(.index(index)) { try read(&$0) }
    }
}

/// Writes the associated values of an enum case without labels as an array.
public struct ModelTupleWriter {
    private let options: MappingOptions
    private var elements: [JSONValue] = []
    /// The elements written so far, as an array.
    public var value: JSONValue { .array(elements) }

    public init(options: MappingOptions) {
        self.options = options
    }

    /// Appends the element `write` writes.
    public mutating func append(_ write: (inout JSONValueWriter) throws -> Void) throws {
        var writer = JSONValueWriter(options: options)
        try write(&writer)
        elements.append(writer.value)
    }
}
