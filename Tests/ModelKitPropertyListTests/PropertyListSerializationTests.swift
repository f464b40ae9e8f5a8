import Foundation
import Testing
@testable import ModelKitPropertyList
import ModelKitTestSupport

/// Every fixture through every reader and writer: parsing, content, round trips, and Apple's
/// exact XML bytes.
struct PropertyListSerializationTests {
    /// go-ios fixtures edited by hand after macOS wrote them; they lack the final newline that
    /// Apple's writer always emits, and differ from our output only there.
    static let handEditedXML: Set<String> = [
        "go-ios/missing_archiver.xml", "go-ios/missing_objects.xml", "go-ios/missing_top.xml",
        "go-ios/missing_version.xml", "go-ios/wrong_archiver.xml", "go-ios/wrong_version.xml",
    ]

    @Test func fixturesArePresentInTheBundle() {
        expectEqual(Fixtures.all.count, 39)
        expectEqual(Fixtures.binary.count, 18)
        expectEqual(Fixtures.xml.count, 20)
        for file in Fixtures.all {
            #expect(!file.bytes.isEmpty, "missing fixture \(file)")
        }
    }

    @Test(arguments: Fixtures.wellFormed)
    func everyWellFormedFixtureParses(_ file: Fixtures.File) throws {
        let value = try PropertyListValue(parsing: file.bytes)
        let format = PropertyListFormat.detect(file.bytes)
        expectEqual(format, (file.isBinary ? .binary : .xml))
        // Every fixture is a keyed archive: a dictionary naming its archiver or its objects.
        let archive = try #require(value.dictionaryValue, "\(file)")
        #expect(archive["$objects"] != nil || archive["$archiver"] != nil, "\(file)")
    }

