import Foundation
import ModelKitTestSupport
import Testing

/// Every DocC article starts from an example a test runs, and shows that example word for word;
/// so does every reference page of a module's own catalogue that shows Swift, its example run by
/// the module's own test target. Every other Swift block of any catalogue is tested or listed.
///
/// An article's first code block is its example. A Swift example must equal the test source's
/// region marked `// snippet: NAME-start` ... `// snippet: NAME-end` (without its common
/// indentation; see ``DocumentationExamples``), and the test that holds it runs it and checks
/// what it prints against the comments it shows. The command-line tool's example is a shell
/// transcript that its test reads from the article and runs.
@Suite struct DocumentationArticleTests {
    /// How an article's example is tested.
    enum Example {
        /// A Swift snippet in a test source, relative to the package.
        case swift(snippet: String, test: String)
        /// A shell transcript the test reads from the article and runs.
        case transcript(test: String)
    }

    static let examples: [String: Example] = [
        "MappingModels.md": .swift(snippet: "mapping", test: "Tests/ModelKitCoreTests/ArticleExampleTests.swift"),
        "Transformers.md": .swift(snippet: "transformers", test: "Tests/ModelKitCoreTests/ArticleExampleTests.swift"),
        "Errors.md": .swift(snippet: "errors", test: "Tests/ModelKitCoreTests/ArticleExampleTests.swift"),
        "JSONSchema.md": .swift(snippet: "json-schema", test: "Tests/ModelKitJSONTests/JSONSchemaArticleExampleTests.swift"),
        "Constraints.md": .swift(snippet: "constraints", test: "Tests/ModelKitJSONTests/ConstraintArticleExampleTests.swift"),
        "Presence.md": .swift(snippet: "presence", test: "Tests/ModelKitJSONTests/PresenceArticleExampleTests.swift"),
        "Enums.md": .swift(snippet: "enums", test: "Tests/ModelKitJSONTests/EnumArticleExampleTests.swift"),
        "GenericModels.md": .swift(
            snippet: "generic-models", test: "Tests/ModelKitJSONTests/GenericModelArticleExampleTests.swift"),
        "IdentityAndContexts.md": .swift(snippet: "identity", test: "Tests/ModelKitCoreTests/ArticleExampleTests.swift"),
        "UntrustedInput.md": .swift(snippet: "untrusted-input", test: "Tests/ModelKitCoreTests/ArticleExampleTests.swift"),
        "Store.md": .swift(snippet: "store", test: "Tests/ModelKitStoreTests/ArticleExampleTests.swift"),
        "WorkingWithAContext.md": .swift(snippet: "context", test: "Tests/ModelKitStoreTests/ContextArticleExampleTests.swift"),
        "Relationships.md": .swift(
            snippet: "relationships", test: "Tests/ModelKitStoreTests/RelationshipsArticleExampleTests.swift"),
        "KeyedArchives.md": .swift(snippet: "archives", test: "Tests/ModelKitArchiveTests/ArticleExampleTests.swift"),
        "Preferences.md": .swift(snippet: "preferences", test: "Tests/ModelKitPreferencesTests/ArticleExampleTests.swift"),
        "Remote.md": .swift(snippet: "remote", test: "Tests/ModelKitRemoteTests/ArticleExampleTests.swift"),
        "CommandLineTool.md": .transcript(test: "Tests/ModelKitToolTests/DocumentationExampleTests.swift"),
    ]

