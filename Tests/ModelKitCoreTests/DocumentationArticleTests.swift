import Foundation
import ModelKitTestSupport
import Testing

/// Every DocC article starts from an example a test runs, and shows that example word for word.
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
        "IdentityAndContexts.md": .swift(snippet: "identity", test: "Tests/ModelKitCoreTests/ArticleExampleTests.swift"),
        "UntrustedInput.md": .swift(snippet: "untrusted-input", test: "Tests/ModelKitCoreTests/ArticleExampleTests.swift"),
        "Store.md": .swift(snippet: "store", test: "Tests/ModelKitStoreTests/ArticleExampleTests.swift"),
        "WorkingWithAContext.md": .swift(snippet: "context", test: "Tests/ModelKitStoreTests/ContextArticleExampleTests.swift"),
        "KeyedArchives.md": .swift(snippet: "archives", test: "Tests/ModelKitArchiveTests/ArticleExampleTests.swift"),
        "Preferences.md": .swift(snippet: "preferences", test: "Tests/ModelKitPreferencesTests/ArticleExampleTests.swift"),
        "Remote.md": .swift(snippet: "remote", test: "Tests/ModelKitRemoteTests/ArticleExampleTests.swift"),
        "CommandLineTool.md": .transcript(test: "Tests/ModelKitToolTests/DocumentationExampleTests.swift"),
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
