/// A location inside a payload: object keys and array indexes from the root.
///
/// Paths print the way people write them, `statuses[3].user.created_at`, and are
/// what ``ModelError`` reports so a problem can be found in a large payload.
///
/// ```swift
/// let path: ModelPath = [.key("statuses"), .index(3), .key("user")]
/// path.description // "statuses[3].user"
/// ```
public struct ModelPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// One step of a path.
    public enum Component: Hashable, Sendable {
        /// An object member.
        case key(String)
        /// An array element.
        case index(Int)
    }

    /// The steps from the root, outermost first.
    public var components: [Component]

    /// Creates a path from its steps.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    public init(arrayLiteral elements: Component...) {
        self.components = elements
    }

    /// Whether the path is the root itself.
    public var isEmpty: Bool { components.isEmpty }

    /// Puts `outer` in front of this path (used while an error travels out of nested values).
    public mutating func prepend(_ outer: Component) {
        components.insert(outer, at: 0)
    }

    /// Puts `outer` in front of this path.
    public mutating func prepend(contentsOf outer: [Component]) {
        components.insert(contentsOf: outer, at: 0)
    }

    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key.contains(".") ? key.replacingOccurrences(of: ".", with: "\\.") : key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}

/// Runs `body` for the value at `component` (an element or member being read or written): a
/// ``ModelError`` it throws gets the component in front of its path, so errors say where.
///
/// ```swift
/// for (index, element) in elements.enumerated() {
///     try prefixingErrors(with: .index(index)) { try writer.encodeValue(element) }
/// }
/// ```
// Inlinable: the writers' containers run each element and member through it (`encodeArray`, `encodeDictionary` of the
// JSON, JSON object, JSONValue, Codable, archive and store writers), per value; inlined, `body` runs directly.
@inlinable
public func prefixingErrors<T>(with component: @autoclosure () -> ModelPath.Component, _ body: () throws -> T) rethrows
    -> T
{
    do {
        return try body()
    } catch let error as ModelError {
        throw error.prefixed(by: component())
    }
}
