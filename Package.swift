// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "ModelKit",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "ModelKit", targets: ["ModelKit"]),
        .library(name: "ModelKitPropertyList", targets: ["ModelKitPropertyList"]),
        .library(name: "ModelKitPreferences", targets: ["ModelKitPreferences"]),
        .library(name: "ModelKitStore", targets: ["ModelKitStore"]),
        .library(name: "ModelKitRemote", targets: ["ModelKitRemote"]),
        // Empty unless the package's `PostgreSQL` trait is enabled.
        .library(name: "ModelKitPostgres", targets: ["ModelKitPostgres"]),
        // Empty unless the package's `Hummingbird` trait is enabled.
        .library(name: "ModelKitHummingbird", targets: ["ModelKitHummingbird"]),
        .executable(name: "modelkit", targets: ["ModelKitTool"]),
    ],
    traits: [
        .trait(
            name: "PostgreSQL",
            description: "The PostgreSQL store (ModelKitPostgres), on PostgresNIO: off by default, as PostgresNIO "
                + "and SwiftNIO take minutes to build."),
        .trait(
            name: "AsyncHTTPClient",
            description: "AsyncHTTPClientTransport, the remote client's transport on AsyncHTTPClient (swift-server), "
                + "and the default one on Linux: off by default, as AsyncHTTPClient and SwiftNIO take minutes to build."),
        .trait(
            name: "Hummingbird",
            description: "ModelKitHummingbird: models as Hummingbird 2 request and response bodies through ModelKit's "
                + "JSON bytes path, and the TodoServer example: off by default, as Hummingbird and SwiftNIO take "
                + "minutes to build."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Built only with the `PostgreSQL` trait.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Built only with the `AsyncHTTPClient` trait.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Built only with the `Hummingbird` trait; without its default traits, which bring
        // swift-configuration and nothing ModelKit uses.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // The macro tests' `assertMacro`.
        .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.7.0"),
        // `swift package generate-documentation`: the DocC catalogues, built by CI (.ci/run): one per
        // library product, and one each for ModelKitCore, ModelKitJSON and ModelKitArchive, the
        // modules the ModelKit product re-exports, whose symbols ModelKit's own catalogue lacks.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The runtime every format builds on: schema, model protocols, readers and writers over
        // JSON objects and dictionaries, transformers, key-value coding, errors.
        .target(name: "ModelKitCore", dependencies: ["ModelKitShared", "CModelKitRuntime"]),

        // The Swift runtime's reference-counting entry points the identity map uses (declarations).
        .target(name: "CModelKitRuntime"),

        // Internals the runtime, the macros and the readers share (`package` access): the key-path
        // syntax, and short ASCII strings in the small form.
        .target(name: "ModelKitShared"),

        // `@Model` and its markers: their expansion and diagnostics, a library the compiler plugin
        // calls and the macro tests expand through (swift-macro-testing's `assertMacro`).
        .target(
            name: "ModelKitMacroExpansion",
            dependencies: [
                "ModelKitShared",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        // The compiler plugin: the macros `ModelKit` declares, expanded by ModelKitMacroExpansion.
        // Only the compiler loads it, so swift-syntax is built once, for the host.
        .macro(
            name: "ModelKitMacros",
            dependencies: [
                "ModelKitMacroExpansion",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        // JSON bytes: the scanner and writer, and the fast mapping path over them.
        .target(name: "ModelKitJSON", dependencies: ["ModelKitCore", "ModelKitShared"]),

        // Property lists, binary and XML, as Apple writes them: a format of their own, usable alone.
        .target(name: "ModelKitPropertyList", dependencies: ["ModelKitShared"]),

        // Keyed archives of object graphs in Apple's NSKeyedArchiver format, on property lists.
        .target(name: "ModelKitArchive", dependencies: ["ModelKitCore", "ModelKitPropertyList", "ModelKitShared"]),

        // Typed persistent preferences.
        .target(name: "ModelKitPreferences", dependencies: ["ModelKitCore", "ModelKitJSON"]),

        // Model stores: the store protocols, an in-memory store, the SQLite store (GRDB), queries,
        // migration and observation.
        .target(
            name: "ModelKitStore",
            dependencies: ["ModelKitCore", "ModelKitJSON", .product(name: "GRDB", package: "GRDB.swift")]
        ),

        // The PostgreSQL store: the store protocols over a PostgreSQL database shared by many
        // processes (PostgresNIO's connection pool, LISTEN/NOTIFY for changes). Its sources are
        // compiled only with the `PostgreSQL` trait, which also brings PostgresNIO in.
        .target(
            name: "ModelKitPostgres",
            dependencies: [
                "ModelKitCore", "ModelKitStore",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            ]
        ),

        // Remote resources: endpoints fetched straight into a context and a store, over a
        // transport protocol with a URLSession implementation, and an AsyncHTTPClient one with the
        // `AsyncHTTPClient` trait.
        .target(
            name: "ModelKitRemote",
            dependencies: [
                "ModelKitCore", "ModelKitJSON", "ModelKitStore",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
            ]),

        // Models as Hummingbird 2 request and response bodies: a request decoder and a response
        // encoder on ModelKit's JSON bytes path, and streamed responses of models. Its sources are
        // compiled only with the `Hummingbird` trait, which also brings Hummingbird in.
        .target(
            name: "ModelKitHummingbird",
            dependencies: [
                "ModelKitCore", "ModelKitJSON",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
            ]),

        // The public face: macro declarations and the runtime, re-exported.
        .target(
            name: "ModelKit",
            dependencies: ["ModelKitCore", "ModelKitJSON", "ModelKitPropertyList", "ModelKitArchive", "ModelKitMacros"]),

        // `modelkit generate`: `@Model` declarations inferred from a sample JSON payload.
        .target(name: "ModelKitGenerator", dependencies: ["ModelKitCore", "ModelKitJSON", "ModelKitShared"]),

        // `modelkit`: demo, and the tools later issues add.
        .executableTarget(
            name: "ModelKitTool",
            dependencies: [
                "ModelKit",
                "ModelKitGenerator",
                "ModelKitPreferences",
                "ModelKitStore",
                "ModelKitPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            resources: [.copy("Resources")]
        ),
        // The README's quick start, built and run by CI.
        .executableTarget(name: "QuickStart", dependencies: ["ModelKit"], path: "Examples/QuickStart"),
        // A small REST API of to-dos over an SQLite store, one context per request, on Hummingbird
        // (the `Hummingbird` trait; without it, the program says so). CI starts it and exercises it
        // over HTTP (.ci/todo-server.py).
        .executableTarget(
            name: "TodoServer",
            dependencies: [
                "ModelKit", "ModelKitStore", "ModelKitHummingbird",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
            ],
            path: "Examples/TodoServer"),

        // Models, payloads and tables the test targets share.
        .target(
            name: "ModelKitTestSupport",
            dependencies: ["ModelKit", "ModelKitPreferences"],
            path: "Tests/ModelKitTestSupport",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "ModelKitCoreTests", dependencies: ["ModelKit", "ModelKitTestSupport"]),
        .testTarget(
            name: "ModelKitJSONTests",
            dependencies: ["ModelKit", "ModelKitTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ModelKitPropertyListTests", dependencies: ["ModelKitPropertyList", "ModelKitShared", "ModelKitTestSupport"]),
        .testTarget(name: "ModelKitArchiveTests", dependencies: ["ModelKit", "ModelKitTestSupport"]),
        .testTarget(name: "ModelKitPreferencesTests", dependencies: ["ModelKit", "ModelKitPreferences", "ModelKitTestSupport"]),
        .testTarget(
            name: "ModelKitStoreTests",
            dependencies: [
                "ModelKit", "ModelKitStore", "ModelKitPostgres", "ModelKitTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            ]
        ),
        .testTarget(
            name: "ModelKitRemoteTests",
            dependencies: [
                "ModelKit", "ModelKitRemote", "ModelKitStore", "ModelKitTestSupport",
            ]
        ),
        .testTarget(
            name: "ModelKitHummingbirdTests",
            dependencies: [
                "ModelKit", "ModelKitHummingbird", "ModelKitTestSupport",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
            ]),
        // Every `modelkit` command, run as the built binary; the generator's rules also in process.
        .testTarget(
            name: "ModelKitToolTests",
            dependencies: ["ModelKitTool", "ModelKit", "ModelKitGenerator", "ModelKitPreferences", "ModelKitTestSupport"]),
        // The models `modelkit generate` wrote for GitHub's events, compiled in a module of their own:
        // their `User` would clash with the Twitter models' in ModelKitToolTests.
        .testTarget(
            name: "ModelKitGeneratedModelTests",
            dependencies: ["ModelKit", "ModelKitGenerator", "ModelKitTestSupport"]),
        // The macros' expansions and diagnostics (`assertMacro`), and what the type checker says
        // of models and contexts, compiled with swiftc against this build's modules and plugin.
        .testTarget(
            name: "ModelKitMacrosTests",
            dependencies: [
                "ModelKitMacroExpansion", "ModelKitTestSupport",
                .product(name: "MacroTesting", package: "swift-macro-testing"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// Asynchronous functions run in their caller's isolation domain unless marked `@concurrent`
// (SE-0461, the default of new Xcode projects): a context and its models are not `Sendable`, and
// every store, context and stream call that takes one must run where they live. Not for the
// tests: Swift Testing's `@Test` expansion does not compile with it (Swift 6.3).
for target in package.targets where target.type == .regular || target.type == .executable {
    guard target.name != "CModelKitRuntime" && target.name != "ModelKitTestSupport" else { continue }
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
}
