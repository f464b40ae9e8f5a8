/// One complete element found by ``JSONElementSplitter``.
// @usableFromInline: the element decode that JSONElementDecoding's inlinable init builds reads
// a span's range.
@usableFromInline
package struct JSONElementSpan: Hashable, Sendable {
    /// The element's bytes in the splitter's ``JSONElementSplitter/buffer``, valid until the
    /// next ``JSONElementSplitter/append(_:)``.
    @usableFromInline package var range: Range<Int>
    /// The element's 0-based index in the stream.
    package var index: Int
    /// The stream offset of the element's first byte.
    package var offset: Int
}

/// What ``JSONElementSplitter/next()`` found.
// @usableFromInline: switched over by the inlinable JSONElementStream.AsyncIterator.next(isolation:).
@usableFromInline
package enum JSONSplitStep: Hashable, Sendable {
    /// A complete element, to read before the next append.
    case element(JSONElementSpan)
    /// The buffer holds no complete element: append the next chunk, or call
    /// ``JSONElementSplitter/endInput()`` when there is none.
    case needsInput
    /// The stream is over and well formed.
    case end
}

/// An incremental splitter that finds each element's bytes in a top-level JSON array or in
/// newline-delimited JSON, fed one chunk at a time.
///
/// It checks the array's own punctuation (`[`, commas, `]`, nothing after it) and finds where
/// each element ends by tracking nesting depth, strings and escapes; it keeps that state between
/// chunks, so no byte is scanned twice. It does not validate the elements themselves: whoever
/// reads an element (`ModelJSON.decode(_:from:at:options:)`, ``JSONValidator``) does.
///
/// Memory: the buffer holds the unfinished element and the last chunk. Each ``append(_:)``
/// first drops the bytes already consumed, so the buffer grows only to fit one large element.
///
/// ```swift
/// var splitter = JSONElementSplitter(format: .automatic)
/// splitter.append(chunk)
/// while case .element(let span) = try splitter.next() { use(splitter.buffer[span.range]) }
/// ```
// @usableFromInline: the state of the inlinable JSONElementStream.AsyncIterator.next(isolation:),
// which calls next(), endInput() and the offsets below.
@usableFromInline
package struct JSONElementSplitter {
    /// The unconsumed bytes: the unfinished element and the chunks after it.
    package private(set) var buffer: [UInt8] = []
    /// The largest the buffer has been, in bytes.
    package private(set) var highWaterMark = 0
    /// The stream offset of `buffer[0]`.
    package private(set) var bufferOffset = 0
    /// Where the scan is, as indexes into `buffer`.
    var scan: JSONSplitScan

    /// Creates a splitter for `format`; an element over `maxElementSize` bytes is an error.
    package init(format: JSONStreamFormat, maxElementSize: Int = .max) {
        scan = JSONSplitScan(format: format, maxElementSize: max(1, maxElementSize))
    }

    /// The layout: `.automatic` until the first non-whitespace byte decides it.
    package var format: JSONStreamFormat { scan.format }
    /// How many elements have been found (the index of the next one).
    @usableFromInline package var elementCount: Int { scan.elementCount }
    /// The stream offset of the next byte to scan: how far the splitter has read.
    @usableFromInline package var scannedOffset: Int { bufferOffset + scan.position }

    /// Adds the next chunk of the stream, first dropping the bytes already consumed.
    // Unsafe: takes a chunk where it lies (the file reader's scratch array, a caller's contiguous
    // collection) and copies it into `buffer` once.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let consumed = scan.consumed
        if consumed > 0 {
            buffer.removeSubrange(0..<consumed)
            scan.shift(by: consumed)
            bufferOffset += consumed
        }
        // Unsafe: the chunks come from storage of bytes ([UInt8], Data, a Collection<UInt8>'s
        // contiguous storage), so the memory is bound to UInt8 already; viewed so, it is appended
        // in bulk.
        buffer.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
        highWaterMark = max(highWaterMark, buffer.count)
    }

    /// Marks the end of the stream: the unfinished element, if any, is complete or truncated.
    @usableFromInline package mutating func endInput() {
        scan.inputEnded = true
    }

    /// The next complete element, or what the splitter needs before it can find one.
    ///
    /// Throws ``JSONStreamError`` when the array's punctuation is wrong or the stream ends early.
    @usableFromInline package mutating func next() throws(JSONStreamError) -> JSONSplitStep {
        var scan = self.scan
        // Unsafe: the scan reads the buffer in place, without Array's checks on every byte (each
        // read follows a comparison with the count); the buffer does not change during it.
        let outcome = buffer.withUnsafeBufferPointer { scan.advance(over: $0) }
        self.scan = scan
        switch outcome {
        case .found(.element(var span)):
            span.offset += bufferOffset
            return .element(span)
        case .found(let step): return step
        case .failed(let problem): throw error(problem)
        }
    }

    /// The error for a problem the scan found.
    func error(_ problem: JSONSplitScan.Problem) -> JSONStreamError {
        let index = scan.elementCount
        let elementOffset = bufferOffset + scan.start
        switch problem {
        case .unexpectedEnd(let expected, let inElement):
            return JSONStreamError(
                .unexpectedEnd(expected: expected, inElement: inElement), elementIndex: index,
                byteOffset: inElement ? elementOffset : scannedOffset, failureOffset: scannedOffset)
        case .unexpectedByte(let at, let expected):
            return JSONStreamError(
                .unexpectedByte(buffer[at], expected: expected), elementIndex: index, byteOffset: bufferOffset + at,
                failureOffset: bufferOffset + at)
        case .trailingComma(let at):
            return JSONStreamError(
                .trailingComma, elementIndex: index, byteOffset: bufferOffset + at, failureOffset: bufferOffset + at)
        case .elementTooLarge:
            return JSONStreamError(
                .elementTooLarge(limit: scan.maxElementSize), elementIndex: index, byteOffset: elementOffset,
                failureOffset: elementOffset + scan.maxElementSize)
        }
    }
}