    @Test func brokenXMLFixtureFailsWithAClearError() {
        let bytes = Fixtures.named("go-ios/broken_plist.xml").bytes
        do {
            let value = try PropertyListValue(parsing: bytes)
            Issue.record("broken_plist.xml was accepted: \(value)")
        } catch {
            expectEqual(error.operation, .readingXML)
            expectEqual(error.line, 1)
            expectEqual(error.column, 1)
            expectEqual(error.kind, .unexpectedText(#"="1.0" encoding="UTF"#))
            #expect(
                error.description
                    == #"invalid xml property list at line 1, column 1: unexpected text '="1.0" encoding="UTF' where an element was expected"#)
        }
    }

    @Test func arrayTestHoldsTheSheepWords() throws {
        let value = try PropertyListValue(parsing: Fixtures.named("corelibs/NSKeyedUnarchiver-ArrayTest.plist").bytes)
        expectEqual(value["$archiver"], "NSKeyedArchiver")
        expectEqual(value["$version"], 100_000)
        #expect(value["$top"]?["root"] == .uid(1))
        let objects = try #require(value["$objects"]?.arrayValue)
        let strings = objects.compactMap(\.stringValue)
        #expect(strings.contains("baa"))
        #expect(strings.contains("black"))
        #expect(strings.contains("sheep"))
        // The root NSArray references its four elements by UID: baa twice.
        let root = try #require(objects[1].dictionaryValue)
        let references = try #require(root["NS.objects"]?.arrayValue).compactMap(\.uidValue)
        expectEqual(references.count, 4)
        let words = references.map { objects[Int($0)].stringValue }
        expectEqual(words, ["baa", "baa", "black", "sheep"])
    }

    @Test func complexTestDecodesEveryKind() throws {
        let value = try PropertyListValue(binary: Fixtures.named("corelibs/NSKeyedUnarchiver-ComplexTest.plist").bytes)
        let objects = try #require(value["$objects"]?.arrayValue)
        expectEqual(objects.count, 23)
        expectEqual(objects[0], "$null")
        expectEqual(objects[9], "hello")
        expectEqual(objects[10], .integer(34545))
        expectEqual(objects[18], "https://www.swift.org")
        expectEqual(objects[20], "index.xml")
        expectEqual(objects[1]["NS.keys"], [.uid(2), .uid(3), .uid(4), .uid(5)])
        expectEqual(objects[17]["NS.base"], .uid(0))
        let uuid: [UInt8] = [0x71, 0xDC, 0x06, 0x8E, 0x34, 0x20, 0x45, 0xFF, 0x91, 0x9E, 0x3A, 0x26, 0x7D, 0x55, 0xEC, 0x22]
        expectEqual(objects[21]["NS.uuidbytes"], .data(Data(uuid)))
        // Document order is kept: Apple wrote these keys in this order.
        #expect(objects[1].dictionaryValue?.keys == ["NS.keys", "NS.objects", "$class"])
    }

    @Test func uuidTestHoldsTheUUIDBytes() throws {
        let value = try PropertyListValue(xml: Fixtures.named("corelibs/NSKeyedUnarchiver-UUIDTest.plist").bytes)
        let objects = try #require(value["$objects"]?.arrayValue)
        let found = objects.compactMap { $0["NS.uuidbytes"]?.dataValue }.first
        let bytes = try #require(found)
        expectEqual(Array(bytes), [0x0A, 0xD8, 0x63, 0xBA, 0x75, 0x84, 0x40, 0xCF, 0x88, 0x96, 0xBD, 0x87, 0xB3, 0x28, 0x0C, 0x34])
    }

    @Test func bpylistDateAndDataArchives() throws {
        let dated = try PropertyListValue(binary: Fixtures.named("bpylist2/date_archive.plist").bytes)
        let time = try #require(dated["$objects"]?[3]?["NS.time"]?.realValue)
        expectEqual(time, PropertyListReal(509_523_358.684097))
        let data = try PropertyListValue(binary: Fixtures.named("bpylist2/data_archive.plist").bytes)
        #expect(data["$objects"]?[3] == .data(Data()))
        let simple = try PropertyListValue(binary: Fixtures.named("bpylist2/simple_archive.plist").bytes)
        #expect(simple["$objects"]?[1] == ["title": .uid(2), "count": 42, "active": true, "$class": .uid(3)])
        // Structurally bad archives are valid property lists at this layer.
        let invalidUID = try PropertyListValue(binary: Fixtures.named("bpylist2/invalid_uid_archive.plist").bytes)
        #expect(invalidUID["$top"]?["root"] == .uid(10))
    }

    @Test(arguments: ["primitives", "arrays", "onevalue", "nestedarrays", "dict"])
    func goIOSBinaryAndXMLFixturesHoldTheSameValue(_ name: String) throws {
        let binary = try PropertyListValue(binary: Fixtures.named("go-ios/\(name).bin").bytes)
        let xml = try PropertyListValue(xml: Fixtures.named("go-ios/\(name).xml").bytes)
        expectEqual(binary, xml)
    }

    @Test func primitivesKeepIntegerRealAndDataApart() throws {
        let value = try PropertyListValue(binary: Fixtures.named("go-ios/primitives.bin").bytes)
        let objects = try #require(value["$objects"]?.arrayValue)
        expectEqual(objects[1], 1)
        expectEqual(objects[2], .real(1.0))
        expectEqual(objects[3], 1.5)
        expectEqual(objects[4], .data(Data("asdfasdfadsfadsf".utf8)))
        expectEqual(objects[5], true)
        expectEqual(objects[9], false)
        expectEqual(objects[10], 42)
    }

    // MARK: Round trips

    @Test(arguments: Fixtures.binary)
    func binaryRoundTripKeepsTheValue(_ file: Fixtures.File) throws {
        let value = try PropertyListValue(binary: file.bytes)
        let written: [UInt8] = value.binaryBytes()
        let again = try PropertyListValue(binary: written)
        #expect(again == value, "\(file)")
        // Writing is deterministic, and what we write rewrites to the same bytes.
        #expect(again.binaryBytes() == written, "\(file)")
        #expect(written.count <= file.bytes.count, "\(file): uniquing never makes the file larger")
    }

    @Test(arguments: Fixtures.xml)
    func xmlToBinaryRoundTripKeepsTheValue(_ file: Fixtures.File) throws {
        let value = try PropertyListValue(xml: file.bytes)
        let again = try PropertyListValue(binary: value.binaryData())
        #expect(again == value, "\(file)")
    }

    @Test(arguments: Fixtures.binary)
    func binaryToXMLRoundTripKeepsTheValue(_ file: Fixtures.File) throws {
        let value = try PropertyListValue(binary: file.bytes)
        let again = try PropertyListValue(xml: value.xmlData())
        #expect(again == value, "\(file)")
    }

    @Test(arguments: Fixtures.xml)
    func xmlFixturesRewriteByteForByte(_ file: Fixtures.File) throws {
        let value = try PropertyListValue(xml: file.bytes)
        let written = try value.xmlBytes()
        var expected = file.bytes
        if Self.handEditedXML.contains(file.description) {
            #expect(expected.last != UInt8(ascii: "\n"))
            expected.append(UInt8(ascii: "\n"))
        }
        #expect(
            String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(file)")
        #expect(written == expected, "\(file)")
    }

    @Test(arguments: Fixtures.binary)
    func binaryFixturesRewriteToAppleXMLForm(_ file: Fixtures.File) throws {
        // The go-ios pairs were written by macOS in both formats: binary → XML gives Apple's XML.
        let xmlName = file.name.replacingOccurrences(of: ".bin", with: ".xml")
        guard file.group == "go-ios", xmlName != file.name else { return }
        let value = try PropertyListValue(binary: file.bytes)
        try expectEqual(value.xmlBytes(), Fixtures.named("go-ios/\(xmlName)").bytes)
    }
}
