import Foundation
import ModelKit
import Testing

/// Access to the archive fixtures copied into the test bundle (`Fixtures/archives/…`).
public enum Fixtures {
    /// A fixture file: its group (`corelibs`, `go-ios`, `bpylist2`) and name.
    public struct File: CustomStringConvertible, Sendable, Hashable {
        public let group: String
        public let name: String

        public init(group: String, name: String) {
            self.group = group
            self.name = name
        }

        public var description: String { "\(group)/\(name)" }

        public var url: URL {
            Fixtures.root.appendingPathComponent(group).appendingPathComponent(name)
        }

        /// The file's bytes; a missing fixture is a test failure, reported as empty bytes.
        public var bytes: [UInt8] {
            (try? [UInt8](Data(contentsOf: url))) ?? []
        }

        public var isBinary: Bool { bytes.starts(with: Array("bplist".utf8)) }
    }

    public static let root: URL = {
        guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            return URL(fileURLWithPath: "/nonexistent-fixtures")
        }
        return url.appendingPathComponent("archives")
    }()

    /// Every fixture, sorted by group and name.
    public static let all: [File] = {
        var files: [File] = []
        for group in ["bpylist2", "corelibs", "go-ios"] {
            let directory = root.appendingPathComponent(group)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                files.append(File(group: group, name: name))
            }
        }
        return files
    }()

    /// Fixtures that are not well-formed property lists at all.
    public static let malformedPropertyLists: Set<String> = ["go-ios/broken_plist.xml"]

    /// Every well-formed property list fixture.
    public static let wellFormed: [File] = all.filter { !malformedPropertyLists.contains($0.description) }

    public static let binary: [File] = wellFormed.filter(\.isBinary)
    public static let xml: [File] = wellFormed.filter { !$0.isBinary }

    /// Each malformed fixture and the exact error it gets.
    public static let malformedArchives: [String: String] = [
        "go-ios/missing_archiver.xml": "not a keyed archive: '$archiver' is missing",
        "go-ios/wrong_archiver.xml": "not a keyed archive: '$archiver' is 'DummyArchiver', expected 'NSKeyedArchiver'",
        "go-ios/missing_version.xml": "unsupported keyed archive: '$version' is missing",
        "go-ios/wrong_version.xml": "unsupported keyed archive: '$version' is 18, expected 100000",
        "go-ios/missing_top.xml": "not a keyed archive: '$top' is missing",
        "go-ios/missing_objects.xml": "not a keyed archive: '$objects' is missing",
        "go-ios/broken_plist.xml":
            "cannot read keyed archive: invalid xml property list at line 1, column 1: unexpected text '=\"1.0\" encoding=\"UTF' where an element was expected",
        "bpylist2/invalid_type_archive.plist":
            "not a keyed archive: '$archiver' is 'NSArchiver', expected 'NSKeyedArchiver'",
        "bpylist2/invalid_version_archive.plist": "unsupported keyed archive: '$version' is 10000, expected 100000",
        "bpylist2/invalid_uid_archive.plist": "invalid keyed archive at '$top.root': reference 10 is out of range (3 objects)",
        "bpylist2/missing_uid_archive.plist": "invalid keyed archive at object 1: the object has no '$class'",
        "bpylist2/no_class_meta_archive.plist":
            "invalid keyed archive at object 1: '$class' refers to object 3, a string, not a class description",
        "bpylist2/no_top_archive.plist": "not a keyed archive: '$top' is missing",
    ]

    /// Every fixture that is a well-formed keyed archive.
    public static let goodArchives = wellFormed.filter { !malformedArchives.keys.contains($0.description) }

    public static func named(_ path: String) -> File {
        let parts = path.split(separator: "/", maxSplits: 1).map(String.init)
        return File(group: parts[0], name: parts[1])
    }
}

// MARK: - Hand-built binary property lists

/// Assembles binary property lists byte by byte, so tests can build malformed ones: objects are
/// given as raw bytes, and every trailer field can be overridden.
public struct BinaryPlistBuilder {
    public var objects: [[UInt8]]
    public var offsetSize = 1
    public var referenceSize = 1
    public var top: UInt64 = 0
    public var objectCount: UInt64?
    public var tableOffset: UInt64?
    /// Replaces computed offsets (by object index).
    public var offsets: [Int: UInt64] = [:]
    public var header: [UInt8] = Array("bplist00".utf8)

    public init(_ objects: [[UInt8]]) {
        self.objects = objects
    }

    /// The offset of object `index` in the built file.
    public func offset(of index: Int) -> Int {
        header.count + objects[..<index].reduce(0) { $0 + $1.count }
    }