/// The state of ``JSONElementSplitter``'s scan, kept between chunks: the phase of the grammar,
/// and inside an array element its nesting depth and whether it is in a string or an escape.
struct JSONSplitScan {
    /// Where the scan is in the stream's grammar.
    enum Phase {
        /// Before the first non-whitespace byte.
        case start
        /// After `[`: an element or `]`.
        case beforeFirst
        /// After a comma: an element.
        case beforeNext
        /// Inside an array element.
        case inElement
        /// After an array element: `,` or `]`.
        case afterElement
        /// After the closing `]`: only whitespace.
        case closed
        /// NDJSON, between values: whitespace and blank lines.
        case lineStart
        /// NDJSON, inside a value: up to the line feed.
        case inLine
        /// An envelope: after `{` or a comma, a key (or `}` after `{`).
        case envelopeKey
        /// An envelope: inside a key.
        case envelopeInKey
        /// An envelope: after a key, the colon.
        case envelopeColon
        /// An envelope: after the colon, the member's value.
        case envelopeValue
        /// An envelope: inside a member's value that is not on the path, skipped.
        case envelopeSkip
        /// An envelope: after a member, `,` or `}`.
        case envelopeAfterMember
    }

    /// A problem found by the scan, at a buffer index.
    enum Problem {
        case unexpectedEnd(expected: String, inElement: Bool)
        case unexpectedByte(at: Int, expected: String)
        case trailingComma(at: Int)
        case elementTooLarge
    }

    /// What a scan ended with.
    enum Outcome {
        case found(JSONSplitStep)
        case failed(Problem)
    }

    var format: JSONStreamFormat
    let maxElementSize: Int
    var phase = Phase.start
    /// The next byte to scan.
    var position = 0
    /// The current element's first byte.
    var start = 0
    /// Bytes before this index are no longer needed.
    var consumed = 0
    var elementCount = 0
    var depth = 0
    var inString = false
    var escaped = false
    /// The current array element is a number or a literal: it ends at a delimiter.
    var isScalar = false
    var inputEnded = false
    /// For `.nestedArray`: the keys leading to the array, as UTF-8.
    let envelopePath: [[UInt8]]
    /// For `.nestedArray`: how many envelope objects are open.
    var envelopeLevel = 0
    /// For `.nestedArray`: whether the array was read (the members left are skipped).
    var envelopeArrayRead = false
    /// For `.nestedArray`: whether the member being read is the next step of the path.
    var memberOnPath = false
    /// For `.nestedArray`: where the key being read starts.
    var keyStart = 0

    init(format: JSONStreamFormat, maxElementSize: Int) {
        self.format = format
        self.maxElementSize = maxElementSize
        if case .nestedArray(let keyPath) = format {
            envelopePath = keyPath.split(separator: ".", omittingEmptySubsequences: false).map { Array($0.utf8) }
        } else {
            envelopePath = []
        }
    }

    /// Moves the indexes back after the buffer dropped its first `count` bytes.
    mutating func shift(by count: Int) {
        position -= count
        start = max(0, start - count)
        keyStart = max(0, keyStart - count)
        consumed -= count
    }
}