    /// The reference pages of the modules' own catalogues that show Swift, by path: each
    /// starts from the example a test in the module's own test target runs, shown word for
    /// word as the page's first code block.
    static let referenceExamples: [String: (snippet: String, test: String)] = [
        "Sources/ModelKitCore/ModelKitCore.docc/ModelKitCore.md":
            ("reference-core", "Tests/ModelKitCoreTests/ReferenceExampleTests.swift"),
        "Sources/ModelKitJSON/ModelKitJSON.docc/ModelKitJSON.md":
            ("reference-json", "Tests/ModelKitJSONTests/ReferenceExampleTests.swift"),
        "Sources/ModelKitArchive/ModelKitArchive.docc/ModelKitArchive.md":
            ("reference-archive", "Tests/ModelKitArchiveTests/ReferenceExampleTests.swift"),
        "Sources/ModelKitPreferences/ModelKitPreferences.docc/ModelKitPreferences.md":
            ("reference-preferences", "Tests/ModelKitPreferencesTests/ReferenceExampleTests.swift"),
        "Sources/ModelKitPropertyList/ModelKitPropertyList.docc/ModelKitPropertyList.md":
            ("reference-propertylist", "Tests/ModelKitPropertyListTests/ReferenceExampleTests.swift"),
        "Sources/ModelKitRemote/ModelKitRemote.docc/ModelKitRemote.md":
            ("reference-remote", "Tests/ModelKitRemoteTests/ReferenceExampleTests.swift"),
        "Sources/ModelKitStore/ModelKitStore.docc/ModelKitStore.md":
            ("reference-store", "Tests/ModelKitStoreTests/ReferenceExampleTests.swift"),
        "Sources/ModelKitStore/ModelKitStore.docc/KeyPath.md":
            ("reference-keypath", "Tests/ModelKitStoreTests/ReferenceExampleTests.swift"),
        "Sources/ModelKitStore/ModelKitStore.docc/ModelContext.md":
            ("reference-modelcontext", "Tests/ModelKitStoreTests/ReferenceExampleTests.swift"),
        "Sources/ModelKitPostgres/ModelKitPostgres.docc/ModelKitPostgres.md":
            ("reference-postgres", "Tests/ModelKitStoreTests/Postgres/PostgresReferenceExampleTests.swift"),
        "Sources/ModelKitHummingbird/ModelKitHummingbird.docc/ModelKitHummingbird.md":
            ("reference-hummingbird", "Tests/ModelKitHummingbirdTests/ReferenceExampleTests.swift"),
    ]

    /// The test target of a module whose tests live in another's: ModelKitPostgres builds only
    /// with the `PostgreSQL` trait, and its tests run in ModelKitStoreTests with it.
    static let testTargets = ["ModelKitPostgres": "ModelKitStoreTests"]

    /// A Swift block that is not a page's checked first block.
    enum OtherBlock {
        /// The snippet `snippet` of the test source `test`, which runs it, word for word.
        case tested(snippet: String, test: String)
        /// A block no test compiles yet, named by its first line: a part of the page's example
        /// shown again in a section (a variation, a declaration, a loop that does not end), or
        /// code that needs what the tests lack (a package manifest, a PostgreSQL server).
        case untested(firstLine: String)
    }

