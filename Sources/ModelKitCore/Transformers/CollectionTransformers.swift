import Foundation

/// Arrays that drop the elements that fail to map instead of failing as a whole; what was
/// dropped goes to ``MappingOptions/report``.
///
/// ```swift
/// @Transform(.lossyArray(of: Tag.self)) var tags: [Tag]
/// ```
public struct LossyArrayTransformer<Element: ModelValue>: ModelTransformer {
    /// A transformer for arrays of `type`.
    public init(of type: Element.Type) {}

    public var expectation: String { "an array" }

    public func transformedValue(_ elements: [Element]) throws -> [Element] { elements }
    public func reverseTransformedValue(_ elements: [Element]) throws -> [Element] { elements }

    public func read<R: ModelReader>(from reader: inout R) throws -> [Element] {
        try reader.decodeArray { try $0.valueOrDropped(Element.self) }.compactMap { $0 }
    }
}

/// Dictionaries (`[String: Value]`, an object keyed by identifiers or names) that drop the
/// entries whose values fail to map instead of failing as a whole; what was dropped goes to
/// ``MappingOptions/report``, each error's path ending in the entry's key.
///
/// ```swift
/// @Transform(.lossyDictionary(of: Venue.self)) var venues: [String: Venue]
/// ```
public struct LossyDictionaryTransformer<Value: ModelValue>: ModelTransformer {
    /// A transformer for dictionaries of `type`.
    public init(of type: Value.Type) {}

    public var expectation: String { "an object" }

    public func transformedValue(_ entries: [String: Value]) throws -> [String: Value] { entries }
    public func reverseTransformedValue(_ entries: [String: Value]) throws -> [String: Value] { entries }

    public func read<R: ModelReader>(from reader: inout R) throws -> [String: Value] {
        try reader.decodeDictionary { try $0.valueOrDropped(Value.self) }.compactMapValues { $0 }
    }
}

/// Arrays whose elements each go through another transformer.
///
/// ```swift
/// @Transform(.array(of: .iso8601)) var dates: [Date]
/// ```
public struct ArrayTransformer<Inner: ModelTransformer>: ModelTransformer {
    /// The transformer applied to each element.
    public let inner: Inner

    /// A transformer applying `inner` to every element.
    public init(of inner: Inner) {
        self.inner = inner
    }

    public var expectation: String { "an array of \(inner.expectation)" }

    public func transformedValue(_ elements: [Inner.Encoded]) throws -> [Inner.Value] {
        try elements.map(inner.transformedValue)
    }

    public func reverseTransformedValue(_ values: [Inner.Value]) throws -> [Inner.Encoded] {
        try values.map(inner.reverseTransformedValue)
    }

    public func read<R: ModelReader>(from reader: inout R) throws -> [Inner.Value] {
        try reader.decodeArray { try inner.read(from: &$0) }
    }

    public func write<W: ModelWriter>(_ values: [Inner.Value], to writer: inout W) throws {
        try writer.encodeArray(values) { writer, value in try inner.write(value, to: &writer) }
    }
}

extension ModelTransformer {
    /// Arrays that drop elements that fail to map (see ``LossyArrayTransformer``).
    public static func lossyArray<E>(of type: E.Type) -> LossyArrayTransformer<E>
    where Self == LossyArrayTransformer<E> {
        LossyArrayTransformer(of: type)
    }

    /// Dictionaries that drop entries whose values fail to map (see ``LossyDictionaryTransformer``).
    public static func lossyDictionary<V>(of type: V.Type) -> LossyDictionaryTransformer<V>
    where Self == LossyDictionaryTransformer<V> {
        LossyDictionaryTransformer(of: type)
    }

    /// Arrays whose elements go through `inner`.
    public static func array<Inner>(of inner: Inner) -> ArrayTransformer<Inner>
    where Self == ArrayTransformer<Inner> {
        ArrayTransformer(of: inner)
    }
}

extension ModelReader {
    /// The value at the reader, or nil when it does not map: then the reader has moved past it,
    /// and its error joins the collected problems, marked as dropped, so that its path and names
    /// fill in as reading returns and the top level hands it to the report.
    mutating func valueOrDropped<Value: ModelValue>(_ type: Value.Type) throws -> Value? {
        switch try recover({ try Value.read(from: &$0) }) {
        case .success(let value): return value
        case .failure(let error):
            collectedProblems.append(error.recovered(as: .droppedElement))
            return nil
        }
    }
}