extension JSONSplitScan {
    /// Scans on from `position` until an element is complete, the input runs out, or a problem.
    // Unsafe: scans the splitter's buffer in place; every read follows a comparison with `end`.
    mutating func advance(over bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        let end = bytes.count
        while true {
            if phase.isEnvelope {
                if let outcome = advanceEnvelope(over: bytes) { return outcome }
                continue
            }
            if phase != .inElement && phase != .inLine {
                while position < end, ByteScanning.isWhitespace(bytes[position]) { position += 1 }
                consumed = position
                if position == end {
                    if !inputEnded { return .found(.needsInput) }
                    if let expected = expectedAtEnd() { return .failed(.unexpectedEnd(expected: expected, inElement: false)) }
                    return .found(.end)
                }
            }
            // Every phase but the two inside a value stopped above at a byte to look at.
            let byte = phase == .inElement || phase == .inLine ? 0 : bytes[position]
            switch phase {
            case .start:
                if format == .automatic { format = byte == UInt8(ascii: "[") ? .array : .ndjson }
                if case .nestedArray = format {
                    guard byte == UInt8(ascii: "{") else {
                        return .failed(.unexpectedByte(at: position, expected: "'{' to start the envelope"))
                    }
                    position += 1
                    envelopeLevel = 1
                    phase = .envelopeKey
                } else if format == .ndjson {
                    phase = .lineStart
                } else if byte == UInt8(ascii: "[") {
                    position += 1
                    phase = .beforeFirst
                } else {
                    return .failed(.unexpectedByte(at: position, expected: "'[' to start a top-level array"))
                }
            case .beforeFirst, .beforeNext:
                if byte == UInt8(ascii: "]") {
                    if phase == .beforeNext { return .failed(.trailingComma(at: position)) }
                    position += 1
                    phase = envelopeLevel > 0 ? .envelopeAfterMember : .closed
                    envelopeArrayRead = true
                } else {
                    beginElement(with: byte)
                }
            case .inElement:
                guard let elementEnd = scanElement(bytes) else {
                    if position - start > maxElementSize { return .failed(.elementTooLarge) }
                    if !inputEnded { return .found(.needsInput) }
                    let expected = inString ? "'\"' to close a string" : "'}' or ']' to close the element"
                    return .failed(.unexpectedEnd(expected: expected, inElement: true))
                }
                phase = .afterElement
                return .found(.element(completeElement(endingAt: elementEnd)))
            case .afterElement:
                guard byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") else {
                    return .failed(.unexpectedByte(at: position, expected: "',' or ']' after element \(elementCount - 1)"))
                }
                position += 1
                if byte == UInt8(ascii: ",") {
                    phase = .beforeNext
                } else {
                    phase = envelopeLevel > 0 ? .envelopeAfterMember : .closed
                    envelopeArrayRead = true
                }
            case .closed:
                return .failed(.unexpectedByte(at: position, expected: "the end of input after the array's closing ']'"))
            case .envelopeKey, .envelopeInKey, .envelopeColon, .envelopeValue, .envelopeSkip, .envelopeAfterMember:
                break   // advanceEnvelope, above
            case .lineStart:
                start = position
                phase = .inLine
            case .inLine:
                let lineEnd = Self.lineFeed(in: bytes, from: position)
                position = lineEnd ?? end
                if lineEnd == nil {
                    if position - start > maxElementSize { return .failed(.elementTooLarge) }
                    if !inputEnded { return .found(.needsInput) }
                }
                var valueEnd = position
                while valueEnd > start, ByteScanning.isWhitespace(bytes[valueEnd - 1]) { valueEnd -= 1 }
                if lineEnd != nil { position += 1 }
                phase = .lineStart
                return .found(.element(completeElement(endingAt: valueEnd)))
            }
        }
    }

    /// What was due when the input ended between elements, or nil when it may end there.
    func expectedAtEnd() -> String? {
        switch phase {
        case .start: format == .array ? "'[' to start a top-level array" : nil
        case .beforeFirst: "a value or ']'"
        case .beforeNext: "a value"
        case .afterElement: "',' or ']' after element \(elementCount - 1)"
        case .closed, .lineStart, .inElement, .inLine: nil
        case .envelopeKey, .envelopeInKey, .envelopeColon, .envelopeValue, .envelopeSkip, .envelopeAfterMember:
            "'}' to close the envelope"
        }
    }

    /// Starts an array element at `position`, whose first byte is `byte`.
    mutating func beginElement(with byte: UInt8) {
        start = position
        consumed = position
        phase = .inElement
        depth = 0
        inString = false
        escaped = false
        isScalar = false
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth = 1
        case UInt8(ascii: "\""): inString = true
        default:
            isScalar = true
            return
        }
        position += 1
    }

    /// Records the element from `start` to `end` as found and consumed (its offset is a buffer
    /// index until the splitter adds the buffer's offset).
    mutating func completeElement(endingAt end: Int) -> JSONElementSpan {
        let span = JSONElementSpan(range: start..<end, index: elementCount, offset: start)
        elementCount += 1
        consumed = position
        return span
    }

    /// Scans the current array element on from `position`; returns its end (exclusive) once it
    /// is complete, or nil when the buffer ends first (a scalar is complete at the end of input).
    // Unsafe: scans the splitter's buffer in place; every read follows a comparison with `end`.
    mutating func scanElement(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let end = bytes.count
        if isScalar {
            while position < end, !Self.endsScalar(bytes[position]) { position += 1 }
            return position < end || inputEnded ? position : nil
        }
        while position < end {
            if inString {
                if escaped {
                    escaped = false
                    position += 1
                    continue
                }
                position = Self.quoteOrBackslash(in: bytes, from: position)
                guard position < end else { return nil }
                let isBackslash = bytes[position] == UInt8(ascii: "\\")
                position += 1
                if isBackslash {
                    escaped = true
                } else {
                    inString = false
                    if depth == 0 { return position }
                }
                continue
            }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return position }
            default: break
            }
        }
        return nil
    }
}
