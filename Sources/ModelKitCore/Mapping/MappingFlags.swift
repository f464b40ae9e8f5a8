/// The switches of ``MappingOptions`` that reading tests per field, per element and per object,
/// as one small value that copies without retaining anything.
///
/// A reader's ``ModelReader/options`` hold a reference (a report); reading them
/// through a generic reader copies them, retains included, which a model's generated decoder,
/// unspecialized for the store's reader, did several times per row. Readers keep their flags
/// beside their options (``ModelReader/flags``):
///
/// ```swift
/// if reader.flags.collectsAllErrors { ... }
/// ```
public struct MappingFlags: Hashable, Sendable {
    /// ``MappingOptions/collectsAllErrors``.
    public var collectsAllErrors: Bool
    /// ``MappingOptions/validates``.
    public var validates: Bool
    /// ``MappingOptions/unknownKeys``.
    public var unknownKeys: UnknownKeyPolicy?
    /// Whether the reader maps through a context (``ModelReader/context``).
    public var hasContext: Bool
    /// Whether readers may decode a plain property without pushing its key onto the error path:
    /// only when nothing (collected errors, a report of dropped elements) needs the path mid-read.
    public var readsPlainFieldsDirectly: Bool

    /// The flags of `options`, for a reader with a context or without.
    // Inlinable: the default `ModelReader.flags` builds flags on every use for readers that keep none (JSONValueReader,
    // CodableReader), per field and per object; inlined there, five copies from the options.
    @inlinable
    public init(_ options: MappingOptions, hasContext: Bool = false) {
        collectsAllErrors = options.collectsAllErrors
        validates = options.validates
        unknownKeys = options.unknownKeys
        self.hasContext = hasContext
        readsPlainFieldsDirectly = options.readsPlainFieldsDirectly
    }
}
