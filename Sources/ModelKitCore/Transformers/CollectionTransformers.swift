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
        // Dropped elements join the reader's collected problems, marked, so their paths and
        // names fill in as reading returns; the top level hands them to the report.
        let elements = try reader.decodeArray { reader -> Element? in
            switch try reader.recover({ try Element.read(from: &$0) }) {
            case .success(let element): return element
            case .failure(let error):
                reader.collectedProblems.append(error.asDroppedElement)
                return nil
            }
        }
        return elements.compactMap { $0 }
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

    /// Arrays whose elements go through `inner`.
    public static func array<Inner>(of inner: Inner) -> ArrayTransformer<Inner>
    where Self == ArrayTransformer<Inner> {
        ArrayTransformer(of: inner)
    }
}
