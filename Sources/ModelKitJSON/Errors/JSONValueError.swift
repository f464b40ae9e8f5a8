/// A well-formed JSON value that is not what the reader asked for: the wrong kind, or a number
/// that does not fit the requested type.
///
/// The scanner throws it *before* consuming the value, so a caller that collects errors can
/// describe the problem and then call ``JSONScanner/skipValue()`` to move on. The error carries
/// the kind it found and a short excerpt of the literal for messages.
///
/// ```swift
/// var scanner = JSONScanner(bytes: buffer) // over `{"when": 42}`
/// try scanner.beginObject()
/// _ = try scanner.nextKey { _ in () }
/// do { _ = try scanner.readString() } catch let error as JSONValueError {
///     print(error.message)      // expected a string, found number 42
///     try scanner.skipValue()   // the value is still there
/// }
/// ```
public struct JSONValueError: Error, Hashable, CustomStringConvertible, Sendable {
    /// Why the value could not be read as asked.
    ///
    /// Not frozen: kinds can be added in a minor release, so a `switch` over them needs a
    /// `default`.
    public enum Kind: Hashable, Sendable {
        /// The value is of another kind than the one asked for.
        case typeMismatch(expected: JSONValueKind)
        /// A number with a fraction (or a negative exponent) that is not a whole number,
        /// read as the named integer type.
        case notAnInteger(type: String)
        /// A number whose value does not fit the named type (`'Int64'`, `'UInt64'`, `'Double'`, ...).
        case numberOutOfRange(type: String)
    }

    /// Why the value could not be read.
    public let kind: Kind
    /// The kind of value that was found.
    public let found: JSONValueKind
    /// A short excerpt of the value as written, such as `42` or `"yesterday"` (at most ~40 characters).
    public let excerpt: String
    /// The 0-based byte offset where the value starts.
    public let offset: Int
    /// The 1-based line where the value starts.
    public let line: Int
    /// The 1-based column where the value starts, counted in Unicode scalars.
    public let column: Int

    /// Creates an error at a known location.
    public init(_ kind: Kind, found: JSONValueKind, excerpt: String, offset: Int, line: Int, column: Int) {
        self.kind = kind
        self.found = found
        self.excerpt = excerpt
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// Creates an error for the value starting at `offset` in `document`, working out its line and column.
    // Unsafe: reads the document in place to count lines and columns up to `offset`; the scanner
    // passes the buffer it borrows, alive during the call.
    public init(_ kind: Kind, found: JSONValueKind, excerpt: String, offset: Int, in document: UnsafeRawBufferPointer) {
        let location = JSONTextLocation(offset: offset, in: document)
        self.init(kind, found: found, excerpt: excerpt, offset: offset, line: location.line, column: location.column)
    }

    /// The same error about a number, naming `type` instead of the type it was read as.
    // @usableFromInline: called by the inlinable JSONScanner.readInteger(_:) when a number does not
    // fit the requested type; errors only, so out of line.
    @usableFromInline
    func naming(type: String) -> JSONValueError {
        let renamed: Kind
        switch kind {
        case .typeMismatch: return self
        case .notAnInteger: renamed = .notAnInteger(type: type)
        case .numberOutOfRange: renamed = .numberOutOfRange(type: type)
        }
        return JSONValueError(renamed, found: found, excerpt: excerpt, offset: offset, line: line, column: column)
    }

    /// The found value as words, such as `number 42`, `string "yesterday"` or `null`.
    public var foundDescription: String {
        found.describe(excerpt: excerpt)
    }

    /// The problem as one lowercase sentence, without the location.
    public var message: String {
        switch kind {
        case .typeMismatch(let expected):
            return "expected \(expected.withArticle), found \(foundDescription)"
        case .notAnInteger(let type):
            return "number \(excerpt) is not a whole number, so it cannot be read as '\(type)'"
        case .numberOutOfRange(let type):
            return "number \(excerpt) is out of range for '\(type)'"
        }
    }

    /// The error as one sentence: `unexpected value at line L, column C (byte B): message`.
    public var description: String {
        "unexpected value at line \(line), column \(column) (byte \(offset)): \(message)"
    }
}