    /// Every page's Swift blocks that are not its checked first block, in order. A new block
    /// fails ``everySwiftBlockOfEveryCatalogueIsTestedOrListed()`` until it is listed here.
    static let otherBlocks: [String: [OtherBlock]] = [
        "Sources/ModelKit/ModelKit.docc/MappingModels.md": [
            .untested(firstLine: "@Model(keys: .snakeCase)"),
            .tested(snippet: "separate-keys", test: "Tests/ModelKitJSONTests/SeparateKeysTests.swift"),
            .tested(snippet: "invalid-value-default", test: "Tests/ModelKitJSONTests/InvalidValueDefaultTests.swift"),
            .tested(snippet: "omit-policy", test: "Tests/ModelKitJSONTests/OmitPolicyTests.swift"),
            .tested(snippet: "unknown-keys", test: "Tests/ModelKitJSONTests/UnknownKeysTests.swift"),
            .untested(firstLine: "for try await user in ModelJSON.elements(of: User.self, in: exportURL) {"),
        ],
        "Sources/ModelKit/ModelKit.docc/Constraints.md": [
            .tested(snippet: "constraints-custom", test: "Tests/ModelKitJSONTests/ConstraintArticleExampleTests.swift"),
        ],
        "Sources/ModelKit/ModelKit.docc/Preferences.md": [
            .untested(firstLine: "for await scale in prefs.changes(of: .fontScale) {"),
        ],
        "Sources/ModelKit/ModelKit.docc/Store.md": [
            .untested(firstLine: "try await store.write { tx in"),
            .tested(snippet: "store-concurrency", test: "Tests/ModelKitStoreTests/SQLiteConcurrentReadTests.swift"),
            .untested(firstLine: "// Package.swift of an app"),
            .untested(firstLine: #"let store = try PostgresStore(url: "postgres://app@127.0.0.1:5432/models")"#),
            .untested(firstLine: "try context.performMapping {"),
            .untested(firstLine: "let query = ModelQuery(Status.self)"),
            .tested(snippet: "store-aggregates", test: "Tests/ModelKitStoreTests/StoreAggregateTests.swift"),
            .tested(snippet: "store-cursor", test: "Tests/ModelKitStoreTests/StoreCursorTests.swift"),
            .tested(snippet: "store-search", test: "Tests/ModelKitStoreTests/StoreSearchTests.swift"),
            .tested(snippet: "store-indexes", test: "Tests/ModelKitStoreTests/StoreIndexTests.swift"),
            .untested(firstLine: "@Model(version: 2) final class Person {"),
            .tested(snippet: "store-migrations", test: "Tests/ModelKitStoreTests/StoreRecordedMigrationTests.swift"),
        ],
        "Sources/ModelKit/ModelKit.docc/Relationships.md": [
            .tested(snippet: "relationships-identifiers", test: "Tests/ModelKitCoreTests/RelationshipRepresentationTests.swift"),
        ],
        "Sources/ModelKit/ModelKit.docc/WorkingWithAContext.md": [
            .tested(snippet: "context-actor", test: "Tests/ModelKitStoreTests/ContextArticleExampleTests.swift"),
        ],
    ]

    /// The catalogue's articles, without the landing page.
    static func articles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: DocumentationExamples.catalogue.path)
            .filter { $0.hasSuffix(".md") && $0 != "ModelKit.md" }
            .sorted()
    }

    @Test func everyArticleStartsFromItsTestedExample() throws {
        let root = DocumentationExamples.packageRoot()
        let articles = try Self.articles()
        #expect(articles == Self.examples.keys.sorted(), "every article needs a tested example, listed here")
        for article in articles {
            let markdown = try String(contentsOf: DocumentationExamples.catalogue.appendingPathComponent(article), encoding: .utf8)
            let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
            // The example comes first: before any section but the overview.
            let firstFence = try #require(lines.firstIndex { $0.hasPrefix("```") }, "\(article) has no code block")
            let sections = lines.indices.filter { lines[$0].hasPrefix("## ") && lines[$0] != "## Overview" }
            #expect(sections.allSatisfy { $0 > firstFence }, "\(article): the example comes before the first section")

            switch Self.examples[article] {
            case .swift(let name, let test):
                #expect(lines[firstFence] == "```swift", "\(article): the first code block is the Swift example")
                let shown = try #require(DocumentationExamples.firstCodeBlock("swift", in: markdown))
                let tested = try DocumentationExamples.snippet(name, inFile: root.appendingPathComponent(test).path)
                #expect(shown == tested, "\(article)'s first swift block differs from snippet '\(name)' in \(test)")
            case .transcript(let test):
                #expect(lines[firstFence] == "```sh", "\(article): the first code block is the shell transcript")
                let source = try String(contentsOf: root.appendingPathComponent(test), encoding: .utf8)
                #expect(source.contains("\"\(article)\""), "\(test) runs \(article)'s transcript")
            case nil:
                break
            }
        }
    }

    @Test func everyReferencePageStartsFromItsTestedExample() throws {
        let root = DocumentationExamples.packageRoot()
        for (page, example) in Self.referenceExamples.sorted(by: { $0.key < $1.key }) {
            let markdown = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
            let firstFence = try #require(lines.firstIndex { $0.hasPrefix("```") }, "\(page) has no code block")
            #expect(lines[firstFence] == "```swift", "\(page): the first code block is the Swift example")
            let sections = lines.indices.filter { lines[$0].hasPrefix("## ") && lines[$0] != "## Overview" }
            #expect(sections.allSatisfy { $0 > firstFence }, "\(page): the example comes before the first section")

            // The module's own test target runs it and checks what it prints.
            let module = String(page.split(separator: "/")[1])
            let target = Self.testTargets[module] ?? module + "Tests"
            #expect(example.test.hasPrefix("Tests/\(target)/"), "\(page)'s example is tested in \(target)")
            let source = try String(contentsOf: root.appendingPathComponent(example.test), encoding: .utf8)
            #expect(
                source.contains("DocumentationExamples.snippet(\"\(example.snippet)\", inFile: #filePath)"),
                "\(example.test) checks what snippet '\(example.snippet)' prints")
            let shown = try #require(DocumentationExamples.firstCodeBlock("swift", in: markdown))
            let tested = try DocumentationExamples.snippet(example.snippet, in: source)
            #expect(shown == tested, "\(page)'s first swift block differs from snippet '\(example.snippet)' in \(example.test)")
        }
    }

    /// Every Swift block of every catalogue is a page's first block, which a test runs and the
    /// tests above compare with its snippet, or is listed in ``otherBlocks``.
    @Test func everySwiftBlockOfEveryCatalogueIsTestedOrListed() throws {
        let root = DocumentationExamples.packageRoot()
        let pages = try DocumentationExamples.cataloguePages()
        let articlePrefix = "Sources/ModelKit/ModelKit.docc/"
        var checkedFirst = Set(Self.referenceExamples.keys)
        for case (let article, .swift) in Self.examples { checkedFirst.insert(articlePrefix + article) }
        #expect(checkedFirst.isSubset(of: pages), "\(checkedFirst.subtracting(pages).sorted()) are not pages")
        #expect(Set(Self.otherBlocks.keys).isSubset(of: pages), "\(Set(Self.otherBlocks.keys).subtracting(pages).sorted()) are not pages")

        for page in pages {
            let markdown = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            let blocks = DocumentationExamples.codeBlocks("swift", in: markdown)
            let fences = markdown.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("```swift") }
            #expect(fences.count == blocks.count, "\(page): a swift fence that is indented or says more than ```swift")
            let others = Array(blocks.dropFirst(checkedFirst.contains(page) ? 1 : 0))
            let listed = Self.otherBlocks[page] ?? []
            #expect(others.count == listed.count, "\(page) has \(others.count) swift blocks to list in otherBlocks, not \(listed.count)")
            for (block, listing) in zip(others, listed) {
                switch listing {
                case .tested(let name, let test):
                    let tested = try DocumentationExamples.snippet(name, inFile: root.appendingPathComponent(test).path)
                    #expect(block == tested, "\(page): a swift block differs from snippet '\(name)' in \(test)")
                case .untested(let firstLine):
                    #expect(block.prefix { $0 != "\n" } == firstLine, "\(page): a swift block starts otherwise than '\(firstLine)'")
                }
            }
        }
    }

    @Test func theLandingPageListsEveryArticle() throws {
        let landing = try String(contentsOf: DocumentationExamples.catalogue.appendingPathComponent("ModelKit.md"), encoding: .utf8)
        for article in try Self.articles() {
            let name = article.dropLast(".md".count)
            #expect(landing.contains("- <doc:\(name)>"), "ModelKit.md's topics lack \(name)")
        }
    }

    @Test func snippetsJoinTheirSegmentsWithoutIndentation() throws {
        let source = """
            // snippet: a-start
            // snippet: b-start
            import Foundation
            // snippet: b-end
            // snippet: a-end
            func f() {
                // snippet: a-start
                let x = 1
                    print(x)  // 1
                // snippet: a-end
            }
            """
        let snippet = try DocumentationExamples.snippet("a", in: source)
        expectEqual(snippet, "import Foundation\n\nlet x = 1\n    print(x)  // 1")
        expectEqual(DocumentationExamples.commentedOutput(of: snippet), ["1"])
        expectEqual(try DocumentationExamples.snippet("b", in: source), "import Foundation")
        #expect(throws: SnippetError.self) { try DocumentationExamples.snippet("c", in: source) }
        #expect(throws: SnippetError.self) { try DocumentationExamples.snippet("a", in: "// snippet: a-start\nx") }
    }
}

