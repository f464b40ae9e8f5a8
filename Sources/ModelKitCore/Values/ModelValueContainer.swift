/// A type that holds values of another: an optional's wrapped type, an array's or a set's
/// element, a dictionary's value. Formats that describe a value by its type (the JSON Schema
/// export) follow it through containers with this, as ``ModelValueKind`` follows its kind.
package protocol ModelValueContainer {
    /// The type of the values held.
    static var containedType: Any.Type { get }
}

extension Optional: ModelValueContainer {
    package static var containedType: Any.Type { Wrapped.self }
}

extension Array: ModelValueContainer {
    package static var containedType: Any.Type { Element.self }
}

extension Set: ModelValueContainer {
    package static var containedType: Any.Type { Element.self }
}

extension Dictionary: ModelValueContainer {
    package static var containedType: Any.Type { Value.self }
}
