import Foundation

/// Options for one mapping run, shared by every format.
///
/// ```swift
/// var options = MappingOptions()
/// options.collectsAllErrors = true      // report every problem at once
/// options.nilEncoding = .omit           // leave nil properties out of the output
/// let user = try User(json: payload, options: options)
/// ```
public struct MappingOptions: Sendable {
    /// How nil properties are written.
    public enum NilEncoding: Hashable, Sendable {
        /// Write `null` (JSON) or `NSNull` (JSON objects).
        case null
        /// Leave the key out.
        case omit
    }

    /// Keep going after a problem and throw one ``ModelError`` of code
    /// ``ModelError/Kind/multiple`` listing every problem, instead of stopping at the first.
    public var collectsAllErrors = false
    /// Run per-property validators and `validate()` after mapping.
    public var validates = true
    /// How nil properties are written; `null` by default, like `dictionaryValue`'s `NSNull`.
    public var nilEncoding = NilEncoding.null
    /// Write object keys sorted (JSON output).
    public var sortsKeys = false
    /// What payload keys no property reads mean for this run: nil follows each model's
    /// `@Model(unknownKeys:)`, `.reject` makes every model strict, `.ignore` none.
    public var unknownKeys: UnknownKeyPolicy?
    /// The deepest nesting of objects and arrays a reader or writer accepts.
    public var maxDepth = 512
    /// The longest string, in bytes as written, that a reader of bytes (JSON) accepts. No
    /// limit by default.
    public var maxStringLength = Int.max
    /// The largest document, in bytes, that a reader of bytes (JSON) accepts. No limit by default.
    public var maxDocumentSize = Int.max
    /// Receives what lossy transformers drop, when set.
    public var report: MappingReport?

    /// The default options.
    public static let `default` = MappingOptions()

    /// Creates the default options.
    public init() {}

    /// Whether readers may decode a plain property without pushing its key onto the error path:
    /// only when nothing (collected errors, a report of dropped elements) needs the path mid-read.
    // Inlinable: the inlinable `MappingFlags.init` reads it, so it must be usable from inline; inlined there, two
    // loads.
    @inlinable package var readsPlainFieldsDirectly: Bool {
        !collectsAllErrors && report == nil
    }
}

extension MappingOptions {
    /// The `userInfo` key under which a `Decoder` gives models its mapping options: what
    /// `Codable` users set to get a ``MappingReport``, collect-all errors or strict mode.
    ///
    /// ```swift
    /// let decoder = JSONDecoder()
    /// decoder.userInfo[MappingOptions.userInfoKey] = options
    /// ```
    public static let userInfoKey = CodingUserInfoKey(rawValue: "ModelKit.MappingOptions")!
}

/// Collects what a mapping run went on past without failing: bad elements a lossy array skipped,
/// values a property's default replaced (`@Key(onError: .useDefault)`).
///
/// ```swift
/// let report = MappingReport()
/// var options = MappingOptions()
/// options.report = report
/// let feed = try Feed(json: payload, options: options)
/// report.droppedElements // the errors of the elements left out
/// ```
public final class MappingReport: Sendable {
    private let dropped = Locked<[ModelError]>([])
    private let defaulted = Locked<[ModelError]>([])

    /// Creates an empty report.
    public init() {}

    /// The errors of the elements lossy arrays dropped, in payload order.
    public var droppedElements: [ModelError] {
        dropped.withLock { $0 }
    }

    /// Records a dropped element.
    public func recordDroppedElement(_ error: ModelError) {
        dropped.withLock { $0.append(error) }
    }

    /// The errors of the values properties with `@Key(onError: .useDefault)` replaced by their
    /// default, in payload order.
    public var defaultedValues: [ModelError] {
        defaulted.withLock { $0 }
    }

    /// Records a value replaced by its property's default.
    public func recordDefaultedValue(_ error: ModelError) {
        defaulted.withLock { $0.append(error) }
    }
}
