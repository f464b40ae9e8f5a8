import ModelKitCore

/// A failure while reading a stream of JSON elements: which element, where, and why.
///
/// Every problem names the element's 0-based index and byte offsets in the stream:
/// ``byteOffset`` is where the element starts (or, between elements, where the stream went
/// wrong) and ``failureOffset`` is the byte at fault when it is known more precisely, such as a
/// syntax error inside the element.
///
/// ```swift
/// do {
///     for try await user in ModelJSON.elements(of: User.self, in: url) { ... }
/// } catch let error as JSONStreamError {
///     print(error) // cannot decode element 3 at byte 1234: cannot map 'User.age' at 'age': ...
/// }
/// ```
public struct JSONStreamError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, without the details.
    ///
    /// Kinds can be added in a minor release, so a `switch` over them needs a `default`;
    /// compare one with `==` (`error.kind == .unexpectedEnd`).
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, e.g. `invalidElement`.
        public let rawValue: String

        /// The kind named `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A complete element is not valid JSON or cannot be mapped (see ``JSONStreamError/underlying``).
        public static let invalidElement = Kind(rawValue: "invalidElement")
        /// The stream ended inside an element, or before the array's `]`.
        public static let unexpectedEnd = Kind(rawValue: "unexpectedEnd")
        /// A byte that does not belong: a missing comma, text after the array's `]`, or a
        /// top-level value that is not an array where one was required.
        public static let unexpectedByte = Kind(rawValue: "unexpectedByte")
        /// A comma right before the array's `]`.
        public static let trailingComma = Kind(rawValue: "trailingComma")
        /// One element is larger than the limit (`MappingOptions.maxDocumentSize`).
        public static let elementTooLarge = Kind(rawValue: "elementTooLarge")
        /// Reading the input failed (see ``JSONStreamError/underlying``).
        public static let readFailed = Kind(rawValue: "readFailed")

        public var description: String { rawValue }
    }

    /// What went wrong, with the details.
    enum Detail {
        case invalidElement(any Error)
        case unexpectedEnd(expected: String, inElement: Bool)
        case unexpectedByte(UInt8, expected: String)
        case trailingComma
        case elementTooLarge(limit: Int)
        case readFailed(any Error)
        /// Made by ``JSONStreamError/init(_:elementIndex:byteOffset:failureOffset:message:underlying:)``.
        case other(Kind, message: String?, underlying: (any Error)?)
    }

    let detail: Detail
    /// The 0-based index of the element being read, or of the one due next between elements.
    public let elementIndex: Int
    /// The stream offset of the element's first byte; between elements, of the failure.
    public let byteOffset: Int
    /// The stream offset of the failure itself, as precisely as it is known.
    public let failureOffset: Int

    /// An error of `kind` at element `elementIndex`, for a reader of your own that reports as
    /// ModelKit's streams do; `message` replaces the standard wording, and `underlying` is the
    /// cause (an invalid element's mapping error, a failed read's I/O error).
    ///
    /// ```swift
    /// throw JSONStreamError(.readFailed, elementIndex: 3, byteOffset: 1234, underlying: error)
    /// ```
    public init(
        _ kind: Kind, elementIndex: Int, byteOffset: Int, failureOffset: Int? = nil, message: String? = nil,
        underlying: (any Error)? = nil
    ) {
        self.init(
            .other(kind, message: message, underlying: underlying), elementIndex: elementIndex, byteOffset: byteOffset,
            failureOffset: failureOffset ?? byteOffset)
    }

    init(_ detail: Detail, elementIndex: Int, byteOffset: Int, failureOffset: Int) {
        self.detail = detail
        self.elementIndex = elementIndex
        self.byteOffset = byteOffset
        self.failureOffset = failureOffset
    }

    /// An element that the reader (mapping or validation) rejected; a syntax error inside it
    /// places ``failureOffset`` on the byte at fault.
    // @usableFromInline: the element decode JSONElementDecoding's inlinable init builds throws it.
    @usableFromInline
    static func invalidElement(_ error: any Error, _ span: JSONElementSpan) -> JSONStreamError {
        let failure = Self.syntaxError(in: error).map { span.offset + $0.offset } ?? span.offset
        return JSONStreamError(
            .invalidElement(error), elementIndex: span.index, byteOffset: span.offset, failureOffset: failure)
    }

    /// Reading the input failed after `offset` bytes, while `index` elements were done.
    // @usableFromInline: thrown by the inlinable JSONElementStream.AsyncIterator.next(isolation:).
    @usableFromInline
    static func readFailed(_ error: any Error, elementIndex index: Int, at offset: Int) -> JSONStreamError {
        JSONStreamError(.readFailed(error), elementIndex: index, byteOffset: offset, failureOffset: offset)
    }

    /// The JSON syntax error inside a reader's error, if that is what it is.
    static func syntaxError(in error: any Error) -> JSONSyntaxError? {
        if let syntax = error as? JSONSyntaxError { return syntax }
        if let error = error as? ModelError, error.kind == .malformedInput { return error.underlying as? JSONSyntaxError }
        return nil
    }

    /// What went wrong.
    public var kind: Kind {
        switch detail {
        case .invalidElement: .invalidElement
        case .unexpectedEnd: .unexpectedEnd
        case .unexpectedByte: .unexpectedByte
        case .trailingComma: .trailingComma
        case .elementTooLarge: .elementTooLarge
        case .readFailed: .readFailed
        case .other(let kind, _, _): kind
        }
    }

    /// The error behind this one: the `ModelError` or ``JSONSyntaxError`` of an invalid
    /// element, or the I/O error of a failed read.
    public var underlying: (any Error)? {
        switch detail {
        case .invalidElement(let error), .readFailed(let error): error
        case .other(_, _, let error): error
        default: nil
        }
    }

    /// The problem as one lowercase sentence.
    ///
    /// `cannot decode element 3 at byte 1234: cannot map 'User.age' at 'age': expected an integer, found "x"`
    public var description: String {
        switch detail {
        case .invalidElement(let error):
            let verb = error is ModelError ? "cannot decode" : "invalid"
            let subject = "\(verb) element \(elementIndex) at byte \(byteOffset)"
            guard let syntax = Self.syntaxError(in: error) else { return "\(subject): \(error)" }
            return "\(subject): invalid JSON at byte \(failureOffset) (line \(syntax.line), column \(syntax.column) "
                + "of the element): \(syntax.message)"
        case .unexpectedEnd(let expected, true):
            return "unexpected end of input at byte \(failureOffset) in element \(elementIndex) at byte \(byteOffset), "
                + "expected \(expected)"
        case .unexpectedEnd(let expected, false):
            return "unexpected end of input at byte \(failureOffset), expected \(expected)"
        case .unexpectedByte(let byte, let expected):
            return "expected \(expected), found \(JSONTextLocation.describe(byte: byte)) at byte \(failureOffset)"
        case .trailingComma:
            return "a trailing comma is not allowed before ']' at byte \(failureOffset)"
        case .elementTooLarge(let limit):
            return "element \(elementIndex) at byte \(byteOffset) is larger than the limit 'maxDocumentSize' "
                + "(\(limit) bytes)"
        case .readFailed(let error):
            return "cannot read the input at byte \(failureOffset): \(error)"
        case let .other(kind, message, underlying):
            let reason = message ?? underlying.map { "\($0)" } ?? "\(kind)"
            return "element \(elementIndex) at byte \(byteOffset): \(reason)"
        }
    }
}

// MARK: Spellings of earlier releases

extension JSONStreamError {
    @available(*, deprecated, renamed: "Kind")
    public typealias Code = Kind

    @available(*, deprecated, renamed: "kind")
    public var code: Kind { kind }
}
