/// An error from reading or writing a property list: what went wrong, and where.
///
/// Binary errors carry the byte offset of the offending object or field; XML errors carry a
/// 1-based line and column (columns count Unicode scalars). `description` is one lowercase
/// sentence:
///
/// ```swift
/// do {
///     _ = try PropertyListValue(binary: bytes)
/// } catch let error as PropertyListError {
///     print(error)
///     // invalid binary property list at byte 1234: object reference 99 is out of range (42 objects)
///     if case .limitExceeded(.maxDepth, _, _) = error.kind { /* too deep */ }
/// }
/// ```
public struct PropertyListError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The operation that failed.
    public enum Operation: Hashable, Sendable {
        /// Reading a binary (`bplist00`) property list.
        case readingBinary
        /// Reading an XML property list.
        case readingXML
        /// Writing a binary property list.
        case writingBinary
        /// Writing an XML property list.
        case writingXML
    }

    /// Where in the input the error was found.
    public enum Location: Hashable, Sendable {
        /// A byte offset from the start of a binary property list.
        case byte(Int)
        /// A 1-based line and column of an XML property list.
        case lineColumn(line: Int, column: Int)
        /// No position (writing errors).
        case none
    }

    /// What went wrong.
    ///
    /// Not frozen: kinds can be added in a minor release, so a `switch` over them needs a
    /// `default`.
    public enum Kind: Hashable, Sendable {
        /// A limit of `PropertyListLimits` was exceeded; `found` is the offending size when known.
        case limitExceeded(PropertyListLimits.Limit, limit: Int, found: UInt64?)

        // MARK: Binary structure
        /// The data is shorter than a header and a trailer.
        case tooShort(length: Int)
        /// The data does not start with `bplist`.
        case notBinaryPropertyList
        /// The header names a version other than `00`.
        case unsupportedVersion(String)
        /// The trailer's offset size is not 1 to 8 bytes.
        case invalidOffsetSize(Int)
        /// The trailer's object reference size is not 1 to 8 bytes.
        case invalidReferenceSize(Int)
        /// The trailer announces no objects.
        case noObjects
        /// The trailer announces more objects than the offset table has room for.
        case objectCountExceedsData(count: UInt64, room: Int)
        /// The object reference size cannot address every object.
        case referenceSizeTooSmall(size: Int, objects: Int)
        /// The trailer's top object is not one of the objects.
        case topObjectOutOfRange(UInt64, objects: Int)
        /// The offset table does not lie between the header and the trailer.
        case offsetTableOutOfRange(UInt64)
        /// An offset table entry points outside the object area.
        case objectOffsetOutOfRange(object: Int, offset: UInt64)
        /// An object reference is not the index of an object.
        case objectReferenceOutOfRange(UInt64, objects: Int)
        /// An object's bytes run past the end of the object area.
        case truncatedObject(marker: UInt8, needed: UInt64, available: Int)
        /// An object starts with an unknown or unusable marker byte.
        case invalidMarker(UInt8)
        /// An extended length (marker nibble `0xF`) is not followed by a 1- to 8-byte integer.
        case invalidLength(marker: UInt8, lengthMarker: UInt8)
        /// A 16-byte integer lies outside the 64-bit ranges.
        case integerOutOfRange
        /// An ASCII string holds a byte above `0x7F`.
        case invalidASCII(byte: UInt8)
        /// A UTF-16 string holds an unpaired surrogate.
        case invalidUTF16(codeUnit: UInt16)
        /// A UID longer than 8 bytes has a value above `UInt64.max`.
        case uidOutOfRange
        /// A dictionary key is not a string.
        case nonStringKey(String)
        /// An object contains itself, directly or through other containers.
        case referenceCycle(object: Int)

        // MARK: XML structure
        /// The text is not valid UTF-8 (or UTF-16 with a byte-order mark).
        case invalidUTF8
        /// The XML declaration names an encoding other than UTF-8.
        case unsupportedEncoding(String)
        /// The document ends before `expected`.
        case unexpectedEnd(expected: String)
        /// Non-whitespace text where an element was expected.
        case unexpectedText(String)
        /// Markup that is not a well-formed tag, comment, declaration or CDATA section.
        case malformedMarkup(String)
        /// An element name that property lists do not use.
        case unknownElement(String)
        /// An element where it is not allowed (`context` says where).
        case unexpectedElement(String, context: String)
        /// A closing tag that does not match the open element.
        case mismatchedTag(expected: String, found: String)
        /// An entity reference that is unknown or not a valid character.
        case invalidEntity(String)
        /// The text of an `<integer>`.
        case invalidInteger(String)
        /// The text of a `<real>`.
        case invalidReal(String)
        /// The text of a `<date>`.
        case invalidDate(String)
        /// The text of a `<data>` is not base64.
        case invalidBase64
        /// A dictionary key with no value after it.
        case missingValue(key: String)
        /// No root value.
        case emptyDocument
        /// More than one root value, or content after it.
        case extraContent

        // MARK: Writing
        /// A value the target format cannot express (`null` or a non-finite date in XML).
        case unrepresentable(String)
    }

    /// What went wrong.
    public let kind: Kind
    /// Where it was found.
    public let location: Location
    /// The operation that failed.
    public let operation: Operation

    /// Creates an error; readers and writers create these, tests compare against them.
    public init(_ kind: Kind, at location: Location, while operation: Operation) {
        self.kind = kind
        self.location = location
        self.operation = operation
    }

    /// The byte offset, for binary reading errors.
    public var byteOffset: Int? {
        if case .byte(let offset) = location { return offset }
        return nil
    }

    /// The 1-based line, for XML reading errors.
    public var line: Int? {
        if case .lineColumn(let line, _) = location { return line }
        return nil
    }

    /// The 1-based column, for XML reading errors.
    public var column: Int? {
        if case .lineColumn(_, let column) = location { return column }
        return nil
    }

    /// One lowercase sentence: the operation, the location, and the message.
    public var description: String {
        let subject: String
        switch operation {
        case .readingBinary: subject = "invalid binary property list"
        case .readingXML: subject = "invalid xml property list"
        case .writingBinary: subject = "cannot write binary property list"
        case .writingXML: subject = "cannot write xml property list"
        }
        switch location {
        case .byte(let offset): return "\(subject) at byte \(offset): \(kind.message)"
        case .lineColumn(let line, let column): return "\(subject) at line \(line), column \(column): \(kind.message)"
        case .none: return "\(subject): \(kind.message)"
        }
    }
}