/// The README tells a newcomer how to depend on ModelKit and where each capability is explained:
/// its package snippet names products the package has, and its links reach existing articles.
@Suite struct ReadmeTests {
    static let root = DocumentationExamples.packageRoot()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The quoted names after `marker` in `text`: `.library(name: "ModelKit"` gives `ModelKit`.
    static func names(after marker: String, in text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(text)
        while let range = rest.range(of: marker) {
            rest = rest[range.upperBound...]
            if let end = rest.firstIndex(of: "\"") { names.insert(String(rest[..<end])) }
        }
        return names
    }

    @Test func thePackageSnippetNamesProductsThePackageHas() throws {
        let readme = try Self.text("README.md")
        #expect(readme.contains("## Add it to your package"))
        let used = Self.names(after: ".product(name: \"", in: readme)
        let products = Self.names(after: ".library(name: \"", in: try Self.text("Package.swift"))
        #expect(!used.isEmpty && used.isSubset(of: products), "README uses \(used), Package.swift has \(products)")
        // The first screen points to it.
        let firstScreen = readme.split(separator: "\n", omittingEmptySubsequences: false).prefix(20).joined(separator: "\n")
        #expect(firstScreen.contains("(#add-it-to-your-package)"))
    }

    @Test func everyLinkedArticleExists() throws {
        let readme = try Self.text("README.md")
        let links = Self.names(after: "](Sources/ModelKit/ModelKit.docc/", in: readme.replacingOccurrences(of: ")", with: "\""))
        let articles = Set(links.map { $0.split(separator: "#").first.map(String.init) ?? $0 })
        #expect(articles.count >= 9, "\(articles.sorted())")
        for article in articles {
            let path = "Sources/ModelKit/ModelKit.docc/" + article
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(path)")
        }
    }
}
