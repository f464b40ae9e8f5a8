import Foundation
import ModelKitTestSupport
import Testing

/// Mistakes only the type checker can see (a property type ModelKit cannot map, a transformer for
/// another type) are compiled for real with swiftc, the built modules and the built plugin: the
/// errors must say what would work, not "no exact matches in call to instance method
/// 'decodeValue'" or "requires the types 'Int' and 'Date' be equivalent".
@Suite struct TypeCheckDiagnosticsTests {
    static let unmappable =
        "a '@Model' property's type must be a standard value (String, Int, Double, Bool, Date, Data, URL, UUID, Decimal), a '@Model' type, Codable, or an optional, array or dictionary of those: make the type Codable, give the property a '@Transform', or mark it '@Transient'"
    static let mismatchedTransform =
        "'modelTransformer(for:_:)' is unavailable: the '@Transform' transformer converts a type other than the property's: use a transformer whose 'Value' is the property's type (a date transformer for a 'Date' property), or change the property's type"

    static let mismatchedConstraint =
        "'modelConstraints(for:_:)' is unavailable: a '@Validate' constraint applies to another type than the property's: '.length' and '.pattern' to strings, '.count' and '.nonEmpty' to collections and strings, '.range' to values of the property's own type"

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
        // On the property's own line (8), which names it and its type, not in generated code.
        let errors = Self.errors(in: output)
        #expect(errors.first == "place.swift:8: error: 'decodeValue' is unavailable: \(Self.unmappable)", "\(output)")
        #expect(errors.allSatisfy { $0.hasPrefix("place.swift:8: error: ") && $0.hasSuffix(Self.unmappable) }, "\(output)")
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
        let errors = Self.errors(in: output)
        #expect(errors.first == "place.swift:5: error: \(Self.mismatchedTransform)", "\(output)")
        // What follows from the mismatch is reported on the same line.
        #expect(errors.allSatisfy { $0.hasPrefix("place.swift:5: error: ") }, "\(output)")
        #expect(!output.contains("be equivalent"), "\(output)")
    }

    /// A constraint that does not apply to the property's type (a length of a number, a range of
    /// another type's values) is an error on the property's line.
    @Test func aConstraintForAnotherTypeIsAnErrorOnThePropertysLine() throws {
        let output = try Self.typeCheck(
            """
            import ModelKit

            @Model
            struct Review {
                @Validate(.range(1...5)) var rating: Int
                @Validate(.length(1...3)) var stars: Int
                @Validate(.range(1...5)) var title: String
            }
            """)
        let errors = Self.errors(in: output)
        for line in [6, 7] {
            #expect(errors.contains("place.swift:\(line): error: \(Self.mismatchedConstraint)"), "\(output)")
        }
        #expect(errors.allSatisfy { $0.hasPrefix("place.swift:6: ") || $0.hasPrefix("place.swift:7: ") }, "\(output)")
    }

    /// A query orders only what orders as stored: a decimal (text), a URL, nested JSON do not
    /// compile with `<`, `>=` or `order(by:)`; numbers, strings and dates do.
    @Test func orderingWhatDoesNotOrderAsStoredIsACompileError() throws {
        let output = try Self.typeCheck(
            """
            import Foundation
            import ModelKit
            import ModelKitStore

            @Model struct Item {
                @Identifier var id: Int
                var price: Decimal
                var link: URL?
                var tags: [String] = []
                var added: Date
            }

            let fine = ModelQuery(Item.self).filter(\\Item.id > 3 && \\Item.added <= Date()).order(by: \\Item.added)
            let price = ModelQuery(Item.self).filter(\\Item.price > 3)
            let link = ModelQuery(Item.self).filter(\\Item.link >= URL(string: "https://a.example"))
            let tags = ModelQuery(Item.self).filter(\\Item.tags < ["b"])
            let sorted = ModelQuery(Item.self).order(by: \\Item.price)
            """)
        let errors = Self.errors(in: output)
        #expect(errors.count == 4, "\(output)")
        for (line, name) in [(14, "'>'"), (15, "'>='"), (16, "'<'"), (17, "'order(by:_:)'")] {
            #expect(
                errors.contains { $0.hasPrefix("place.swift:\(line): error: \(name) is unavailable: a query orders only") },
                "line \(line): \(output)")
        }
    }

    /// The errors in swiftc's output as `file:line: error: message`, the file without its directory
    /// and the column left out (a column in generated code means nothing to the user).
    static func errors(in output: String) -> [String] {
        output.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: ": error: ") else { return nil }
            let place = line[..<range.lowerBound].split(separator: "/").last.map(String.init) ?? ""
            let fileAndLine = place.split(separator: ":").prefix(2).joined(separator: ":")
            return "\(fileAndLine): error: \(line[range.upperBound...])"
        }
    }

    /// What `swiftc -typecheck` prints for `source` (saved as `place.swift`), against the modules
    /// and the macro plugin of this build; `arguments` go to swiftc too (`-swift-version 6`).
    /// `mode` `-emit-sil` goes on to the checks that run on SIL (data-race safety's regions).
    static func typeCheck(_ source: String, mode: String = "-typecheck", arguments: [String] = []) throws -> String {
        let plugin = try modelKitMacrosPlugin.location.get()
        let build = plugin.deletingLastPathComponent()
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("place.swift")
        try Data(source.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // The C modules the Swift ones import: ModelKit's runtime shims, and SQLite's for the store
        // (GRDB's system library, in the package's checkouts beside the build folder).
        let sqlite = build.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap")
        let moduleMaps = [build.appendingPathComponent("CModelKitRuntime.build/module.modulemap"), sqlite]
        process.arguments =
            ["swiftc", mode, file.path, "-I", build.appendingPathComponent("Modules").path]
            + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=" + $0.path] }
            + ["-load-plugin-executable", plugin.path + "#ModelKitMacros"] + arguments
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
