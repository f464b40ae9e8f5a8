#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The two property list formats this layer reads and writes.
public enum PropertyListFormat: Hashable, Sendable {
    /// Apple's binary format, `bplist00`.
    case binary
    /// Apple's XML format (`<plist version="1.0">`).
    case xml

    /// The format of `bytes`, judged by the header: `bplist` is binary, anything else is treated
    /// as XML (so that text that is neither gets the XML reader's precise error).
    ///
    /// ```swift
    /// PropertyListFormat.detect(Array("bplist00".utf8))   // .binary
    /// ```
    public static func detect<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> PropertyListFormat {
        bytes.starts(with: "bplist".utf8) ? .binary : .xml
    }
}

extension PropertyListValue {
    /// Reads a binary property list (`bplist00`).
    ///
    /// ```swift
    /// let archive = try PropertyListValue(binary: Data(contentsOf: url))
    /// archive["$archiver"]   // .string("NSKeyedArchiver")
    /// ```
    public init(binary data: Data, limits: PropertyListLimits = .default) throws(PropertyListError) {
        self = try Self.withBytes(of: data) { (buffer) throws(PropertyListError) in
            try BinaryPropertyListReader.read(buffer, limits: limits)
        }
    }

    /// Reads a binary property list (`bplist00`) from bytes.
    ///
    /// ```swift
    /// let value = try PropertyListValue(binary: bytes, limits: PropertyListLimits(maxDepth: 64))
    /// ```
    public init(binary bytes: [UInt8], limits: PropertyListLimits = .default) throws(PropertyListError) {
        self = try Self.withBytes(of: bytes) { (buffer) throws(PropertyListError) in
            try BinaryPropertyListReader.read(buffer, limits: limits)
        }
    }

    /// Reads an XML property list (UTF-8, or UTF-16 with a byte-order mark).
    ///
    /// ```swift
    /// let value = try PropertyListValue(xml: Data(#"<plist version="1.0"><true/></plist>"#.utf8))
    /// value   // .bool(true)
    /// ```
    public init(xml data: Data, limits: PropertyListLimits = .default) throws(PropertyListError) {
        self = try Self.withBytes(of: data) { (buffer) throws(PropertyListError) in
            try XMLPropertyListReader.read(buffer, limits: limits)
        }
    }

    /// Reads an XML property list from bytes.
    ///
    /// ```swift
    /// let value = try PropertyListValue(xml: Array("<string>hi</string>".utf8))
    /// ```
    public init(xml bytes: [UInt8], limits: PropertyListLimits = .default) throws(PropertyListError) {
        self = try Self.withBytes(of: bytes) { (buffer) throws(PropertyListError) in
            try XMLPropertyListReader.read(buffer, limits: limits)
        }
    }

    /// Reads a binary or XML property list, choosing the reader with `PropertyListFormat.detect`.
    ///
    /// ```swift
    /// let value = try PropertyListValue(parsing: Data(contentsOf: url))
    /// ```
    public init(parsing data: Data, limits: PropertyListLimits = .default) throws(PropertyListError) {
        switch PropertyListFormat.detect(data) {
        case .binary: try self.init(binary: data, limits: limits)
        case .xml: try self.init(xml: data, limits: limits)
        }
    }

    /// Reads a binary or XML property list from bytes, choosing the reader by header.
    ///
    /// ```swift
    /// let value = try PropertyListValue(parsing: bytes)
    /// ```
    public init(parsing bytes: [UInt8], limits: PropertyListLimits = .default) throws(PropertyListError) {
        switch PropertyListFormat.detect(bytes) {
        case .binary: try self.init(binary: bytes, limits: limits)
        case .xml: try self.init(xml: bytes, limits: limits)
        }
    }

    /// Encodes the value as a binary property list (see `BinaryPropertyListWriter` for the
    /// layout). Every value has a binary form, so this cannot fail.
    ///
    /// ```swift
    /// let value: PropertyListValue = ["name": "ModelKit"]
    /// try value.binaryData().write(to: url)
    /// ```
    public func binaryData() -> Data {
        Data(BinaryPropertyListWriter.write(self))
    }

    /// Encodes the value as the bytes of a binary property list.
    ///
    /// ```swift
    /// let bytes = PropertyListValue.uid(1).binaryBytes()
    /// ```
    public func binaryBytes() -> [UInt8] {
        BinaryPropertyListWriter.write(self)
    }

    /// Encodes the value as an XML property list, byte for byte as Apple writes it. Throws for
    /// `.null` and for dates that are not finite, which XML cannot express.
    ///
    /// ```swift
    /// let xml = try PropertyListValue.array([]).xmlData()
    /// // <?xml …?>\n<!DOCTYPE …>\n<plist version="1.0">\n<array/>\n</plist>\n
    /// ```
    public func xmlData() throws(PropertyListError) -> Data {
        Data(try XMLPropertyListWriter.write(self))
    }

