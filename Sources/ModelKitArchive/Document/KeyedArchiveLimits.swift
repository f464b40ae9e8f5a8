import ModelKitCore
import ModelKitPropertyList

/// Bounds the unarchiver enforces on untrusted archives, on top of the property-list reader's.
///
/// Decoding never recurses without a bound: nesting deeper than ``maxDepth`` fails with
/// ``KeyedArchiveError/Kind/limitExceeded(_:limit:)``, except that references through optional
/// properties of class models (and generic objects) are decoded later at a shallow depth, so a
/// linked list of any length decodes. A violation names the limit:
///
/// ```swift
/// var limits = KeyedArchiveLimits.default
/// limits.maxDepth = 64
/// let unarchiver = try KeyedUnarchiver(data: data, limits: limits)
/// ```
public struct KeyedArchiveLimits: Hashable, Sendable {
    /// The name of one limit, as it appears in error messages.
    public enum Limit: String, Hashable, Sendable, CustomStringConvertible {
        /// `maxDepth`: objects nested inside objects while decoding.
        case maxDepth
        /// `maxObjectCount`: entries of `$objects`.
        case maxObjectCount
        /// `maxDecodedObjects`: objects decoded in all, counting an object once per reference.
        case maxDecodedObjects

        /// The limit's property name, e.g. `maxDepth`.
        public var description: String { rawValue }

        /// What the limit counts, for messages.
        var noun: String {
            switch self {
            case .maxDepth: return "nesting depth"
            case .maxObjectCount: return "object count"
            case .maxDecodedObjects: return "number of decoded objects"
            }
        }
    }

    /// The deepest nesting of objects (models, collections, Foundation objects) decoded by
    /// recursion. Default 200.
    public var maxDepth: Int
    /// The most entries in `$objects`. Default 10,000,000.
    public var maxObjectCount: Int
    /// The most object decodings in one unarchiver, counting an object again each time a value
    /// type (an array, a struct model) referenced from several places is decoded; bounds the work
    /// of archives whose shared references would expand exponentially. Default 20,000,000.
    public var maxDecodedObjects: Int
    /// The property-list reader's limits (string and data sizes, collection counts, ...).
    public var propertyList: PropertyListLimits

    /// Creates limits; each parameter defaults to the value in ``default``.
    ///
    /// ```swift
    /// let strict = KeyedArchiveLimits(maxDepth: 32, maxObjectCount: 100_000)
    /// ```
    public init(
        maxDepth: Int = 200,
        maxObjectCount: Int = 10_000_000,
        maxDecodedObjects: Int = 20_000_000,
        propertyList: PropertyListLimits = .default
    ) {
        self.maxDepth = maxDepth
        self.maxObjectCount = maxObjectCount
        self.maxDecodedObjects = maxDecodedObjects
        self.propertyList = propertyList
    }

    /// The defaults: depth 200, 10 million objects, 20 million decodings, default property-list limits.
    public static let `default` = KeyedArchiveLimits()

    /// The value of one limit.
    public func value(of limit: Limit) -> Int {
        switch limit {
        case .maxDepth: return maxDepth
        case .maxObjectCount: return maxObjectCount
        case .maxDecodedObjects: return maxDecodedObjects
        }
    }
}