// MARK: - Messages

extension PropertyListError.Kind {
    /// The lowercase message for this kind, without location (see `PropertyListError.description`).
    ///
    /// ```swift
    /// PropertyListError.Kind.objectReferenceOutOfRange(99, objects: 42).message
    /// // "object reference 99 is out of range (42 objects)"
    /// ```
    public var message: String {
        switch self {
        case let .limitExceeded(limit, value, found):
            let what: String
            switch limit {
            case .maxDepth: what = "nesting depth"
            case .maxObjectCount: what = "object count"
            case .maxCollectionCount: what = "collection count"
            case .maxStringLength: what = "string length"
            case .maxDataLength: what = "data length"
            case .maxTotalLength: what = "total length of strings and data"
            }
            if let found {
                return "\(what) \(found) exceeds the limit '\(limit)' (\(value))"
            }
            return "\(what) exceeds the limit '\(limit)' (\(value))"
        case let .tooShort(length):
            return "the data is \(length) bytes long, shorter than a header and a trailer (40 bytes)"
        case .notBinaryPropertyList:
            return "the data does not start with 'bplist'"
        case let .unsupportedVersion(version):
            return "version '\(version)' is not supported (only '00')"
        case let .invalidOffsetSize(size):
            return "offset size \(size) is invalid (must be 1 to 8 bytes)"
        case let .invalidReferenceSize(size):
            return "object reference size \(size) is invalid (must be 1 to 8 bytes)"
        case .noObjects:
            return "the trailer announces no objects"
        case let .objectCountExceedsData(count, room):
            return "the trailer announces \(count) objects but the offset table has room for \(room)"
        case let .referenceSizeTooSmall(size, objects):
            return "object reference size \(size) cannot address \(objects) objects"
        case let .topObjectOutOfRange(top, objects):
            return "top object \(top) is out of range (\(objects) objects)"
        case let .offsetTableOutOfRange(offset):
            return "offset table at byte \(offset) does not lie between the header and the trailer"
        case let .objectOffsetOutOfRange(object, offset):
            return "object \(object) has offset \(offset), outside the object area"
        case let .objectReferenceOutOfRange(reference, objects):
            return "object reference \(reference) is out of range (\(objects) objects)"
        case let .truncatedObject(marker, needed, available):
            return "object with marker \(hex(marker)) needs \(needed) bytes but only \(available) remain"
        case let .invalidMarker(marker):
            return marker == 0x0F ? "fill byte 0x0f is not an object" : "unknown object marker \(hex(marker))"
        case let .invalidLength(marker, lengthMarker):
            return "length of object with marker \(hex(marker)) has marker \(hex(lengthMarker)), "
                + "not a 1- to 8-byte integer"
        case .integerOutOfRange:
            return "integer of 16 bytes does not fit in the signed or unsigned 64-bit range"
        case let .invalidASCII(byte):
            return "ascii string contains byte \(hex(byte))"
        case let .invalidUTF16(codeUnit):
            return "utf-16 string contains an unpaired surrogate \(hex(codeUnit))"
        case .uidOutOfRange:
            return "uid does not fit in 64 bits"
        case let .nonStringKey(kind):
            return "dictionary key is of type '\(kind)', not a string"
        case let .referenceCycle(object):
            return "object \(object) contains itself (reference cycle)"
        case .invalidUTF8:
            return "the text is not valid utf-8"
        case let .unsupportedEncoding(encoding):
            return "encoding '\(encoding)' is not supported (only utf-8 and utf-16)"
        case let .unexpectedEnd(expected):
            return "the document ends before '\(expected)'"
        case let .unexpectedText(text):
            return "unexpected text '\(text)' where an element was expected"
        case let .malformedMarkup(detail):
            return detail
        case let .unknownElement(name):
            return "unknown element '<\(name)>'"
        case let .unexpectedElement(name, context):
            return "element '<\(name)>' is not allowed \(context)"
        case let .mismatchedTag(expected, found):
            return "closing tag '</\(found)>' does not match '<\(expected)>'"
        case let .invalidEntity(entity):
            return "entity '\(entity)' is unknown or not a valid character"
        case let .invalidInteger(text):
            return "'\(text)' is not a valid integer"
        case let .invalidReal(text):
            return "'\(text)' is not a valid real"
        case let .invalidDate(text):
            return "'\(text)' is not a valid date (expected 'yyyy-mm-ddThh:mm:ssZ')"
        case .invalidBase64:
            return "data is not valid base64"
        case let .missingValue(key):
            return "key '\(key)' has no value"
        case .emptyDocument:
            return "the document holds no value"
        case .extraContent:
            return "unexpected content after the root value"
        case let .unrepresentable(what):
            return what
        }
    }
}

/// `0x` and two lowercase hex digits.
private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16)
    return byte < 0x10 ? "0x0" + digits : "0x" + digits
}

/// `0x` and four lowercase hex digits.
private func hex(_ unit: UInt16) -> String {
    let digits = String(unit, radix: 16)
    return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
}
