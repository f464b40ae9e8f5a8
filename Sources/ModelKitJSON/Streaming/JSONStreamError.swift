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
public struct JSONStreamError: Error, CustomStringConvertible {
    /// What went wrong, without the details.
    public enum Code: Hashable, Sendable {
        /// A complete element is not valid JSON or cannot be mapped (see ``JSONStreamError/underlying``).
        case invalidElement
        /// The stream ended inside an element, or before the array's `]`.
        case unexpectedEnd
        /// A byte that does not belong: a missing comma, text after the array's `]`, or a
        /// top-level value that is not an array where one was required.
        case unexpectedByte
        /// A comma right before the array's `]`.
        case trailingComma
        /// One element is larger than the limit (`MappingOptions.maxDocumentSize`).
        case elementTooLarge
        /// Reading the input failed (see ``JSONStreamError/underlying``).
        case readFailed
    }

    enum Kind {
        case invalidElement(any Error)
        case unexpectedEnd(expected: String, inElement: Bool)
        case unexpectedByte(UInt8, expected: String)
        case trailingComma
        case elementTooLarge(limit: Int)
        case readFailed(any Error)
    }

    let kind: Kind
    /// The 0-based index of the element being read, or of the one due next between elements.
    public let elementIndex: Int
    /// The stream offset of the element's first byte; between elements, of the failure.
    public let byteOffset: Int
    /// The stream offset of the failure itself, as precisely as it is known.
    public let failureOffset: Int

    init(_ kind: Kind, elementIndex: Int, byteOffset: Int, failureOffset: Int) {
        self.kind = kind
        self.elementIndex = elementIndex
        self.byteOffset = byteOffset
        self.failureOffset = failureOffset
    }

    /// An element that the reader (mapping or validation) rejected; a syntax error inside it
    /// places ``failureOffset`` on the byte at fault.
    static func invalidElement(_ error: any Error, _ span: JSONElementSpan) -> JSONStreamError {
        let failure = Self.syntaxError(in: error).map { span.offset + $0.offset } ?? span.offset
        return JSONStreamError(
            .invalidElement(error), elementIndex: span.index, byteOffset: span.offset, failureOffset: failure)
    }

    /// Reading the input failed after `offset` bytes, while `index` elements were done.
    static func readFailed(_ error: any Error, elementIndex index: Int, at offset: Int) -> JSONStreamError {
        JSONStreamError(.readFailed(error), elementIndex: index, byteOffset: offset, failureOffset: offset)
    }

    /// The JSON syntax error inside a reader's error, if that is what it is.
    static func syntaxError(in error: any Error) -> JSONSyntaxError? {
        if let syntax = error as? JSONSyntaxError { return syntax }
        if let error = error as? ModelError, error.code == .malformedInput { return error.underlying as? JSONSyntaxError }
        return nil
    }

    /// What went wrong.
    public var code: Code {
        switch kind {
        case .invalidElement: .invalidElement
        case .unexpectedEnd: .unexpectedEnd
        case .unexpectedByte: .unexpectedByte
        case .trailingComma: .trailingComma
        case .elementTooLarge: .elementTooLarge
        case .readFailed: .readFailed
        }
    }

    /// The error behind this one: the ``ModelError`` or ``JSONSyntaxError`` of an invalid
    /// element, or the I/O error of a failed read.
    public var underlying: (any Error)? {
        switch kind {
        case .invalidElement(let error), .readFailed(let error): error
        default: nil
        }
    }

    /// The problem as one lowercase sentence.
    ///
    /// `cannot decode element 3 at byte 1234: cannot map 'User.age' at 'age': expected an integer, found "x"`
    public var description: String {
        switch kind {
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
        }
    }
}
