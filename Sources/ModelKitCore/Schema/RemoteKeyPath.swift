import ModelKitShared

/// A path to a value in a remote payload: `user.address.city`, `media.0.url`.
///
/// Segments are object keys; a segment of digits also selects an array element when the
/// value at that point is an array. `@Model` splits declared paths at compile time; a literal
/// dot inside a key is written `\.`:
///
/// ```swift
/// RemoteKeyPath("entities.url.urls").segments // ["entities", "url", "urls"]
/// RemoteKeyPath("media.0.url").segments       // ["media", "0", "url"]
/// RemoteKeyPath(#"a\.b.c"#).segments           // ["a.b", "c"]
/// ```
public struct RemoteKeyPath: Hashable, Sendable, CustomStringConvertible {
    /// The keys from the outermost object in.
    public let segments: [String]

    /// Creates a path from its segments.
    public init(segments: [String]) {
        self.segments = segments
    }

    /// Splits a dotted path; `\.` is a literal dot and `\\` a literal backslash.
    public init(_ path: String) {
        self.segments = KeyPathSyntax.split(path)
    }

    public var description: String {
        KeyPathSyntax.join(segments)
    }

    /// The path as error-path components (digits as keys: the payload decides).
    package var pathComponents: [ModelPath.Component] {
        segments.map { .key($0) }
    }
}

/// The array index a key path segment names, if it is all digits.
package func arrayIndex(of segment: String) -> Int? {
    guard !segment.isEmpty, segment.utf8.count <= 9, segment.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
        return nil
    }
    return Int(segment)
}
