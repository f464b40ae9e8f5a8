import Foundation

/// What ``JSONValidator/validateElements(in:format:limits:chunkSize:progress:)`` checked.
public struct JSONStreamSummary: Hashable, Sendable {
    /// The layout found: `.array` or `.ndjson`.
    public var format: JSONStreamFormat
    /// How many elements (array) or values (NDJSON) the stream holds.
    public var elementCount: Int
    /// The stream's size in bytes.
    public var byteCount: Int
}

extension JSONValidator {
    /// Checks a top-level JSON array or an NDJSON file element by element, in memory bounded
    /// by the largest element plus one chunk, whatever the file's size.
    ///
    /// The array's own punctuation is checked as it streams by, and each element is checked
    /// like a whole document (RFC 8259, see ``JSONValidator``). In an array, `maxDepth` counts
    /// the array itself, as it does for the whole document; `maxDocumentSize` bounds each
    /// element. `progress`, if given, is called after each chunk with the bytes read so far.
    /// Errors are ``JSONStreamError``s naming the element's index and byte offset.
    ///
    /// ```swift
    /// let summary = try JSONValidator.validateElements(in: url, format: .ndjson)
    /// print("\(summary.elementCount) values")
    /// ```
    public static func validateElements(
        in url: URL, format: JSONStreamFormat = .automatic, limits: JSONLimits = .default,
        chunkSize: Int = JSONFileChunks.defaultChunkSize, progress: ((Int) -> Void)? = nil
    ) throws -> JSONStreamSummary {
        let reader = try JSONFileChunks(url: url, chunkSize: chunkSize).openReader(elementIndex: 0)
        var splitter = JSONElementSplitter(format: format, maxElementSize: limits.maxDocumentSize)
        var elementLimits = limits
        var arrayStart: Int?
        let count = try splitter.forEachElement(reading: reader, progress: progress) { bytes, span, format in
            if arrayStart == nil, format == .array {
                // The array is one level: its elements may nest one level less.
                guard limits.maxDepth > 0 else { throw depthExceeded(limits, at: span) }
                elementLimits.maxDepth = limits.maxDepth - 1
                arrayStart = span.offset
            }
            do {
                // Unsafe: the element as a slice of the splitter's buffer, validated in place; the
                // splitter found the span inside the buffer, which does not change during the
                // callback.
                try validate(UnsafeRawBufferPointer(rebasing: bytes[span.range]), limits: elementLimits)
            } catch var error as JSONSyntaxError {
                if case .limitExceeded(.maxDepth, _) = error.kind, format == .array {
                    error = JSONSyntaxError(
                        .limitExceeded(.maxDepth, limit: limits.maxDepth), offset: error.offset, line: error.line,
                        column: error.column)
                }
                throw JSONStreamError.invalidElement(error, span)
            }
        }
        if splitter.format == .array, limits.maxDepth == 0 {
            throw depthExceeded(limits, at: JSONElementSpan(range: 0..<0, index: 0, offset: 0))
        }
        return JSONStreamSummary(format: splitter.format, elementCount: count, byteCount: reader.bytesRead)
    }

    /// The error for an array whose own level is already past `maxDepth`.
    static func depthExceeded(_ limits: JSONLimits, at span: JSONElementSpan) -> JSONStreamError {
        let error = JSONSyntaxError(.limitExceeded(.maxDepth, limit: limits.maxDepth), offset: 0, line: 1, column: 1)
        return JSONStreamError.invalidElement(error, span)
    }
}
