/// Bounds that a JSON reader enforces so that hostile input cannot exhaust the stack or memory.
///
/// Every reader in ModelKitJSON (``JSONScanner``, `JSONValue(parsing:)`, ``JSONValidator``) takes
/// limits; exceeding one throws a ``JSONSyntaxError`` of kind
/// ``JSONSyntaxError/Kind/limitExceeded(_:limit:)`` that names the limit and its value.
/// None of the readers recurse, so even `Int.max` as `maxDepth` cannot overflow the stack while
/// reading. The limit bounds memory and protects code that does recurse over the result: a
/// `JSONValue` tree is compared, hashed and freed recursively by Swift, so a tree many thousands
/// of levels deep can overflow a thread's stack when it is released. Keep `maxDepth` modest
/// (the default 512 is safe on any thread) when parsing into `JSONValue`.
///
/// ```swift
/// let limits = JSONLimits(maxDepth: 64, maxStringLength: 1 << 20)
/// let value = try JSONValue(parsing: data, limits: limits)
/// ```
public struct JSONLimits: Hashable, Sendable {
    /// The names of the limits, as used in error messages (`'maxDepth'`).
    public enum Name: String, Hashable, Sendable {
        /// ``JSONLimits/maxDepth``.
        case maxDepth
        /// ``JSONLimits/maxStringLength``.
        case maxStringLength
        /// ``JSONLimits/maxDocumentSize``.
        case maxDocumentSize

        /// The violation as words for an error message.
        func violation(limit: Int) -> String {
            switch self {
            case .maxDepth:
                "nesting is deeper than the limit 'maxDepth' (\(limit))"
            case .maxStringLength:
                "a string is longer than the limit 'maxStringLength' (\(limit) bytes)"
            case .maxDocumentSize:
                "the document is larger than the limit 'maxDocumentSize' (\(limit) bytes)"
            }
        }
    }

    /// The most objects and arrays that may be open at once (default 512).
    ///
    /// A document of depth `maxDepth` is accepted; opening one more container is an error.
    public var maxDepth: Int
    /// The most bytes a string may take between its quotes, as written in the document
    /// (escapes counted as written). Default: no limit.
    public var maxStringLength: Int
    /// The most bytes a document may have. Default: no limit.
    public var maxDocumentSize: Int

    /// Creates limits; negative values are treated as zero.
    public init(maxDepth: Int = 512, maxStringLength: Int = .max, maxDocumentSize: Int = .max) {
        self.maxDepth = max(0, maxDepth)
        self.maxStringLength = max(0, maxStringLength)
        self.maxDocumentSize = max(0, maxDocumentSize)
    }

    /// Depth 512, strings and documents of any size.
    public static let `default` = JSONLimits()
}
