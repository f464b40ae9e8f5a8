import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// `modelkit archive dump` and `convert`, run as the built `modelkit` binary: on a sample of the
/// fixtures, and on every malformed one.
struct ArchiveCommandTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory("ArchiveCommandTests")
    }

    func temporaryURL(_ name: String) -> URL {
        directory.file(name)
    }

    /// The fixtures the binary dumps and converts: a binary and an XML archive of each group that
    /// has both (bpylist2's are all binary), among them shared references, nested arrays and
    /// Foundation values. The tool hands the file to `ArchiveDump` and the property list's
    /// writers, which `ArchiveFixtureTests` runs on every fixture in process; a process per
    /// fixture and format cost seconds.
    static let sample = [
        "bpylist2/recursive_archive.plist", "corelibs/NSKeyedUnarchiver-ComplexTest.plist",
        "corelibs/NSKeyedUnarchiver-NotificationTest.plist", "go-ios/dict.bin", "go-ios/nestedarrays.xml",
    ].map(Fixtures.named)

    @Test func theSampleHasBothFormatsOfEveryGroup() {
        #expect(Self.sample.allSatisfy(Fixtures.goodArchives.contains))
        for group in Set(Fixtures.goodArchives.map(\.group)) {
            let formats = { (files: [Fixtures.File]) in Set(files.filter { $0.group == group }.map(\.isBinary)) }
            expectEqual(formats(Self.sample), formats(Fixtures.goodArchives), "\(group)")
        }
    }

    @Test(arguments: sample)
    func dumpPrintsTheTreeAndJSON(_ file: Fixtures.File) throws {
        let text = try ModelKitTool.run(["archive", "dump", file.url.path])
        #expect(text.status == 0, "\(text.errorOutput)")
        let json = try ModelKitTool.run(["archive", "dump", file.url.path, "--format", "json"])
        #expect(json.status == 0, "\(json.errorOutput)")
        try file.expectDumps(text: text.outputData, json: json.outputData)
    }

    @Test(arguments: Fixtures.malformedArchives.keys.sorted())
    func dumpRejectsEveryMalformedFixture(_ path: String) throws {
        let result = try ModelKitTool.run(["archive", "dump", Fixtures.named(path).url.path])
        expectEqual(result.status, 1)
        #expect(result.outputData.isEmpty)
        expectEqual(result.errorOutput, "modelkit: \(Fixtures.malformedArchives[path] ?? "")\n")
    }

    @Test(arguments: sample)
    func convertRoundTripsThroughBothFormats(_ file: Fixtures.File) throws {
        let binary = temporaryURL("binary.plist")
        let xml = temporaryURL("xml.plist")
        defer {
            try? FileManager.default.removeItem(at: binary)
            try? FileManager.default.removeItem(at: xml)
        }
        try expectEqual(ModelKitTool.run(["archive", "convert", file.url.path, "--to", "binary", "-o", binary.path]).status, 0)
        try expectEqual(ModelKitTool.run(["archive", "convert", binary.path, "--to", "xml", "-o", xml.path]).status, 0)
        try file.expectConversions(binary: Data(contentsOf: binary), xml: Data(contentsOf: xml))
    }

    @Test func dumpShowsTheTree() throws {
        let result = try ModelKitTool.run(["archive", "dump", Fixtures.named("corelibs/NSKeyedUnarchiver-ArrayTest.plist").url.path])
        #expect(
            result.output == """
                root: NSArray #1 (4 elements)
                  [0]: "baa"
                  [1]: "baa"
                  [2]: "black"
                  [3]: "sheep"

                """)
    }

    @Test func dumpMarksSharedReferences() throws {
        let result = try ModelKitTool.run(["archive", "dump", Fixtures.named("bpylist2/recursive_archive.plist").url.path])
        #expect(
            result.output == """
                root: crap.Foo #1
                  title: "hello"
                  recursive: crap.Foo #3
                    title: "yo"
                    recursive: nil

                """)
        let shared = try KeyedArchiver.archivedData(withRootObject: [ArchivedObject(className: "Box")].flatMap { [$0, $0] })
        let file = temporaryURL("shared.plist")
        defer { try? FileManager.default.removeItem(at: file) }
        try shared.write(to: file)
        let tree = try ModelKitTool.run(["archive", "dump", file.path])
        #expect(
            tree.output == """
                root: NSArray #1 (2 elements)
                  [0]: Box #2 (shared)
                  [1]: -> Box #2 (shared, printed above)

                """)
        let json = try ModelKitTool.run(["archive", "dump", file.path, "--format", "json"])
        #expect(
            json.output == """
                {
                  "root": [
                    {
                      "$class": "Box"
                    },
                    {"$ref": 2}
                  ]
                }

                """)
    }

    @Test func dumpPrintsJSONInNaturalForms() throws {
        let result = try ModelKitTool.run(["archive", "dump", Fixtures.named("corelibs/NSKeyedUnarchiver-ComplexTest.plist").url.path, "--format", "json"])
        let root = try #require((try JSONSerialization.jsonObject(with: result.outputData) as? [String: Any])?["root"] as? [String: Any])
        #expect(root["string"] as? String == "hello")
        let array = try #require(root["array"] as? [Any])
        expectEqual(array.count, 4)
        #expect(array[0] is NSNull)
        #expect(array[2] as? Int == 34545)
        #expect(array[3] as? [String: String] == ["key": "val"])
        let uuid = try #require(root["uuid"] as? [String: Any])
        #expect(uuid["$class"] as? String == "NSUUID")
        #expect(uuid["NS.uuidbytes"] as? String == "cdwGjjQgRf+RnjomfVXsIg==")
    }

    @Test func missingFilesAndUnknownFormatsFailWithASentence() throws {
        let missing = try ModelKitTool.run(["archive", "dump", "/nonexistent/archive.plist"])
        expectEqual(missing.status, 1)
        expectEqual(missing.errorOutput, "modelkit: cannot read '/nonexistent/archive.plist': no such file\n")
        let notAnArchive = temporaryURL("text.plist")
        defer { try? FileManager.default.removeItem(at: notAnArchive) }
        try PropertyListValue.array([1, 2]).xmlData().write(to: notAnArchive)
        let result = try ModelKitTool.run(["archive", "convert", notAnArchive.path, "--to", "binary", "-o", temporaryURL("out").path])
        expectEqual(result.status, 1)
        expectEqual(result.errorOutput, "modelkit: not a keyed archive: the root is an array, not a dictionary\n")
    }
}