    /// Encodes the value as the bytes of an XML property list.
    ///
    /// ```swift
    /// let bytes = try PropertyListValue.bool(true).xmlBytes()
    /// ```
    public func xmlBytes() throws(PropertyListError) -> [UInt8] {
        try XMLPropertyListWriter.write(self)
    }

    /// Runs `body` over the contiguous bytes of `bytes`, passing typed errors through.
    // The caller's bytes in place (its `Data` or array), for readers that read them without a copy.
    private static func withBytes<Bytes: ContiguousBytes>(
        of bytes: Bytes,
        _ body: (UnsafeRawBufferPointer) throws(PropertyListError) -> PropertyListValue
    ) throws(PropertyListError) -> PropertyListValue {
        let result: Result<PropertyListValue, PropertyListError> = bytes.withUnsafeBytes { buffer in
            do throws(PropertyListError) {
                return .success(try body(buffer))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

// MARK: - Limits

/// Bounds that property-list readers enforce on untrusted input.
///
/// Every limit is checked before the memory it guards is allocated: a binary header that announces
/// 2^60 elements fails on the count, not on an allocation. A violation throws a
/// `PropertyListError` of kind `.limitExceeded`, naming the limit and its value.
///
/// ```swift
/// var limits = PropertyListLimits.default
/// limits.maxDepth = 64
/// let value = try PropertyListValue(binary: bytes, limits: limits)
/// ```
public struct PropertyListLimits: Hashable, Sendable {
    /// The name of one limit, as it appears in error messages.
    public enum Limit: String, Hashable, Sendable, CustomStringConvertible {
        /// `maxDepth`: nested arrays and dictionaries.
        case maxDepth
        /// `maxObjectCount`: values in the whole document.
        case maxObjectCount
        /// `maxCollectionCount`: elements of one array or entries of one dictionary.
        case maxCollectionCount
        /// `maxStringLength`: code units of one string.
        case maxStringLength
        /// `maxDataLength`: bytes of one data value.
        case maxDataLength
        /// `maxTotalLength`: string code units and data bytes of the whole document.
        case maxTotalLength

        /// The limit's property name, e.g. `maxDepth`.
        public var description: String { rawValue }
    }

    /// The deepest nesting of arrays and dictionaries; a scalar at the top is depth 0, `[1]` is
    /// depth 1. Readers never recurse: this bounds the depth of the value they return, so code
    /// that walks the value recursively stays within a thread's stack. Default 512.
    public var maxDepth: Int

    /// The most values in one document, counting every value at every position. In a binary
    /// property list this bounds both the objects in the offset table and the size of the tree
    /// they expand to (an object referenced twice counts twice), which rules out small files that
    /// expand exponentially. Default 10,000,000.
    public var maxObjectCount: Int

    /// The most elements in one array, or entries in one dictionary. Default 5,000,000.
    public var maxCollectionCount: Int

    /// The longest string, in code units of its stored encoding: bytes for ASCII and UTF-8
    /// (XML), 16-bit units for UTF-16 strings. Default 16,777,216 (16 Mi).
    public var maxStringLength: Int

    /// The longest data value, in bytes. Default 268,435,456 (256 MiB).
    public var maxDataLength: Int

    /// The most string code units plus data bytes in one document, counting every position at
    /// which a string or data value appears. A binary property list can reference one long string
    /// from millions of places at no cost in file size; this bounds the work of anything that
    /// walks the returned value (writing it as XML, comparing, hashing, uniquing it again).
    /// Default 2,147,483,647 (2 GiB − 1).
    public var maxTotalLength: Int

    /// Creates limits; each parameter defaults to the value in `PropertyListLimits.default`.
    ///
    /// ```swift
    /// let strict = PropertyListLimits(maxDepth: 32, maxObjectCount: 100_000)
    /// ```
    public init(
        maxDepth: Int = 512,
        maxObjectCount: Int = 10_000_000,
        maxCollectionCount: Int = 5_000_000,
        maxStringLength: Int = 16_777_216,
        maxDataLength: Int = 268_435_456,
        maxTotalLength: Int = 2_147_483_647
    ) {
        self.maxDepth = maxDepth
        self.maxObjectCount = maxObjectCount
        self.maxCollectionCount = maxCollectionCount
        self.maxStringLength = maxStringLength
        self.maxDataLength = maxDataLength
        self.maxTotalLength = maxTotalLength
    }

    /// The defaults: depth 512, 10 million values, 5 million elements per collection, 16 Mi code
    /// units per string, 256 MiB per data value, 2 GiB of strings and data in all.
    public static let `default` = PropertyListLimits()

    /// The value of one limit.
    ///
    /// ```swift
    /// PropertyListLimits.default.value(of: .maxDepth)   // 512
    /// ```
    public func value(of limit: Limit) -> Int {
        switch limit {
        case .maxDepth: return maxDepth
        case .maxObjectCount: return maxObjectCount
        case .maxCollectionCount: return maxCollectionCount
        case .maxStringLength: return maxStringLength
        case .maxDataLength: return maxDataLength
        case .maxTotalLength: return maxTotalLength
        }
    }
}
