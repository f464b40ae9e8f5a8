import Foundation

/// Transformers registered once under a name and referred to by that name (FDModel's
/// `registerTransformerWithName:`).
///
/// ```swift
/// TransformerRegistry.shared.register(.dateFormat("MM-dd-yyyy"), as: "releaseDate")
///
/// @Model struct Game {
///     @Transform(.named("releaseDate", as: Date.self)) var releaseDate: Date
/// }
/// ```
public final class TransformerRegistry: Sendable {
    private let transformers = Locked<[String: any ModelTransformer]>([:])

    /// The registry `.named(_:as:)` looks in.
    public static let shared = TransformerRegistry()

    /// An empty registry.
    public init() {}

    /// Registers `transformer` under `name`, replacing what was there.
    public func register<T: ModelTransformer>(_ transformer: T, as name: String) {
        transformers.withLock { $0[name] = transformer }
    }

    /// Removes the transformer registered under `name`.
    public func unregister(_ name: String) {
        transformers.withLock { $0[name] = nil }
    }

    /// The transformer registered under `name`, if it converts values of type `V`.
    public func transformer<V>(named name: String, for type: V.Type) -> (any ModelTransformer<V>)? {
        transformers.withLock { $0[name] } as? any ModelTransformer<V>
    }

    /// The names registered, sorted.
    public var names: [String] {
        transformers.withLock { $0.keys.sorted() }
    }
}

/// A transformer found by name in a ``TransformerRegistry`` when it is first used.
public struct NamedTransformer<Value>: ModelTransformer {
    /// The name looked up.
    public let name: String
    /// The registry looked in.
    public let registry: TransformerRegistry

    /// A transformer that uses whatever `registry` holds under `name`.
    public init(_ name: String, registry: TransformerRegistry = .shared) {
        self.name = name
        self.registry = registry
    }

    public var expectation: String { resolved()?.expectation ?? "a value for the transformer '\(name)'" }

    private func resolved() -> (any ModelTransformer<Value>)? {
        registry.transformer(named: name, for: Value.self)
    }

    private func resolve() throws -> any ModelTransformer<Value> {
        guard let transformer = resolved() else {
            throw ModelError.invalid(
                expected: "a transformer registered as '\(name)' for '\(Value.self)'", found: "none")
        }
        return transformer
    }

    public func transformedValue(_ json: JSONValue) throws -> Value {
        var reader = JSONValueReader(value: json)
        return try resolve().read(from: &reader)
    }

    public func reverseTransformedValue(_ value: Value) throws -> JSONValue {
        var builder = JSONValueWriter()
        try resolve().write(value, to: &builder)
        return builder.value
    }

    public func read<R: ModelReader>(from reader: inout R) throws -> Value {
        try resolve().read(from: &reader)
    }

    public func write<W: ModelWriter>(_ value: Value, to writer: inout W) throws {
        try resolve().write(value, to: &writer)
    }
}

extension ModelTransformer {
    /// The transformer registered under `name` in the shared registry, looked up when used.
    public static func named<V>(_ name: String, as type: V.Type) -> NamedTransformer<V>
    where Self == NamedTransformer<V> {
        NamedTransformer(name)
    }
}
