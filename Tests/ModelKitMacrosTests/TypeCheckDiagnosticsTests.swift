import Foundation
import ModelKitTestSupport
import Testing

/// Mistakes only the type checker can see (a property type ModelKit cannot map, a transformer for
/// another type) are compiled for real with swiftc, the built modules and the built plugin: the
/// errors must say what would work, not "no exact matches in call to instance method
/// 'decodeValue'" or "requires the types 'Int' and 'Date' be equivalent".
@Suite struct TypeCheckDiagnosticsTests {
    static let unmappable =
        "'decodeValue' is unavailable: a '@Model' property's type must be a standard value (String, Int, Double, Bool, Date, Data, URL, UUID, Decimal), a '@Model' type, Codable, or an optional, array or dictionary of those: make the type Codable, give the property a '@Transform', or mark it '@Transient'"
    static let mismatchedTransform =
        "'modelTransformer(for:_:)' is unavailable: the '@Transform' transformer converts a type other than the property's: use a transformer whose 'Value' is the property's type (a date transformer for a 'Date' property), or change the property's type"

    @Test func aPropertyTypeThatCannotBeMappedSaysWhatWould() throws {
        let output = try Self.typeCheck(
            """
            import ModelKit

            struct Point { var x = 0 }

            @Model
            struct Place {
                var name: String
                var point: Point
            }
            """)
        #expect(output.contains("error: \(Self.unmappable)"), "\(output)")
        // The generated line the error points at names the property and its type.
        #expect(output.contains("self.point = try reader.decodeValue((Point).self)"), "\(output)")
        #expect(output.contains("place.swift:9:2: note: expanded code originates here"), "\(output)")
        #expect(!output.contains("no exact matches"), "\(output)")
    }

    @Test func aTransformForAnotherTypeSaysSo() throws {
        let output = try Self.typeCheck(
            """
            import ModelKit

            @Model
            struct Counter {
                @Transform(.millisecondsSince1970) var count: Int
            }
            """)
        #expect(output.contains("error: \(Self.mismatchedTransform)"), "\(output)")
        #expect(output.contains("ModelKitCore.modelTransformer(for: (Int).self, .millisecondsSince1970)"), "\(output)")
        #expect(!output.contains("be equivalent"), "\(output)")
    }

    /// What `swiftc -typecheck` prints for `source` (saved as `place.swift`), against the modules
    /// and the macro plugin of this build.
    static func typeCheck(_ source: String) throws -> String {
        let plugin = try MacroPluginClient.plugin.location.get()
        let build = plugin.deletingLastPathComponent()
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("place.swift")
        try Data(source.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", file.path, "-I", build.appendingPathComponent("Modules").path,
            "-Xcc", "-fmodule-map-file=" + build.appendingPathComponent("CModelKitRuntime.build/module.modulemap").path,
            "-load-plugin-executable", plugin.path + "#ModelKitMacros",
        ]
        process.currentDirectoryURL = directory.url
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0, "the source type-checked without errors")
        return text
    }
}