    public func build() -> [UInt8] {
        var bytes = header
        var computed: [UInt64] = []
        for object in objects {
            computed.append(UInt64(bytes.count))
            bytes += object
        }
        let table = UInt64(bytes.count)
        for (index, offset) in computed.enumerated() {
            bytes += Self.bigEndian(offsets[index] ?? offset, size: offsetSize)
        }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(truncatingIfNeeded: offsetSize), UInt8(truncatingIfNeeded: referenceSize)]
        bytes += Self.bigEndian(objectCount ?? UInt64(objects.count), size: 8)
        bytes += Self.bigEndian(top, size: 8)
        bytes += Self.bigEndian(tableOffset ?? table, size: 8)
        return bytes
    }

    public static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (size - 1 - $0))) }
    }

    // MARK: Object bytes

    public static func ascii(_ text: String) -> [UInt8] {
        marker(0x5, count: text.utf8.count) + Array(text.utf8)
    }

    public static func int(_ value: UInt8) -> [UInt8] { [0x10, value] }

    public static func array(_ references: [UInt64], referenceSize: Int = 1) -> [UInt8] {
        marker(0xA, count: references.count) + references.flatMap { bigEndian($0, size: referenceSize) }
    }

    public static func dict(keys: [UInt64], values: [UInt64], referenceSize: Int = 1) -> [UInt8] {
        marker(0xD, count: keys.count) + (keys + values).flatMap { bigEndian($0, size: referenceSize) }
    }

    /// A marker with an inline count, or `0xF` and a 1-, 2-, 4- or 8-byte count.
    public static func marker(_ nibble: UInt8, count: Int) -> [UInt8] {
        if count < 15 { return [nibble << 4 | UInt8(count)] }
        if count <= 0xFF { return [nibble << 4 | 0xF, 0x10, UInt8(count)] }
        if count <= 0xFFFF { return [nibble << 4 | 0xF, 0x11] + bigEndian(UInt64(count), size: 2) }
        return [nibble << 4 | 0xF, 0x13] + bigEndian(UInt64(count), size: 8)
    }

    /// A marker announcing `count` elements with an 8-byte extended count and no content.
    public static func hugeCount(_ nibble: UInt8, _ count: UInt64) -> [UInt8] {
        [nibble << 4 | 0xF, 0x13] + bigEndian(count, size: 8)
    }

    /// A chain of `depth` nested arrays: object i holds object i + 1, the last is empty.
    public static func nestedArrays(depth: Int) -> [UInt8] {
        var objects: [[UInt8]] = []
        for index in 0..<depth {
            objects.append(index == depth - 1 ? [0xA0] : array([UInt64(index + 1)], referenceSize: 2))
        }
        var builder = BinaryPlistBuilder(objects)
        builder.referenceSize = 2
        builder.offsetSize = 2
        return builder.build()
    }
}

/// The single bit the bit-flip tests flip at `position`: a different one from byte to byte, so
/// that one flip per byte still hits every bit position across a file.
public func rotatingBit(at position: Int) -> UInt8 {
    UInt8(1) << (position % 8)
}

extension Fixtures.File {
    /// Expects `text` and `json` to be this archive's dumps (`modelkit archive dump`, or
    /// `ArchiveDump` in process): a tree, and a JSON object of the archive's top-level keys.
    public func expectDumps(text: Data, json: Data, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(!text.isEmpty, "\(self): no tree", sourceLocation: sourceLocation)
        let parsed = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        let document = try KeyedArchiveDocument(data: Data(bytes))
        #expect(
            parsed?.keys.sorted() == document.topKeys.map(KeyedArchiver.unescapeKey).sorted(), "\(self)",
            sourceLocation: sourceLocation)
    }

    /// Expects `binary` and `xml` to be this archive rewritten in each format (`modelkit archive
    /// convert`, or the property list's own writers): both read as the same property list, and
    /// an XML fixture comes back byte for byte.
    public func expectConversions(binary: Data, xml: Data, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let document = try KeyedArchiveDocument(data: Data(bytes))
        let binaryDocument = try KeyedArchiveDocument(data: binary)
        expectEqual(binaryDocument.format, .binary, "\(self)", sourceLocation: sourceLocation)
        expectEqual(binaryDocument.propertyList, document.propertyList, "\(self)", sourceLocation: sourceLocation)
        try expectEqual(KeyedArchiveDocument(data: xml).propertyList, document.propertyList, "\(self)", sourceLocation: sourceLocation)
        if !isBinary {
            expectEqual([UInt8](xml), bytes, "\(self): not byte for byte", sourceLocation: sourceLocation)
        }
    }
}
