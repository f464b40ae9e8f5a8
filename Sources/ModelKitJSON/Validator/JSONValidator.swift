/// A pure syntax check of a JSON document against RFC 8259, building nothing.
///
/// `validate` passes over the document once without allocating (the nesting bit stack, one bit
/// per level allowed by ``JSONLimits/maxDepth``, lives on the call stack for any sensible limit)
/// and throws the first ``JSONSyntaxError`` with its line and column; making the error is the
/// only thing that allocates. It is
/// what `modelkit json check FILE...` runs, and it accepts exactly what `JSONValue(parsing:)`
/// and ``JSONScanner`` accept:
///
/// - one value, with only whitespace (space, tab, line feed, carriage return) around it;
/// - numbers without leading zeros, `+`, a bare `.` or a bare exponent; no `NaN` or `Infinity`;
/// - strings with only the RFC escapes, no raw control characters, well-formed UTF-8 (no
///   overlong forms, encoded surrogates, bytes above F4 or truncated sequences), and `\u`
///   surrogate escapes only in valid pairs;
/// - no trailing commas, comments or single quotes;
/// - no byte order mark: RFC 8259 forbids senders to add one, so it is rejected with its own
///   message rather than skipped;
/// - nesting up to ``JSONLimits/maxDepth`` (512 by default) and the other ``JSONLimits``.
///
/// ```swift
/// for file in files {
///     do { try JSONValidator.validate(try Data(contentsOf: file)) }
///     catch { print("\(file.path): \(error)") }
/// }
/// ```
public enum JSONValidator {
    /// Checks that `bytes` hold one valid JSON document; throws ``JSONSyntaxError`` if not.
    // Unsafe: checks bytes where they lie (the overloads below lend a collection's or a string's
    // storage), no copy; they stay alive during the call.
    public static func validate(_ bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default) throws {
        var scanner = JSONScanner(bytes: bytes, limits: limits)
        try scanner.skipValue()
        try scanner.finish()
    }

    /// Checks that `bytes` (an array, `Data`, a slice, ...) hold one valid JSON document.
    public static func validate(_ bytes: some Collection<UInt8>, limits: JSONLimits = .default) throws {
        try withContiguousBytes(of: bytes) { try validate($0, limits: limits) }
    }

    /// Checks that the UTF-8 form of `text` is one valid JSON document.
    public static func validate(_ text: String, limits: JSONLimits = .default) throws {
        var text = text
        // Unsafe: the string's UTF-8 storage, checked in place.
        try text.withUTF8 { try validate(UnsafeRawBufferPointer($0), limits: limits) }
    }

    /// Whether `bytes` hold one valid JSON document.
    public static func isValid(_ bytes: some Collection<UInt8>, limits: JSONLimits = .default) -> Bool {
        (try? validate(bytes, limits: limits)) != nil
    }

    /// Whether the UTF-8 form of `text` is one valid JSON document.
    ///
    /// ```swift
    /// JSONValidator.isValid("[1, 2]") // true
    /// JSONValidator.isValid("[1, 2,]") // false
    /// ```
    public static func isValid(_ text: String, limits: JSONLimits = .default) -> Bool {
        (try? validate(text, limits: limits)) != nil
    }
}

/// Calls `body` with the bytes of `collection` in contiguous memory, copying them only when the
/// collection does not already store them so.
// @usableFromInline: no inlinable body calls this (only the validator's and JSONValue's public
// initializers, out of line, do): a candidate for removal.
// Unsafe: `body` gets the collection's own storage when it has one, else a copy in an array; in
// place, valid during the call.
@usableFromInline
func withContiguousBytes<C: Collection<UInt8>, R>(
    of collection: C, _ body: (UnsafeRawBufferPointer) throws -> R
) throws -> R {
    // Unsafe: the collection's contiguous storage, lent as raw bytes for the call.
    if let result = try collection.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
        return result
    }
    // Unsafe: other collections are copied into an array once, lent for the call.
    return try Array(collection).withUnsafeBytes(body)
}
